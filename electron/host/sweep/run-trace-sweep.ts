import { compareTraces, type TraceSide } from '../../common/forensics/compare-traces.js';
import { caseFromReport } from '../../common/sweep/case-from-report.js';
import type { SweepCase } from '../../common/sweep/sweep-case.js';
import { readWavFile, reportTime } from '../../engine/comparison/read-inputs.js';
import { readTraceFile } from '../../engine/comparison/stream-trace.js';
import type { TracePair } from './pair-traces.js';
import { runCases } from './run-cases.js';

export interface TraceSweepOptions {
  signal?: AbortSignal;
  onCase: (c: SweepCase) => void;
}

async function side(file: string, wav: string | undefined): Promise<TraceSide> {
  return { file, trace: await readTraceFile(file), audio: wav === undefined ? undefined : await readWavFile(wav) };
}

/**
 * Compares each pair of traces (and their WAVs) as `parity compare-trace` does, one at a time in this
 * process (no engine runs). A pair that cannot be read or compared becomes an error line; the sweep goes on.
 */
export async function runTraceSweep(pairs: TracePair[], options: TraceSweepOptions): Promise<void> {
  await runCases(
    pairs.map((p) => ({ ...p, seed: null, key: p.id })),
    async (pair) => {
      const started = performance.now();
      const report = await compareTraces(await side(pair.traceA, pair.wavA), await side(pair.traceB, pair.wavB), { createdAt: reportTime() });
      return caseFromReport({ index: pair.index, id: pair.id, seed: null }, report, performance.now() - started);
    },
    { concurrency: 1, perCaseKinds: ['input', 'trace', 'wav'], signal: options.signal, onCase: options.onCase },
  );
}
