import { Command } from '@commander-js/extra-typings';
import { commands } from './commands.js';
import { exitOnError } from './fail.js';
import { TOOL_VERSION } from '../common/version.js';

const program = new Command('parity')
  .description('TTS Parity Studio: synthesize, compare and gate text-to-speech renderings')
  .version(TOOL_VERSION)
  .exitOverride()
  .configureOutput({ writeErr: (text) => process.stderr.write(text) });

for (const register of commands) register(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  exitOnError(program.args[0] ?? '', error);
}
