import { Command } from '@commander-js/extra-typings';
import { commands } from './commands.js';
import { exitOnError, formatCommanderErrors, isBrokenPipe, setVerbose } from './fail.js';
import { TOOL_VERSION } from '../common/version.js';
import { printErr } from './print.js';

const program = new Command('parity')
  .description('TTS Parity Studio: synthesize, compare and gate text-to-speech renderings')
  .version(TOOL_VERSION)
  .option('--verbose', 'after an internal error (exit 3), also print its stack trace')
  .hook('preAction', (root) => setVerbose(root.opts().verbose === true))
  .exitOverride()
  .configureOutput({ writeErr: (text) => printErr(text) });

// A reader that stops early (`| head`) closes the pipe: the rest of the output is dropped quietly and
// the command finishes with its own exit status (EPIPE is not a failed gate, nor a bug).
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (isBrokenPipe(error)) return;
    exitOnError(program.args[0] ?? '', error);
  });
}

for (const register of commands) register(program);
formatCommanderErrors(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  exitOnError(program.args[0] ?? '', error);
}
