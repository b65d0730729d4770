import { resolve } from 'node:path';
import type { Command } from '@commander-js/extra-typings';
import { noFaultApplied, unappliedFaultLines } from '../../common/forensics/fault-outcomes.js';
import { parseProfile } from '../../common/profile/parse-profile.js';
import { stringifyReport } from '../../common/report/json-number.js';
import { TRACE_SCHEMA } from '../../common/trace/trace-format.js';
import { writeTrace } from '../../common/trace/write-trace.js';
import { TOOL_NAME, TOOL_VERSION } from '../../common/version.js';
import { encodeWav } from '../../common/wav/encode-wav.js';
import { Engine, resolveDemoBundle } from '../../engine/engine.js';
import type { SynthesisResult } from '../../engine/types.js';
import { InputError } from '../../common/errors.js';
import { takeCheck } from '../../common/analysis/take-condition.js';
import { takeWords } from '../../common/report/audio-check.js';
import { action } from '../fail.js';
import { checkOutputFile, writeOutputFiles, type OutputFile } from '../../host/fs/output-files.js';
import { exitOnInterrupt } from '../interrupt.js';
import { addSamplingOptions, parseSeed, samplingFrom } from './compare-options.js';
import { printOut, printErr, controlErr } from '../print.js';
import { addAllowHostOption } from './endpoint-options.js';
import { synthEndpoint } from './synth-endpoint.js';
import { isEndpointSide, parseEndpoint } from '../../common/profile/endpoint-side.js';

function summary(r: SynthesisResult, out: string): string {
  const lines = [
    `wrote ${out}: ${(r.audio.length / r.sampleRate).toFixed(2)} s at ${r.sampleRate} Hz, ${r.frames} frames × ${r.q} codebooks`,
    `profile ${r.profile}, seed ${r.seed}, sampling ${r.sampling.mode}; ran on ${r.executionProvider}${r.fallback ? ` (fallback: ${r.fallback})` : ''}`,
    `time ${r.timings.totalMs.toFixed(0)} ms (talker prefill ${r.timings.talkerPrefillMs.toFixed(1)} ms, vocoder ${r.timings.vocoderMs.toFixed(1)} ms, inside ORT ${r.timings.sessionRunMs.toFixed(0)} ms)`,
    `NaN talker/code-predictor/vocoder: ${r.numerics.nan.talker}/${r.numerics.nan.codePredictor}/${r.numerics.nan.vocoder}; Inf: ${r.numerics.inf.talker}/${r.numerics.inf.codePredictor}/${r.numerics.inf.vocoder}`,
  ];
  return lines.join('\n') + '\n';
}

/**
 * As `parity compare` does (docs/faults.md, "Applied or not"): one warning per fault that did not act,
 * and exit 2 when faults were asked for and none acted — the WAV does not show what was asked.
 */
function reportUnappliedFaults(r: SynthesisResult): void {
  for (const w of unappliedFaultLines([{ label: 'profile', profile: r.profile, faults: r.faults }])) printErr(`warning: ${w}\n`);
  const faults = r.faults ?? [];
  if (noFaultApplied(faults)) {
    printErr(`parity synth: none of the requested faults was applied (${faults.map((f) => f.fault).join(', ')}); exit 2\n`);
    process.exitCode = 2;
  }
}

export function registerSynth(program: Command): void {
  const command = program
    .command('synth')
    .description('synthesize one prompt with one execution profile and write a WAV (and optionally its step trace)')
    .requiredOption('--text <text>', 'the prompt (UTF-8; the bundle sets the byte limit, 128 for the demo)')
    .requiredOption('--out <file.wav>', 'output WAV (32-bit float); missing parent folders are created')
    .option('--trace <file.jsonl>', 'also write the step trace (tts-parity-trace/1, JSON Lines)')
    .option('--force', 'replace --out and --trace if they exist')
    .option('--profile <profile>', 'execution profile, e.g. eager, graph,vocoder=stream (default eager), or a speech endpoint: endpoint=http://127.0.0.1:8091,model=… (docs/deployments.md)')
    .option('--seed <n>', 'seed of the sampler (default 0)', parseSeed)
    .option('--bundle <dir>', 'bundle folder (default: the built-in demo bundle, built on first use)')
    .option('--json', 'print the result summary as JSON (no audio, no steps)');
  addAllowHostOption(addSamplingOptions(command))
    .action(
      action('synth', async (options) => {
        if (options.profile !== undefined && isEndpointSide(options.profile)) {
          return synthEndpoint(parseEndpoint(options.profile), { ...options, seed: options.seed ?? 0, sampling: samplingFrom(options) });
        }
        const profile = parseProfile(options.profile ?? 'eager');
        const sampling = samplingFrom(options);
        if (options.trace !== undefined && resolve(options.trace) === resolve(options.out))
          throw new InputError(`--trace ${options.trace}: the same file as --out`, options.trace);
        // Checked before the (slow) synthesis, and again when writing: nothing is half-written.
        await checkOutputFile({ flag: '--out', path: options.out }, options);
        if (options.trace !== undefined) await checkOutputFile({ flag: '--trace', path: options.trace }, options);
        exitOnInterrupt('synth');
        const engine = await Engine.open(options.bundle ?? (await resolveDemoBundle()));
        try {
          const tty = process.stderr.isTTY === true && !options.json;
          const r = await engine.synthesize(
            { text: options.text, profile, seed: options.seed ?? 0, sampling },
            tty
              ? { onProgress: (p) => controlErr(`\r${p.stage} ${p.step}/${p.totalSteps}   `) }
              : {},
          );
          if (tty) controlErr('\r\x1b[K');
          const outputs: OutputFile[] = [{ flag: '--out', path: options.out, data: encodeWav([r.audio], r.sampleRate, 'float32') }];
          if (options.trace !== undefined) {
            const header = {
              schema: TRACE_SCHEMA,
              engine: `${TOOL_NAME} ${TOOL_VERSION}`,
              q: r.q,
              frameRate: engine.info().frameRate,
              sampleRate: r.sampleRate,
              profile: r.profile,
              seed: r.seed,
              text: options.text,
              ...(r.codebookDelays ? { codebookDelays: r.codebookDelays } : {}),
            } as const;
            outputs.push({ flag: '--trace', path: options.trace, data: writeTrace(header, r.steps) });
          }
          await writeOutputFiles(outputs, options);
          const audioCheck = takeCheck(r.audio);
          if (options.json) {
            const { audio: _a, codes: _c, steps: _s, ...rest } = r;
            printOut(
              stringifyReport({ ...rest, out: options.out, durationS: r.audio.length / r.sampleRate, audioCheck }) + '\n',
            );
          } else printOut(summary(r, options.out));
          const degenerate = takeWords('the audio', audioCheck);
          if (degenerate) printErr(`warning: ${degenerate}: a comparison of it will not compare audio\n`);
          reportUnappliedFaults(r);
        } finally {
          await engine.close();
        }
      }),
    );
}
