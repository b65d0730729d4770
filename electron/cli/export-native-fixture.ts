/**
 * Writes the native check's fixture (docs/native-backend.md) through the CLI's one output writer:
 *   node dist/electron/cli/export-native-fixture.js --bundle DIR --out DIR [--stale-step N] [--force]
 * scripts/gpu-pack runs it; exit 2 and one line for bad input, as every parity command.
 */
import { Command } from '@commander-js/extra-typings';
import { resolve } from 'node:path';
import { nativeFixtureFiles } from '../engine/native/export-native-fixture.js';
import { writeOutputFolder } from '../host/fs/output-files.js';
import { parseInteger } from './commands/compare-options.js';
import { action, formatCommanderErrors, exitOnError } from './fail.js';
import { wroteFolderLine } from './write-output.js';
import { printOut } from './print.js';

const program = new Command('export-native-fixture')
  .description("the native check's weights, prompt and ORT CPU references of a bundle")
  .requiredOption('--bundle <dir>', 'the bundle (parity bundle build-demo --out DIR)')
  .requiredOption('--out <dir>', 'the fixture folder to write (refused if it exists, unless --force)')
  .option('--stale-step <n>', 'the step of the stale-feedback reference (default 2)', parseInteger('a step'), 2)
  .option('--force', 'write into an existing folder, replacing its files')
  .exitOverride()
  .action(
    action('export-native-fixture', async (options) => {
      const files = await nativeFixtureFiles(resolve(options.bundle), options.staleStep);
      await writeOutputFolder('--out', options.out, files, { force: options.force === true, inputs: [options.bundle] });
      printOut(wroteFolderLine(options.out, files.keys()));
    }),
  );
formatCommanderErrors(program, ['export-native-fixture']);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  exitOnError('export-native-fixture', error);
}
