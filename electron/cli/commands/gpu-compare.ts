import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from '@commander-js/extra-typings';
import { InputError } from '../../common/errors.js';
import { GPU_CHECK_FORMAT, GpuCheckSummary, renderGpuMarkdown, twinTraces, type GpuComparison } from '../../common/gpu/gpu-check-summary.js';
import { jsonSyntaxMessage } from '../../engine/bundle/json-syntax.js';
import { readTextChecked } from '../../engine/fs/read-checked.js';
import { writeOutputFiles } from '../../host/fs/output-files.js';
import { action } from '../fail.js';
import { printOut } from '../print.js';

/** bin/parity.js from dist/electron/cli/commands/ or, from source (tests), electron/cli/commands/. */
const LAUNCHER = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? '../../../bin/parity.js' : '../../../../bin/parity.js', import.meta.url));

/** Runs this checkout's `parity` in a child process (the same code paths as typing the command). */
function parity(args: string[]): { status: number; stdout: string; stderr: string } {
  const done = spawnSync(process.execPath, [LAUNCHER, ...args], { encoding: 'utf8', maxBuffer: 256 << 20 });
  return { status: done.status ?? 3, stdout: done.stdout, stderr: done.stderr };
}

/** `text` of `file` as JSON, or the one-line refusal naming the file and where the syntax breaks. */
function parseJsonOf(file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InputError(`${file}: not valid JSON: ${jsonSyntaxMessage(text, error)}`, file);
  }
}

async function readSummary(folder: string): Promise<GpuCheckSummary> {
  const file = join(folder, 'summary.json');
  if (!existsSync(file)) throw new InputError(`${file}: not found: give the folder scripts/gpu-check wrote (unpack gpu-check.tar.gz first: tar xzf)`, file);
  const text = await readTextChecked(file);
  const parsed = GpuCheckSummary.safeParse(parseJsonOf(file, text));
  if (!parsed.success) throw new InputError(`${file}: not a ${GPU_CHECK_FORMAT} summary: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`, file);
  return parsed.data;
}

interface TraceReport {
  verdict: string;
  divergence: { firstStep: number | null; flip?: unknown };
  metrics?: { maxAbsDiff: number; nullDepthDb: number };
}

/**
 * The twin's tolerances against the engine (docs/python-twin.md): logit statistics 1e-4 (float32 sums in
 * another order, measured ≤ 3.1e-6), audio 1e-3 (the vocoder in the engine's order; ORT's ReduceSum of the
 * frame phase totals is what remains, measured ≤ 9.4e-4 on CPU). The same for the twin's eager vs graph.
 */
export const GPU_COMPARE_TOLERANCES = { logit: 1e-4, audio: 1e-3 } as const;

function comparePair(name: string, a: { trace: string; wav: string }, b: { trace: string; wav: string }, out: string): GpuComparison {
  const folder = join(out, name);
  const tolerances = ['--logit-tol', String(GPU_COMPARE_TOLERANCES.logit), '--audio-tol', String(GPU_COMPARE_TOLERANCES.audio)];
  const done = parity(['compare-trace', a.trace, b.trace, '--wav-a', a.wav, '--wav-b', b.wav, ...tolerances, '--out', folder, '--force', '--json']);
  if (done.status !== 0) throw new InputError(`compare-trace ${name} failed (exit ${done.status}): ${done.stderr.trim().split('\n').pop() ?? ''}`);
  const r = JSON.parse(done.stdout) as TraceReport;
  const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return {
    name,
    a: a.trace,
    b: b.trace,
    verdict: r.verdict,
    codesIdentical: r.divergence.flip === undefined,
    firstDivergentStep: r.divergence.firstStep,
    maxAbsDiff: num(r.metrics?.maxAbsDiff),
    nullDepthDb: num(r.metrics?.nullDepthDb),
    folder,
  };
}

export function registerGpuCompare(program: Command): void {
  program
    .command('gpu-compare')
    .description("turn what scripts/gpu-check brought back into reports: the twin's CUDA traces against this machine's engine (ORT CPU) and against each other, and one note (docs/gpu.md)")
    .argument('<folder>', 'the folder scripts/gpu-check wrote (summary.json, logs, twin-*/trace.jsonl + audio.wav)')
    .option('--out <dir>', 'where the reports go (default FOLDER/reports)')
    .option('--bundle <dir>', 'bundle the engine runs (default: the built-in demo bundle, which the twin ran)')
    .action(
      action('gpu-compare', async (folderArg: string, o) => {
        const folder = resolve(folderArg);
        const summary = await readSummary(folder);
        const out = resolve(o.out ?? join(folder, 'reports'));
        await mkdir(out, { recursive: true });
        const comparisons: GpuComparison[] = [];
        const traces = twinTraces(summary).map((t) => ({ ...t, trace: join(folder, t.trace), wav: join(folder, t.wav) }));
        for (const t of traces) if (!existsSync(t.trace) || !existsSync(t.wav)) throw new InputError(`${t.trace} or ${t.wav}: listed in summary.json but not in the folder`);
        if (traces.length > 0) {
          const header = (parseJsonOf(traces[0].trace, (await readTextChecked(traces[0].trace)).split('\n')[0]) ?? {}) as { text?: string; seed?: number };
          if (typeof header.text !== 'string') throw new InputError(`${traces[0].trace}: the trace header has no text: cannot rerun it on the engine`);
          const engine = { trace: join(out, 'engine-eager.jsonl'), wav: join(out, 'engine-eager.wav') };
          const synth = parity(['synth', '--text', header.text, '--profile', 'eager', '--seed', String(header.seed ?? 0), '--out', engine.wav, '--trace', engine.trace, '--force',
            ...(o.bundle ? ['--bundle', o.bundle] : [])]);
          if (synth.status !== 0) throw new InputError(`synth on the engine failed (exit ${synth.status}): ${synth.stderr.trim().split('\n').pop() ?? ''}`);
          for (const t of traces) comparisons.push(comparePair(`engine-vs-twin-${t.profile}`, engine, t, out));
          for (let i = 1; i < traces.length; i++) comparisons.push(comparePair(`twin-${traces[0].profile}-vs-twin-${traces[i].profile}`, traces[0], traces[i], out));
        }
        const note = renderGpuMarkdown(summary, comparisons);
        const result = { device: summary.device, passed: summary.passed, failed: summary.failed, missing: summary.missing, tolerances: GPU_COMPARE_TOLERANCES, comparisons };
        // The reports folder is this command's own, made again on each run: its two files are replaced.
        await writeOutputFiles(
          [
            { flag: '--out', path: join(out, 'gpu-compare.md'), data: note },
            { flag: '--out', path: join(out, 'gpu-compare.json'), data: JSON.stringify(result, null, 2) + '\n' },
          ],
          { force: true },
        );
        printOut(note);
        printOut(`\nwrote gpu-compare.md, gpu-compare.json and ${comparisons.length} report folder(s) to ${out}\n`);
      }),
    );
}
