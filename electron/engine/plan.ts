import { join } from 'node:path';
import { BundleError, ProfileError } from '../common/errors.js';
import type { ExecutionProfile } from '../common/profile/types.js';
import type { LoadedBundle } from './bundle/load-bundle.js';
import { FeedTap, type FeedRecorder } from './drill/feed-tap.js';
import { pickBatchExports } from './bundle/batch-support.js';
import { codePredictorInputHidden, codePredictorOf, type NetworkExport } from './bundle/manifest.js';
import { EncoderRunner } from './run/encoder-runner.js';
import type { OpenedSession, OrtSession } from './ort-session.js';
import { BatchRows } from './run/batch-rows.js';
import { BatchedEagerDecoder, BatchedGraphDecoder } from './run/batched-decoder-runners.js';
import { EagerDecoder, GraphDecoder, RecomputeDecoder, type DecoderRunner, type DecoderShape } from './run/decoder-runners.js';
import type { EmbeddingTable } from './run/embedding-table.js';
import { RunClock } from './run/run-clock.js';
import type { SessionPool } from './run/session-pool.js';
import type { SynthesisPlan } from './synthesize.js';

// Engine.synthesize sends backend=native to synthesizeOnNative before any plan is made; reaching
// makePlan with it is a caller's mistake, not a missing addon.
const NATIVE_HAS_NO_PLAN = 'backend=native has no ONNX Runtime plan: it runs on the native addon through Engine.synthesize (synthesizeOnNative)';

/**
 * The export a profile runs, or a BundleError saying which bundle.json entry is missing and, for the
 * graph preset, why the eager export cannot stand in: its KV cache grows by concatenation, while the
 * graph profile binds fixed [1, kvHeads, maxPositions, headDim] buffers written in place.
 */
function pick(bundle: LoadedBundle, kind: 'talker' | 'code-predictor' | 'encoder', key: string, profile: ExecutionProfile): NetworkExport {
  const field = kind === 'talker' ? 'talker' : kind === 'encoder' ? 'encoder' : 'codePredictor';
  const m = bundle.manifest;
  const d = field === 'talker' ? m.talker : field === 'encoder' ? m.encoder : codePredictorOf(m, `profile "${profile.text}"`);
  if (!d) throw new BundleError(`${join(bundle.dir, 'bundle.json')}: this bundle has no ${kind}`, join(bundle.dir, 'bundle.json'));
  const exp = d.exports[key];
  if (exp) return exp;
  const have = Object.entries(d.exports).map(([k, e]) => `${k} (${e.file})`).join(', ');
  let need = '';
  if (key.startsWith('graph-') && 'kvHeads' in d && 'headDim' in d) {
    const eager = d.exports[key.replace(/^graph-/, 'eager-')];
    need =
      `. The graph preset runs a static-shape export: one position per run, past_key_values.*/present.* fixed [1, ${d.kvHeads}, ${d.maxPositions}, ${d.headDim}] ` +
      `buffers written in place at position_ids, attention_mask [1, ${d.maxPositions}] (docs/bundle-format.md, "graph export"); ` +
      (eager ? `the eager export ${eager.file} cannot be driven that way (its present.* grow by one row per step). ` : '') +
      `Add a "${key}" export, or run the eager preset (e.g. "${profile.text.replace(/^graph/, 'eager')}")`;
  }
  throw new BundleError(
    `${join(bundle.dir, 'bundle.json')}: profile "${profile.text}" needs a ${kind} export "${key}" (bundle.json ${field}.exports["${key}"]), which this bundle does not have; it has: ${have}${need}`,
    `${join(bundle.dir, 'bundle.json')}:${field}.exports.${key}`,
  );
}

/** The bundle.json export keys a profile runs (docs/profiles.md, "Which exports a profile needs"). */
export function exportKeys(profile: Pick<ExecutionProfile, 'preset' | 'cache' | 'precision' | 'faults'>): { talker: string; codePredictor: string; vocoder: string } {
  const overflow = profile.faults.some((f) => f.kind === 'fp16-overflow') ? '-fp16-overflow' : '';
  const talkerPreset = profile.cache === 'recompute' ? 'eager' : profile.preset;
  return { talker: `${talkerPreset}-${profile.precision}${overflow}`, codePredictor: `${profile.preset}-${profile.precision}`, vocoder: profile.precision };
}

interface ChosenExports {
  talkerKey: string;
  cpKey: string;
  talkerExp: NetworkExport;
  /** The code predictor's export, or (talker.codebooks "all") the encoder's, under the same key. */
  cpExp: NetworkExport;
  vocExp: NetworkExport;
  batched?: ReturnType<typeof pickBatchExports>;
}

/**
 * The exports an ONNX Runtime profile runs, or the ProfileError/BundleError saying what the bundle lacks;
 * opens nothing, so a comparison can check both profiles before it runs either (Engine.checkRunnable).
 */
export function chooseExports(bundle: LoadedBundle, profile: ExecutionProfile, drill = false): ChosenExports {
  const m = bundle.manifest;
  const batch = profile.batch ?? 1;
  if (drill && bundle.manifest.encoder) throw new ProfileError(`profile "${profile.text}": the drill-down does not run bundles with an encoder (talker.codebooks "all") yet`, profile.text);
  if (batch > 1 && drill) throw new ProfileError(`profile "${profile.text}": the drill-down re-runs one row; run it on the profile without batch=${batch}`, profile.text);
  const batched = batch > 1 ? pickBatchExports(bundle.dir, m, profile, batch) : undefined;
  const { talker: talkerKey, codePredictor: cpKey } = batched ? { talker: `batch ${batched.key}`, codePredictor: `batch ${batched.key}` } : exportKeys(profile);
  const talkerExp = batched ? batched.talker : pick(bundle, 'talker', talkerKey, profile);
  const cpExp = batched ? batched.codePredictor : pick(bundle, m.encoder ? 'encoder' : 'code-predictor', cpKey, profile);
  const vocExp = m.vocoder.exports[profile.precision];
  if (!vocExp) {
    const where = join(bundle.dir, 'bundle.json');
    throw new BundleError(`${where}: profile "${profile.text}" needs a vocoder export "${profile.precision}" (bundle.json vocoder.exports["${profile.precision}"]), which this bundle does not have; it has: ${Object.keys(m.vocoder.exports).join(', ')}`, `${where}:vocoder.exports.${profile.precision}`);
  }
  return { talkerKey, cpKey, talkerExp, cpExp, vocExp, ...(batched ? { batched } : {}) };
}

/**
 * Chooses the exports and session options a profile runs with and builds fresh runners around the
 * pooled sessions. eager: graphOptimizationLevel 'disabled', dynamic-shape exports; graph: 'all',
 * static-shape exports; cache=recompute: the dynamic-shape talker re-run over the whole sequence;
 * batch=N: the bundle's batched exports (bundle.json `batch`) driven for N rows, the request as row 0.
 */
export async function makePlan(
  bundle: LoadedBundle,
  pool: SessionPool,
  table: EmbeddingTable,
  profile: ExecutionProfile,
  recorder?: FeedRecorder,
): Promise<SynthesisPlan> {
  if (profile.backend === 'native') throw new ProfileError(`profile "${profile.text}": ${NATIVE_HAS_NO_PLAN}`, profile.text);
  const m = bundle.manifest;
  const optimize = profile.preset === 'graph';
  const batch = profile.batch ?? 1;
  const { talkerKey, cpKey, talkerExp, cpExp, vocExp, batched } = chooseExports(bundle, profile, recorder !== undefined);

  const second = m.encoder ? 'encoder' : 'code-predictor';
  const opened: OpenedSession[] = [
    await pool.get(`talker ${talkerKey}`, talkerExp, optimize, profile.ep),
    await pool.get(`${second} ${cpKey}`, cpExp, optimize, profile.ep),
    await pool.get(`vocoder ${profile.precision}`, vocExp, optimize, profile.ep),
  ];
  const clock = new RunClock();
  const float = profile.precision === 'fp16' ? 'float16' : 'float32';
  const all = m.talker.codebooks === 'all';
  const { codebooks: _all, ...talkerSizes } = m.talker;
  const talkerShape: DecoderShape = { ...talkerSizes, float, hasHidden: true, ...(all ? { codebooks: m.codebooks } : {}) };
  // The code predictor is fed talker.hidden-wide rows; a declared projection to its own hidden is inside its export.
  const cpShape: DecoderShape | undefined = m.codePredictor && { ...m.codePredictor, hidden: codePredictorInputHidden(m), vocab: m.codebookSize, float, hasHidden: false };
  // Drill-down only: the recorded network's session is wrapped so that its runs at one step are copied.
  const tap = recorder ? new FeedTap(recorder, profile, m.vocoder.chunkFrames) : undefined;
  const files = [talkerExp.file, cpExp.file, vocExp.file];
  const networks = ['talker', 'code-predictor', 'vocoder'] as const;
  const sessions = opened.map((s, i) => (tap ? tap.wrap(networks[i], files[i], optimize, s.provider, s.session) : s.session));
  const runner = (i: number, shape: DecoderShape, mode: 'eager' | 'graph' | 'recompute'): DecoderRunner =>
    mode === 'recompute' ? new RecomputeDecoder(sessions[i], shape, clock) : mode === 'graph' ? new GraphDecoder(sessions[i], shape, clock) : new EagerDecoder(sessions[i], shape, clock);
  const fallback = opened.find((s) => s.fallback)?.fallback;
  const rows = batched && cpShape ? batchRows(profile, bundle, table, batch, batched.rows, sessions, talkerShape, cpShape, clock) : undefined;
  return {
    manifest: m,
    tokenizer: bundle.tokenizer,
    profile,
    talker: rows ? rows.talker : runner(0, talkerShape, profile.cache === 'recompute' ? 'recompute' : profile.preset),
    ...(rows ? { codePredictor: rows.codePredictor } : cpShape ? { codePredictor: runner(1, cpShape, profile.preset) } : {}),
    ...(m.encoder ? { encoder: new EncoderRunner(sessions[1], { maxPositions: m.encoder.maxPositions, graph: profile.preset === 'graph' }, clock) } : {}),
    vocoder: sessions[2],
    ...(tap ? { tap } : {}),
    table,
    clock,
    provider: opened.every((s) => s.provider === 'cuda') ? 'cuda' : 'cpu',
    ...(fallback ? { fallback } : {}),
    ...(batched ? { batchRows: batched.rows } : {}),
    bundleHash: bundle.hash,
  };
}

/** batch=N (docs/profiles.md "Batch invariance"): the batched runners at `rows` rows (the graph bucket), driven with row 0 as the request. */
function batchRows(
  profile: ExecutionProfile,
  bundle: LoadedBundle,
  table: EmbeddingTable,
  batch: number,
  rows: number,
  sessions: OrtSession[],
  talkerShape: DecoderShape,
  cpShape: DecoderShape,
  clock: RunClock,
): BatchRows {
  const Runner = profile.preset === 'graph' ? BatchedGraphDecoder : BatchedEagerDecoder;
  const gather = profile.faults.find((f) => f.kind === 'batch-gather');
  return new BatchRows(bundle.manifest, bundle.tokenizer, table, new Runner(sessions[0], talkerShape, clock, rows), new Runner(sessions[1], cpShape, clock, rows), batch, gather?.step);
}
