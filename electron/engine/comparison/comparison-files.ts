import { encodeWav } from '../../common/wav/encode-wav.js';
import { TRACE_SCHEMA, type TraceHeader } from '../../common/trace/trace-format.js';
import { writeTrace } from '../../common/trace/write-trace.js';
import { TOOL_NAME, TOOL_VERSION } from '../../common/version.js';
import type { SynthesisResult } from '../engine.js';
import { rerunForFixture } from './fixture-bundle.js';
import { sealReport } from './fixture-integrity.js';
import type { ProfileComparison } from './compare-profiles.js';

/** The header of a trace this tool writes (`parity compare --out`, studio exports): one side's fields, this tool as the engine. */
export function traceHeader(side: { q: number; frameRate: number; sampleRate: number; profile: string; seed: number; text: string }): TraceHeader {
  const { q, frameRate, sampleRate, profile, seed, text } = side;
  return { schema: TRACE_SCHEMA, engine: `${TOOL_NAME} ${TOOL_VERSION}`, q, frameRate, sampleRate, profile, seed, text };
}

/** A synthesis's step trace in `tts-parity-trace/1`, so compare-trace and other tools can read it. */
export function traceText(r: SynthesisResult, frameRate: number, text: string, teacherForced?: string): string {
  const header = { ...traceHeader({ q: r.q, frameRate, sampleRate: r.sampleRate, profile: r.profile, seed: r.seed, text }), ...(r.codebookDelays ? { codebookDelays: r.codebookDelays } : {}) };
  return writeTrace(teacherForced === undefined ? header : { ...header, teacherForced }, r.steps);
}

/**
 * The files of a comparison fixture: a.wav, b.wav, diff.wav (float32, so a re-run compares exact
 * samples), a.jsonl, b.jsonl (the traces), report.md, and report.json sealed with their sha256; its
 * `rerun` records the bundle as found from `dir`, the folder the files go into (fixture-bundle.ts).
 */
export function profileFixtureFiles(c: ProfileComparison, markdown: string, dir: string): Record<string, Uint8Array | string> {
  const rate = c.resultA.sampleRate;
  const frameRate = c.report.a.frameRate;
  const files: Record<string, Uint8Array | string> = {
    'a.wav': encodeWav([c.resultA.audio], rate, 'float32'),
    'b.wav': encodeWav([c.resultB.audio], rate, 'float32'),
    'diff.wav': encodeWav([c.diff], rate, 'float32'),
    'a.jsonl': traceText(c.resultA, frameRate, c.report.rerun.text),
    'b.jsonl': traceText(c.resultB, frameRate, c.report.rerun.text, c.report.rerun.teacherForce ? `A: ${c.report.a.profile}` : undefined),
    'report.md': markdown,
  };
  return { ...files, 'report.json': sealReport({ ...c.report, rerun: rerunForFixture(c.report.rerun, dir) }, files) };
}
