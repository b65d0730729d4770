import { readChecked } from '../fs/read-checked.js';
import { join } from 'node:path';
import { CancelledError } from '../../common/errors.js';
import type { DivergenceStage } from '../../common/forensics/divergence.js';
import { parseProfile } from '../../common/profile/parse-profile.js';
import { drillSummary } from '../../common/report/drill-lines.js';
import type { DrillNeighbourhood, DrillReport } from '../../common/report/drill.js';
import type { SamplingParams } from '../../common/sampling/types.js';
import type { Engine } from '../engine.js';
import { openSession, run, type Feeds, type OrtSession } from '../ort-session.js';
import { stopIfCancelled, type DrillControl } from './drill-progress.js';
import type { DrillNetwork, RecordedRun } from './feed-tap.js';
import { inputRole, runLabel } from './input-roles.js';
import { correspondingOutputs } from './correspondence.js';
import { neighbourhood } from './neighbourhood.js';
import { promoteAllOutputs, type PromotedModel } from './promote-outputs.js';
import { copyTensor, toOrtTensor, type TensorCopy } from './tensor-copy.js';
import { diffTensors, type DrillTolerance } from './tensor-diff.js';
import { walkGraphs, type SideValues, type WalkResult } from './walk-graph.js';

/**
 * Default per-element tolerance. Float32 reorderings (KV cache vs recompute feeding the code
 * predictor) move the demo's node outputs by up to 3.1e-5 and never past 5e-5 (docs/drill.md,
 * measured), so 1e-4 stays quiet on them; it is below the localiser's 1e-3 on logit statistics, so
 * the node where a difference starts is found before it has grown past the step's logits.
 */
export const DEFAULT_DRILL_TOLERANCE: DrillTolerance = { abs: 1e-4, rel: 0 };

export interface DrillRequest {
  text: string;
  profileA: string;
  profileB: string;
  seed: number;
  sampling: SamplingParams;
  /** The step to drill (1 = prefill) and the localiser's stage, which picks the network. */
  step: number;
  stage: DivergenceStage;
  tolerance?: DrillTolerance;
}

function networkOf(stage: DivergenceStage): DrillNetwork {
  return stage === 'code-predictor' ? 'code-predictor' : stage === 'vocoder' ? 'vocoder' : 'talker';
}

/** Re-runs one profile up to the step (to the end for the vocoder) and returns the recorded runs. */
async function record(engine: Engine, req: DrillRequest, side: 'A' | 'B', network: DrillNetwork, control: DrillControl): Promise<RecordedRun[]> {
  const profileText = side === 'A' ? req.profileA : req.profileB;
  const runs: RecordedRun[] = [];
  const stop = new AbortController();
  const signal = control.signal ? AbortSignal.any([control.signal, stop.signal]) : stop.signal;
  const offset = side === 'A' ? 0 : 0.4;
  const say = (step: number, total: number, stage = 'talker') => {
    const target = network === 'vocoder' ? 'the end (the vocoder runs last)' : `step ${req.step}`;
    const message = `re-running side ${side} (${profileText}) up to ${target}: ${stage} step ${step} of ${total}`;
    const ratio = total > 0 ? Math.min(1, step / total) : 0;
    // A vocoder drill runs the whole synthesis: the talker's steps are most of it, as in a comparison.
    const within = network !== 'vocoder' ? ratio : stage === 'vocoder' ? 0.9 + 0.1 * ratio : 0.9 * ratio;
    control.onProgress?.({ part: 'record', side, step, totalSteps: total, fraction: offset + 0.4 * within, message });
  };
  say(0, req.step);
  try {
    await engine.synthesize(
      { text: req.text, profile: parseProfile(profileText), seed: req.seed, sampling: req.sampling },
      {
        signal,
        recordFeeds: { step: req.step, stage: network, onRun: (r) => runs.push(r) },
        onProgress: (p) => {
          say(p.step, network === 'vocoder' ? p.totalSteps : req.step, p.stage);
          // The talker and code predictor are done once the step is: skip the rest of the synthesis.
          if (network !== 'vocoder' && p.stage === 'talker' && p.step >= req.step) stop.abort();
        },
      },
    );
  } catch (error) {
    stopIfCancelled(control.signal, `while re-running side ${side}`);
    if (!(error instanceof CancelledError && stop.signal.aborted)) throw error;
  }
  return runs;
}

/** Opens each (file, optimisation, provider) promoted model once per drill. */
class PromotedSessions {
  private readonly open = new Map<string, Promise<{ model: PromotedModel; session: OrtSession }>>();

  constructor(
    private readonly bundleDir: string,
    private readonly control: DrillControl,
  ) {}

  get(r: RecordedRun): Promise<{ model: PromotedModel; session: OrtSession }> {
    const key = `${r.file}|${r.optimize}|${r.provider}`;
    let hit = this.open.get(key);
    if (!hit) {
      hit = (async () => {
        const model = promoteAllOutputs(await readChecked(join(this.bundleDir, r.file), { inside: { dir: this.bundleDir, words: 'the bundle folder' }, what: 'model file' }), r.file);
        const how = `${r.optimize ? 'optimised' : 'unoptimised'}, ${r.provider}`;
        const message = `promoting every node output of ${r.file} (${model.nodes.length} nodes) and opening it (${how})`;
        this.control.onProgress?.({ part: 'promote', step: 0, totalSteps: 0, fraction: 0.8, message });
        const name = { label: `${r.network} (drill-down replay, every node output promoted)`, file: join(this.bundleDir, r.file) };
        const opened = await openSession(model.bytes, { optimize: r.optimize, ep: r.provider, name });
        return { model, session: opened.session };
      })();
      this.open.set(key, hit);
    }
    return hit;
  }

  async close(): Promise<void> {
    for (const p of this.open.values()) await (await p.catch(() => undefined))?.session.release();
  }
}

async function replay(sessions: PromotedSessions, r: RecordedRun): Promise<{ model: PromotedModel; side: SideValues; replayDiff: number }> {
  const { model, session } = await sessions.get(r);
  const feeds: Feeds = {};
  for (const [name, t] of Object.entries(r.feeds)) feeds[name] = toOrtTensor(name, t);
  const out = await run(session, feeds);
  const values: Record<string, TensorCopy> = {};
  for (const [name, t] of Object.entries(out)) values[name] = copyTensor(t);
  let replayDiff = 0;
  for (const [name, recorded] of Object.entries(r.outputs)) {
    const d = values[name] ? diffTensors(values[name], recorded, { abs: 0, rel: 0 }) : null;
    // With tolerance 0, nothing differing is an exact reproduction (NaN for NaN, ±Inf for ±Inf too); NaN
    // against a number, or a missing output, makes it NaN.
    replayDiff = d === null ? NaN : d.differing === 0 ? replayDiff : Math.max(replayDiff, d.maxAbsDiff);
  }
  return { model, side: { inputs: model.inputs, feeds: r.feeds, nodes: model.nodes, values }, replayDiff };
}

/**
 * Drill-down into one step: records both profiles' runs of the stage's network at that step, re-runs
 * each with every node output promoted to a graph output (ONNX Runtime, the profile's own
 * optimisation level and provider) and walks the nodes in topological order (walkGraphs). A step
 * with several runs (code predictor: one per codebook; graph prefill: one per token) is compared run
 * by run, aligned from the last, and the first run with a finding is reported. `control` reports
 * progress and cancels between steps and runs (drill-progress.ts).
 */
export async function drillStep(engine: Engine, req: DrillRequest, control: DrillControl = {}): Promise<DrillReport> {
  const tolerance = req.tolerance ?? DEFAULT_DRILL_TOLERANCE;
  const network = networkOf(req.stage);
  const base = { step: req.step, divergenceStage: req.stage, network, tolerance, input: null, node: null, compared: 0, skipped: 0, unmatched: 0 };
  const runsA = await record(engine, req, 'A', network, control);
  const runsB = await record(engine, req, 'B', network, control);
  if (runsA.length === 0 || runsB.length === 0) {
    const partial = { ...base, status: 'not-comparable' as const };
    return { ...partial, summary: drillSummary(partial, `side ${runsA.length === 0 ? 'A' : 'B'} never ran the ${network} at step ${req.step}`) };
  }
  const model = (runs: RecordedRun[]) => ({ file: runs[0].file, optimize: runs[0].optimize, provider: runs[0].provider, runs: runs.length });
  const sessions = new PromotedSessions(engine.info().dir, control);
  try {
    const n = Math.min(runsA.length, runsB.length);
    // Promote and open both sides' networks first, so progress reads: re-run, promote, compare.
    for (const r of [runsA[runsA.length - n], runsB[runsB.length - n]]) {
      stopIfCancelled(control.signal, 'before promoting the node outputs');
      await sessions.get(r);
    }
    let last: { walk: WalkResult; index: number; what: string; replayA: number; replayB: number; around?: DrillNeighbourhood } | undefined;
    let compared = 0;
    let skipped = 0;
    let unmatched = 0;
    for (let i = 0; i < n; i++) {
      const ra = runsA[runsA.length - n + i];
      const rb = runsB[runsB.length - n + i];
      const what = runLabel(network, ra.feeds);
      stopIfCancelled(control.signal, `before comparing run ${i + 1} of ${n}`);
      control.onProgress?.({ part: 'compare', step: i + 1, totalSteps: n, fraction: 0.8 + (0.2 * i) / n, message: `comparing run ${i + 1} of ${n} (${what}): every node output of A against B` });
      const a = await replay(sessions, ra);
      const b = await replay(sessions, rb);
      stopIfCancelled(control.signal, `while comparing run ${i + 1} of ${n}`);
      const corresponding = correspondingOutputs(a.model, b.model);
      const describe = (name: string) => inputRole(network, name, req.step, ra.feeds);
      const walk = walkGraphs(a.side, b.side, corresponding, tolerance, describe);
      compared += walk.compared;
      skipped += walk.skipped;
      unmatched += walk.unmatched;
      const around = walk.firstNode && walk.node?.output ? neighbourhood(a.side, b.side, corresponding, tolerance, walk.firstNode, walk.node.output, describe) : undefined;
      last = { walk, index: i, what, replayA: a.replayDiff, replayB: b.replayDiff, ...(around ? { around } : {}) };
      if (walk.input || walk.node) break;
    }
    const found = last!;
    const partial: Omit<DrillReport, 'summary'> = {
      ...base,
      status: found.walk.input || found.walk.node ? 'found' : 'nothing-differs',
      a: model(runsA),
      b: model(runsB),
      run: { index: found.index, count: n, what: found.what },
      input: found.walk.input,
      node: found.walk.node,
      compared,
      skipped,
      unmatched,
      ...(found.walk.inputShapesDiffer.length ? { inputShapesDiffer: found.walk.inputShapesDiffer } : {}),
      replayMaxAbsDiff: { a: found.replayA, b: found.replayB },
      ...(found.around ? { neighbourhood: found.around } : {}),
    };
    return { ...partial, summary: drillSummary(partial) };
  } finally {
    await sessions.close();
  }
}

/** The drill for a comparison: its first divergent step and stage, or "no divergence". */
export async function drillDivergence(
  engine: Engine,
  req: Omit<DrillRequest, 'step' | 'stage'>,
  divergence: { firstStep: number | null; stage: DivergenceStage | null },
  control: DrillControl = {},
): Promise<DrillReport> {
  if (divergence.firstStep === null || divergence.stage === null) {
    const partial = {
      status: 'no-divergence' as const,
      step: null,
      divergenceStage: null,
      network: null,
      tolerance: req.tolerance ?? DEFAULT_DRILL_TOLERANCE,
      input: null,
      node: null,
      compared: 0,
      skipped: 0,
      unmatched: 0,
    };
    return { ...partial, summary: drillSummary(partial) };
  }
  return drillStep(engine, { ...req, step: divergence.firstStep, stage: divergence.stage }, control);
}
