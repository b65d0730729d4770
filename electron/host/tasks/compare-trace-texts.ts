import { oneSidecarWarning } from '../../common/trace/sidecar-rule.js';
import type { Audio, FileBytes } from '../../common/api/index.js';
import { InputError } from '../../common/errors.js';
import { compareTraces, type TraceSide } from '../../common/forensics/compare-traces.js';
import type { TraceComparisonReport } from '../../common/report/comparison-report.js';
import type { AudioSource } from '../../common/report/report.js';
import { drillModules } from '../../common/forensics/module-drill.js';
import { sidecarFromBytes } from '../../common/trace/module-sidecar.js';
import { readTrace } from '../../common/trace/read-trace.js';
import { downmixToMono } from '../../common/wav/downmix.js';
import type { TraceText, WavSource } from '../kept-import.js';
import { decodeSource } from './decode-source.js';
import { processSpectralRunner } from '../spectral/process-spectral-thread.js';

export interface CompareTraceTextsTask {
  kind: 'compare-traces';
  a: TraceText;
  b: TraceText;
  /** The runs' WAVs as bytes or files on disk (read here, not by the host); both or neither. */
  wavA?: WavSource;
  wavB?: WavSource;
  /** The runs' module sidecars as bytes; both or neither. */
  modulesA?: FileBytes;
  modulesB?: FileBytes;
  maxLagMs: number;
  createdAt: string;
}

/** Two `tts-parity-trace/1` texts, with their WAVs if given, localised and reported as `parity compare-trace` does. */
export async function compareTraceTexts(task: CompareTraceTextsTask): Promise<{ report: TraceComparisonReport; a?: Audio; b?: Audio }> {
  if ((task.wavA === undefined) !== (task.wavB === undefined)) {
    throw new InputError(`give both runs' WAVs with the traces, or neither (got only ${(task.wavA ?? task.wavB)!.name})`);
  }
  const side = async (trace: TraceText, wav: WavSource | undefined): Promise<TraceSide> => ({
    file: trace.name,
    trace: readTrace(trace.text, trace.name),
    audio: wav === undefined ? undefined : await monoOf(wav),
  });
  const a = await side(task.a, task.wavA);
  const b = await side(task.b, task.wavB);
  const report = await compareTraces(a, b, { createdAt: task.createdAt, maxLagMs: task.maxLagMs, spectral: processSpectralRunner() });
  addModuleDrill(report, task);
  if (!a.audio || !b.audio) return { report };
  const audio = (s: { signal: Float32Array; source: AudioSource }): Audio => ({ sampleRate: s.source.sampleRate, samples: s.signal });
  return { report, a: audio(a.audio), b: audio(b.audio) };
}

/**
 * With both sidecars, the module drill-down as `parity compare-trace` makes it (default tolerance); with
 * one, the CLI's warning (common/trace/sidecar-rule.ts); with none while a header names one, a warning
 * saying which file to import with the traces.
 */
function addModuleDrill(report: TraceComparisonReport, task: CompareTraceTextsTask): void {
  if ((task.modulesA === undefined) !== (task.modulesB === undefined)) {
    const [has, lacks] = task.modulesA ? (['a', 'b'] as const) : (['b', 'a'] as const);
    const side = (s: 'a' | 'b') => s.toUpperCase() as 'A' | 'B';
    const warning = oneSidecarWarning({ side: side(has), trace: task[has].name, sidecar: (task.modulesA ?? task.modulesB)!.name }, { side: side(lacks), trace: task[lacks].name });
    report.warnings = [...(report.warnings ?? []), warning];
    return;
  }
  if (task.modulesA && task.modulesB) {
    report.moduleDrill = drillModules(report.divergence.firstStep, sidecarFromBytes(task.modulesA.bytes, task.modulesA.name), sidecarFromBytes(task.modulesB.bytes, task.modulesB.name));
    return;
  }
  const named = (['a', 'b'] as const).filter((s) => report.traces[s].header.modules !== undefined);
  if (named.length > 0) {
    const files = named.map((s) => `${report.traces[s].header.modules} (${s.toUpperCase()})`).join(' and ');
    report.warnings = [...(report.warnings ?? []), `the trace headers name module sidecars, ${files}, which were not imported: import both with the traces to name the first module that differs`];
  }
}

/** Read as `parity compare-trace --wav-a` reads a file: decoded, mixed to mono, the rule recorded. */
async function monoOf(wav: WavSource): Promise<{ signal: Float32Array; source: AudioSource }> {
  const decoded = await decodeSource(wav);
  const mono = downmixToMono(decoded);
  const source: AudioSource = { path: wav.name, sampleRate: decoded.sampleRate, channels: decoded.channels.length, format: decoded.format, downmix: mono.rule };
  if (decoded.warnings.length) source.warnings = decoded.warnings;
  return { signal: mono.signal, source };
}
