import type { DrillFinding } from '../../common/report/drill.js';
import type { ModelNode } from './promote-outputs.js';
import type { TensorCopy } from './tensor-copy.js';
import { diffTensors, isFinding, type DrillTolerance, type TensorDiff } from './tensor-diff.js';

export interface SideValues {
  /** Graph inputs in model order, and the fed values. */
  inputs: string[];
  feeds: Record<string, TensorCopy>;
  /** Nodes in topological order. */
  nodes: ModelNode[];
  /** Every value the promoted model returned (declared outputs and every node output). */
  values: Record<string, TensorCopy>;
}

export interface WalkResult {
  input: DrillFinding | null;
  node: DrillFinding | null;
  /** The graph node of `node`, for its neighbourhood (neighbourhood.ts). */
  firstNode: ModelNode | null;
  compared: number;
  skipped: number;
  /** Inputs fed on both sides with different shapes (e.g. a dynamic vs a fixed-size KV cache). */
  inputShapesDiffer: string[];
  /** Node outputs of A walked before stopping that have no corresponding node in B. */
  unmatched: number;
}

const FLOAT_TYPES = new Set(['float32', 'float16', 'float64']);
const sameShape = (x: TensorCopy, y: TensorCopy): boolean => x.dims.length === y.dims.length && x.dims.every((d, i) => d === y.dims[i]);

const layerOf = (name: string): number | undefined => {
  const m = /(?:^|\.)layers\.(\d+)\./.exec(name);
  return m ? Number(m[1]) : undefined;
};

function finding(kind: 'input' | 'node', name: string, d: TensorDiff, extra: Partial<DrillFinding>): DrillFinding {
  const layer = layerOf(extra.output ?? name);
  return { kind, name, ...extra, ...(layer === undefined ? {} : { layer }), maxAbsDiff: d.maxAbsDiff, pairs: d.pairs, differing: d.differing, nanCount: d.nanCount, side: d.side, a: d.a, b: d.b };
}

/**
 * The inputs present on both sides (A's order), then A's nodes in topological order, each output that
 * has a counterpart in B (`corresponding`, correspondence.ts) compared when its shape matches. Stops at the
 * first node output that differs or holds a NaN; `describe` gives an input's role in words. When the
 * input shapes differ, integer and bool node outputs are not compared.
 */
export function walkGraphs(
  a: SideValues,
  b: SideValues,
  corresponding: Set<string>,
  tol: DrillTolerance,
  describe: (input: string) => string | undefined,
): WalkResult {
  let compared = 0;
  let skipped = 0;
  let unmatched = 0;
  const inputShapesDiffer = a.inputs.filter((n) => a.feeds[n] && b.feeds[n] && !sameShape(a.feeds[n], b.feeds[n]));
  // Runs fed differently shaped inputs compute their integer/bool tensors (shapes, ranges, masks) from
  // those shapes: comparing them would report structure, not values.
  const structural = inputShapesDiffer.length > 0;
  const check = (x: TensorCopy | undefined, y: TensorCopy | undefined, node: boolean): TensorDiff | null => {
    if (!x || !y) return null;
    const d = node && structural && !FLOAT_TYPES.has(x.type) ? null : diffTensors(x, y, tol);
    if (d) compared++;
    else skipped++;
    return d;
  };
  let input: DrillFinding | null = null;
  for (const name of a.inputs) {
    const d = check(a.feeds[name], b.feeds[name], false);
    if (d && isFinding(d) && !input) {
      const role = describe(name);
      input = finding('input', name, d, role ? { role } : {});
    }
  }
  for (const node of a.nodes) {
    for (const out of node.outputs) {
      if (!out) continue;
      if (!corresponding.has(out)) {
        unmatched++;
        continue;
      }
      const d = check(a.values[out], b.values[out], true);
      if (d && isFinding(d)) return { input, node: finding('node', node.name, d, { opType: node.opType, output: out }), firstNode: node, compared, skipped, inputShapesDiffer, unmatched };
    }
  }
  return { input, node: null, firstNode: null, compared, skipped, inputShapesDiffer, unmatched };
}
