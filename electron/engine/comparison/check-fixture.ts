import { audioNotComparedReason, type AudioCheck } from '../../common/report/audio-check.js';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { compareTraceSteps, type TraceSideHeader } from '../../common/forensics/compare-traces.js';
import { StepComparison } from '../../common/forensics/divergence.js';
import { localise } from '../../common/forensics/localise.js';
import { ComparisonReport, TraceComparisonReport } from '../../common/report/comparison-report.js';
import type { StepRecord } from '../../common/trace/step-record.js';
import { decodeWav } from '../../common/wav/decode-wav.js';
import { ParityError } from '../../common/errors.js';
import type { Engine } from '../engine.js';
import { DEFAULT_DRILL_TOLERANCE, drillDivergence } from '../drill/drill-step.js';
import type { DrillReport } from '../../common/report/drill.js';
import { recheckModuleDrill } from '../foreign-drill/recheck-module-drill.js';
import { compareProfiles, type CompareProgress } from './compare-profiles.js';
import { zipTraceSteps } from './compare-trace-files.js';
import { sealedFiles, sealProblems } from './fixture-integrity.js';
import { fixtureBundle } from './fixture-bundle.js';
import { openEngine } from './open-engine.js';
import { readFixtureFilePieces, readFixtureFileSync, readWavFile } from './read-inputs.js';
import { readReportJson } from './read-report-json.js';
import { scanTrace } from './stream-trace.js';

export interface FixtureCheck {
  dir: string;
  ok: boolean;
  /** What was compared, e.g. "graph vs graph,fault=stale-feedback@2: diverged at step 2 (talker-logits)". */
  summary: string;
  /** Each regression or tampering, in words naming file, step, stage or metric. */
  problems: string[];
}

/** Engines opened once per bundle for a whole gate run. */
export class EngineCache {
  private engines = new Map<string, Promise<{ engine: Engine; bundle: string }>>();
  get(bundle: string): Promise<{ engine: Engine; bundle: string }> {
    let e = this.engines.get(bundle);
    if (!e) this.engines.set(bundle, (e = openEngine(bundle)));
    return e;
  }
  async close(): Promise<void> {
    for (const e of this.engines.values()) await (await e.catch(() => undefined))?.engine.close();
  }
}

function readMaybe(dir: string, name: string): Uint8Array | undefined {
  return readFixtureFileSync(join(dir, name));
}

/** The sha256 of each named file of the folder, read a piece at a time; undefined for a missing one. */
async function fileHashes(dir: string, names: string[]): Promise<Record<string, string | undefined>> {
  const found: Record<string, string | undefined> = {};
  for (const name of names) {
    const pieces = readFixtureFilePieces(join(dir, name));
    if (!pieces) continue;
    const hash = createHash('sha256');
    for await (const piece of pieces) hash.update(piece);
    found[name] = hash.digest('hex');
  }
  return found;
}

interface RowIssue {
  index: number;
  issue: z.core.$ZodIssue;
}

/**
 * The issue zod would report first for the whole report, rows and all: `issues` (the report's without
 * its rows) come first when they are at or before `divergence` (whose last key is `steps`), then a row's.
 */
function firstIssue(shape: object, issues: readonly z.core.$ZodIssue[] | undefined, row: RowIssue | undefined): { path: PropertyKey[]; message: string } | undefined {
  const keys = Object.keys(shape);
  const first = issues?.[0];
  if (first && keys.indexOf(String(first.path[0])) <= keys.indexOf('divergence')) return first;
  if (row) return { path: ['divergence', 'steps', row.index, ...row.issue.path], message: row.issue.message };
  return first;
}

/**
 * A compare-wav report: the only report with no `kind` (profiles and traces reports carry one) and no
 * `integrity` (a sealed report that lost its `kind` was edited: the seal check names that instead).
 */
export const isWavPairReport = (raw: unknown): boolean => typeof raw === 'object' && raw !== null && !('kind' in raw) && !('integrity' in raw);

/** A verdict as gate says it; degenerate audio adds why ("A and B are both digital silence: audio not compared"). */
function describe(verdict: string, d: { firstStep: number | null; stage: string | null }, audio?: AudioCheck): string {
  const reason = audioNotComparedReason(audio);
  const words = d.firstStep === null ? verdict : `${verdict} at step ${d.firstStep} (${d.stage})`;
  return reason ? `${words} (${reason})` : words;
}

/**
 * Re-runs one fixture folder written by `parity compare` or `parity compare-trace` and lists every
 * difference from what it recorded: files edited after writing (sha256), a new rendering whose audio
 * or step trace differs from the stored one beyond the recorded tolerances, a changed verdict or
 * divergence. `bundle` overrides the recorded bundle folder; `onProgress` follows the re-run's synthesis.
 */
export async function checkFixture(
  dir: string, engines: EngineCache, bundle?: string, onProgress?: (p: CompareProgress) => void,
): Promise<FixtureCheck> {
  // The step rows (a million in a long trace fixture) are checked one at a time and not kept.
  let rowIssue: RowIssue | undefined;
  const read = await readReportJson(join(dir, 'report.json'), (row, index) => {
    const checked = rowIssue ? undefined : StepComparison.safeParse(row);
    if (checked && !checked.success) rowIssue = { index, issue: checked.error.issues[0] };
  });
  if (!read) return { dir, ok: false, summary: '', problems: [`${join(dir, 'report.json')}: no such file (not a fixture folder)`] };
  const files = sealedFiles(read.report);
  const problems = sealProblems(read.seal, files, read.seal.recorded === undefined ? {} : await fileHashes(dir, Object.keys(files)));
  if (read.notJson !== undefined) return { dir, ok: false, summary: '', problems: [...problems, `report.json is not valid JSON (${read.notJson})`] };
  const raw = read.report;
  if (!read.rowsApart) rowIssue = undefined;
  if (isWavPairReport(raw)) {
    return { dir, ok: false, summary: '', problems: [`${join(dir, 'report.json')} is a WAV-pair comparison (parity compare-wav or a studio import of two WAVs): it records no synthesis or traces to re-run; gate checks folders written by parity compare or parity compare-trace`] };
  }
  if ((raw as { kind?: unknown }).kind === 'traces') return checkTraceFixture(dir, raw, problems, rowIssue);
  const parsed = ComparisonReport.safeParse(raw);
  const issue = firstIssue(ComparisonReport.shape, parsed.error?.issues, rowIssue);
  if (issue) {
    return { dir, ok: false, summary: '', problems: [...problems, `report.json does not match the comparison report schema at "${issue.path.join('.')}": ${issue.message}`] };
  }
  const stored = parsed.data!;
  const r = stored.rerun;
  const summary = `${r.profileA} vs ${r.profileB}: recorded ${describe(stored.verdict, stored.divergence, stored.metrics?.audio)}`;
  if (problems.length) return { dir, ok: false, summary, problems };

  const bundleDir = bundle ?? fixtureBundle(dir, r);
  let engine: Engine;
  try {
    ({ engine } = await engines.get(bundleDir));
  } catch (error) {
    // A bundle that cannot be opened fails this fixture alone; the line says where the path came from.
    if (!(error instanceof ParityError) || error.kind === 'internal' || error.kind === 'cancelled') throw error;
    return { dir, ok: false, summary, problems: [`${error.message} (${bundleSource(bundle, r)})`] };
  }
  const hash = engine.info().hash;
  if (hash !== r.bundleHash) problems.push(`bundle ${bundleDir} has sha256 ${hash.slice(0, 12)}…, the fixture was made with ${r.bundleHash.slice(0, 12)}…`);
  const fresh = await compareProfiles(
    engine,
    { text: r.text, profileA: r.profileA, profileB: r.profileB, seed: r.seed, sampling: r.sampling, bundle: r.bundle, tolerances: r.tolerances, teacherForce: r.teacherForce },
    { createdAt: stored.createdAt, onProgress },
  );
  for (const [side, label, wav] of [['a', 'A', 'a.wav'], ['b', 'B', 'b.wav']] as const) {
    const storedAudio = decodeWav(readMaybe(dir, wav)!, join(dir, wav)).channels[0];
    const result = side === 'a' ? fresh.resultA : fresh.resultB;
    problems.push(...regressions(`${label} (${stored[side].profile})`, wav, stored[side].steps, result.steps, storedAudio, result.audio, stored, result.sampleRate));
  }
  const now = fresh.report;
  if (now.verdict !== stored.verdict || now.divergence.firstStep !== stored.divergence.firstStep || now.divergence.stage !== stored.divergence.stage) {
    problems.push(`verdict: recorded ${describe(stored.verdict, stored.divergence, stored.metrics?.audio)}, now ${describe(now.verdict, now.divergence, now.metrics?.audio)}`);
  }
  if (stored.drill) {
    // The fixture was made with --drill: its finding is part of what it asserts, so re-run it too.
    const abs = r.drill?.tolerance ?? stored.drill.tolerance.abs;
    const tolerance = { ...DEFAULT_DRILL_TOLERANCE, abs };
    const drill = await drillDivergence(engine, { text: r.text, profileA: r.profileA, profileB: r.profileB, seed: r.seed, sampling: r.sampling, tolerance }, now.divergence);
    if (drillKey(drill) !== drillKey(stored.drill)) problems.push(`drill: recorded ${drillKey(stored.drill)}, now ${drillKey(drill)}`);
  }
  return { dir, ok: problems.length === 0, summary, problems };
}

/** Where the gate's bundle path came from, for a bundle that would not open. */
function bundleSource(override: string | undefined, r: ComparisonReport['rerun']): string {
  if (override !== undefined) return 'given by --bundle';
  if (r.bundleFromFixture !== undefined) return `rerun.bundleFromFixture "${r.bundleFromFixture}", resolved against the fixture folder`;
  return `rerun.bundle "${r.bundle}" as recorded, resolved against the current folder: the fixture predates bundleFromFixture; pass --bundle`;
}

/** What a drill found, in words: status, step, network and the first differing input and node. */
function drillKey(d: DrillReport): string {
  const parts = [`${d.status}${d.step === null ? '' : ` at step ${d.step}`}${d.network ? ` (${d.network})` : ''}`];
  if (d.input) parts.push(`input ${d.input.name}`);
  if (d.node) parts.push(`node ${d.node.name}`);
  return parts.join(', ');
}

function regressions(
  who: string, wav: string, storedSteps: StepRecord[], newSteps: StepRecord[],
  storedAudio: Float32Array, newAudio: Float32Array, report: ComparisonReport, sampleRate: number,
): string[] {
  const d = localise(storedSteps, newSteps, { tolerances: report.rerun.tolerances, frameRate: report.a.frameRate, audio: { a: storedAudio, b: newAudio, sampleRate } });
  if (d.firstStep === null && d.firstDifferingSample === undefined) return [];
  if (d.firstStep === null) return [`${who}: new audio differs from ${wav} from sample ${d.firstDifferingSample}`];
  const where = d.stage === 'vocoder' ? `${wav} differs from sample ${d.firstDifferingSample} (frame ${d.vocoderFrame}, ${d.timeSec?.toFixed(3)} s)` : `trace differs at step ${d.firstStep}, stage ${d.stage}`;
  return [`${who}: new run regressed — ${where}: ${d.detail ?? ''}`.trimEnd()];
}

async function checkTraceFixture(dir: string, raw: unknown, problems: string[], rowIssue: RowIssue | undefined): Promise<FixtureCheck> {
  const parsed = TraceComparisonReport.safeParse(raw);
  const issue = firstIssue(TraceComparisonReport.shape, parsed.error?.issues, rowIssue);
  if (issue) return { dir, ok: false, summary: '', problems: [...problems, `report.json does not match the trace comparison schema: ${issue.message}`] };
  const stored = parsed.data!;
  const summary = `traces ${stored.traces.a.file} vs ${stored.traces.b.file}: recorded ${describe(stored.verdict, stored.divergence, stored.metrics?.audio)}`;
  if (problems.length) return { dir, ok: false, summary, problems };
  // Each trace checked whole (A, A's WAV, B, B's WAV, as compare-trace reads them), then both read again side by side.
  const side = async (name: 'a' | 'b'): Promise<TraceSideHeader> => ({
    ...(await scanTrace(join(dir, `${name}.jsonl`))),
    audio: existsSync(join(dir, `${name}.wav`)) ? await readWavFile(join(dir, `${name}.wav`)) : undefined,
  });
  const [a, b] = [await side('a'), await side('b')];
  const options = { createdAt: stored.createdAt, tolerances: stored.divergence.tolerances };
  const now = (await compareTraceSteps(a, b, zipTraceSteps(a.file, b.file), options, () => false)).report;
  if (now.verdict !== stored.verdict || now.divergence.firstStep !== stored.divergence.firstStep || now.divergence.stage !== stored.divergence.stage) {
    problems.push(`verdict: recorded ${describe(stored.verdict, stored.divergence, stored.metrics?.audio)}, now ${describe(now.verdict, now.divergence, now.metrics?.audio)}`);
  }
  // Written with module sidecars: the folder holds their copies, and the module finding is part of what it asserts.
  if (stored.moduleDrill) problems.push(...recheckModuleDrill(dir, stored.moduleDrill, now.divergence.firstStep));
  return { dir, ok: problems.length === 0, summary, problems };
}
