import { join } from 'node:path';
import { BundleError, ParityError } from '../../common/errors.js';
import type { BundleManifest, NetworkExport } from '../bundle/manifest.js';
import { fromHalfArray } from '../numeric/float16.js';
import { OrtRunError } from '../ort-run-error.js';
import { run, type OrtSession, type OrtTensor } from '../ort-session.js';
import { concreteShape, smokeFeeds, SMOKE_SEED } from './smoke-feeds.js';
import { smokeSizes, splitLabel, type SmokeSizes } from './smoke-sizes.js';
import { readModelGraph } from './model-graph.js';

export interface ExportUnderTest {
  label: string;
  exp: NetworkExport;
  /** The model bytes (for the graph-level checks) and its session, opened as the engine opens it. */
  model: Uint8Array;
  session: OrtSession;
}

const BAKED =
  'a size baked into the export (the example input\'s length?): take sizes from tensor.shape, not Python ints (GQA: expand + reshape rather than repeat_interleave), re-export';

/** A smoke failure: exit 2, one line that starts with the export and says what to fix. */
export function smokeError(message: string, where?: string): BundleError {
  return new BundleError(`smoke: ${message}`, where);
}

const shape = (dims: readonly (number | string)[]): string => `[${dims.join(', ')}]`;

function nonFinite(t: OrtTensor): number {
  if (t.type !== 'float32' && t.type !== 'float16' && t.type !== 'float64') return 0;
  const data = t.type === 'float16' ? fromHalfArray(t.data as Uint16Array) : (t.data as Float32Array | Float64Array);
  let n = 0;
  for (let i = 0; i < data.length; i++) if (!Number.isFinite(data[i])) n++;
  return n;
}

/**
 * The checks of the ONNX file itself: every declared input is read by some node (torch.onnx.export
 * keeps an input the forward ignores only when told to), and a graph export declares every output
 * dimension fixed. ONNX Runtime infers fixed output shapes by itself and reports those, but the graph
 * profile preallocates its outputs and CUDA-graph capture (or another runtime) reads the declared ones.
 */
export function checkExportGraph(e: ExportUnderTest, file: string): void {
  const model = readModelGraph(e.model);
  const unused = model.unread(e.exp.inputs.map((t) => t.name));
  if (unused.length > 0) {
    throw smokeError(
      `${e.label} (${file}): declared input${unused.length > 1 ? 's' : ''} ${unused.map((n) => `"${n}"`).join(', ')} ${unused.length > 1 ? 'are' : 'is'} read by no node of the graph, so the engine's values for it change nothing; fix: the exported forward ignores it — use it (e.g. mask with attention_mask, rotate by position_ids, pick the head by generation_step) and re-export`,
      file,
    );
  }
  if (!splitLabel(e.label).graph) return;
  for (const spec of e.exp.outputs) {
    const declared = model.outputShape(spec.name);
    if (declared && declared.every((d) => typeof d === 'number')) continue;
    throw smokeError(
      `${e.label} (${file}): output "${spec.name}" is declared ${declared ? shape(declared) : 'without a shape'} in the model file, expected fixed ${shape(spec.shape)} (bundle.json); fix: a graph export's outputs must be pinned — torch.onnx.export: no dynamic_axes for a graph export's outputs, or write the dims into the model's graph outputs (ONNX Runtime infers them, CUDA-graph capture and other runtimes read the file)`,
      file,
    );
  }
}

/** One run at `sizes` on random inputs: it must run, give the declared outputs at the sizes fed, and finite values. */
export async function smokeRun(m: BundleManifest, e: ExportUnderTest, file: string, sizes: SmokeSizes, index: number): Promise<void> {
  const graph = splitLabel(e.label).graph;
  const feeds = smokeFeeds(m, e.exp.inputs, sizes, graph, SMOKE_SEED + index, splitLabel(e.label).network);
  const at = `at ${sizes.text} (random inputs, seed ${SMOKE_SEED + index})`;
  let out: Record<string, OrtTensor>;
  try {
    out = await run(e.session, feeds);
  } catch (error) {
    if (error instanceof OrtRunError) {
      const placed = error.placed(at);
      throw new ParityError(placed.kind, `smoke: ${placed.message}`, placed.where);
    }
    throw error;
  }
  for (const spec of e.exp.outputs) {
    const t = out[spec.name];
    const want = concreteShape(spec, sizes, m.hopLength);
    if (want.join() !== t.dims.join()) {
      throw smokeError(`${e.label} (${file}), ${at}: output "${spec.name}" is ${shape(t.dims)}, expected ${shape(want)} for these sizes; fix: ${BAKED}`, file);
    }
    // The fp16-overflow fault variants overflow on purpose (docs/faults.md).
    const bad = e.label.endsWith('-fp16-overflow') ? 0 : nonFinite(t);
    if (bad > 0) {
      throw smokeError(`${e.label} (${file}), ${at}: output "${spec.name}" has ${bad} NaN/Inf value${bad === 1 ? '' : 's'} of ${t.size} on inputs uniform in [-1, 1); fix: find the op that overflows or divides by zero (parity compare --drill names the first node)`, file);
    }
  }
}

/** Every check of one export; returns what was run, for the report line. */
export async function smokeExport(m: BundleManifest, dir: string, e: ExportUnderTest): Promise<string> {
  const file = join(dir, e.exp.file);
  checkExportGraph(e, file);
  const all = smokeSizes(m, e.label);
  for (const [i, sizes] of all.entries()) await smokeRun(m, e, file, sizes, i);
  return `${e.label} (${e.exp.file}): ${all.length} runs (${all.map((s) => s.short).join(', ')}): outputs at the sizes fed, finite; every declared input read`;
}
