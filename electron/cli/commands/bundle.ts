import type { Command } from '@commander-js/extra-typings';
import { Engine } from '../../engine/engine.js';
import { InputError } from '../../common/errors.js';
import { jsonSyntaxMessage } from '../../engine/bundle/json-syntax.js';
import { readFileChecked } from '../../engine/comparison/read-inputs.js';
import { demoBundleFiles } from '../../engine/demo/build-demo-bundle.js';
import { DEMO_SEED, type DemoConfig } from '../../engine/demo/demo-config.js';
import { parseDemoConfig } from '../../engine/demo/demo-config-schema.js';
import { runSmoke } from '../../engine/smoke/smoke-check.js';
import type { BundleInfo } from '../../engine/types.js';
import { action } from '../fail.js';
import { checkOutputFolder, writeOutputFolder } from '../../host/fs/output-files.js';
import { runnableProfileLines, runnableProfiles } from './bundle-profiles.js';
import { parseSeed } from './compare-options.js';
import { printOut, printErr } from '../print.js';

function describe(info: BundleInfo): string {
  const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;
  const dec = (d: BundleInfo['talker']) =>
    `${count(d.layers, 'layer')}, hidden ${d.hidden}, ${count(d.heads, 'query head')} / ${count(d.kvHeads, 'KV head')} × ${d.headDim}, max ${d.maxPositions} positions; exports ${d.exports.join(', ')}`;
  const lines = [
    `bundle ${info.name} (${info.dir}) OK`,
    `sha256 ${info.hash}`,
    ...(info.description ? [info.description] : []),
    `audio: ${info.sampleRate} Hz, ${info.frameRate} frames/s, ${info.codebooks} codebooks × ${info.codebookSize} codes`,
    `text: ${info.tokenizer.summary}; at most ${info.tokenizer.limit} ${info.tokenizer.unit}, ${info.framesPerChar} frames per character, at most ${info.maxFrames} frames`,
    `talker: ${dec(info.talker)}`,
    ...(info.encoder ? [`encoder: hidden ${info.encoder.hidden}, max ${info.encoder.maxPositions} text ids; exports ${info.encoder.exports.join(', ')}`] : []),
    info.codePredictor ? `code predictor: ${dec(info.codePredictor)}` : 'code predictor: none (the talker emits every codebook)',
    `vocoder: chunks of ${info.vocoder.chunkFrames} frames with ${info.vocoder.leftContextFrames} frames of left context; exports ${info.vocoder.exports.join(', ')}`,
    ...info.layout,
    'files (each opened in ONNX Runtime and checked against bundle.json):',
    ...info.files.map(
      (f) => `  ${f.file} (${f.label}): ${f.inputs.length} inputs, ${f.outputs.length} outputs`,
    ),
    ...runnableProfileLines(info),
  ];
  return lines.join('\n') + '\n';
}

/** `--config`'s DemoConfig, or one InputError line naming the file and what is wrong (line and column, or each bad field). */
async function readDemoConfig(path: string): Promise<DemoConfig> {
  const text = new TextDecoder().decode(await readFileChecked(path));
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InputError(`--config ${path}: not valid JSON: ${jsonSyntaxMessage(text, error)}`, path);
  }
  return parseDemoConfig(json, `--config ${path}`);
}

export function registerBundle(program: Command): void {
  const bundle = program
    .command('bundle')
    .description('check a tts-parity-bundle/1 folder or build the demo bundle');
  bundle
    .command('check')
    .description('open every model of a bundle in ONNX Runtime and check it against bundle.json')
    .argument('<dir>', 'bundle folder')
    .option('--json', 'print what was found as JSON')
    .option('--smoke', 'also run every export on random inputs at two sizes of each length and compare eager with graph on a short greedy run (docs/bundle-format.md, "Smoke check")')
    .action(
      action('bundle check', async (dir: string, options) => {
        const engine = await Engine.open(dir);
        try {
          const info = engine.info();
          // Progress only for a person watching: a failure's one line stays the only line on stderr otherwise.
          const progress = process.stderr.isTTY ? (what: string) => printErr(`smoke: ${what}…\n`) : undefined;
          const smoke = options.smoke ? await runSmoke(dir, (req) => engine.synthesize(req), progress) : undefined;
          if (options.json) printOut(JSON.stringify({ ...info, profiles: runnableProfiles(info), ...(smoke ? { smoke } : {}) }, null, 2) + '\n');
          else printOut(describe(info) + (smoke ? ['smoke check (each export on seeded random inputs; eager vs graph greedy):', ...smoke.map((l) => `  ${l}`), 'smoke OK'].join('\n') + '\n' : ''));
        } finally {
          await engine.close();
        }
      }),
    );
  bundle
    .command('build-demo')
    .description('write the demo bundle (fixed seed, byte-for-byte reproducible), or with --config the demo architecture at other sizes, into a new folder')
    .requiredOption('--out <dir>', 'folder to create (missing parent folders are created)')
    .option('--force', 'write into the folder even if it exists')
    .option('--config <file.json>', 'build the demo architecture at other sizes: a DemoConfig JSON file (docs/bundle-format.md)')
    .option('--seed <n>', `seed of the untrained weights, an integer in [0, 4294967295] (default ${DEMO_SEED}, the built-in demo's); recorded in bundle.json's description`, parseSeed)
    .action(
      action('bundle build-demo', async (options) => {
        // Refused before the build (seconds of CPU), as every command checks its outputs first.
        await checkOutputFolder('--out', options.out, options);
        const config = options.config === undefined ? undefined : await readDemoConfig(options.config);
        const files = demoBundleFiles(options.seed ?? DEMO_SEED, { config });
        await writeOutputFolder('--out', options.out, files, options);
        printOut(`wrote ${files.size} files to ${options.out}\n`);
      }),
    );
}
