import type { DrillGraphEdge, DrillGraphNode, DrillNeighbourhood } from '../../common/report/drill.js';
import type { ModelNode } from './promote-outputs.js';
import { diffTensors, type DrillTolerance, type TensorDiff } from './tensor-diff.js';
import type { SideValues } from './walk-graph.js';

/** Longest path back drawn: beyond it the path stops (`truncated`), a network input not reached. */
export const MAX_PATH = 48;

const layerOf = (name: string): number | undefined => {
  const m = /(?:^|\.)layers\.(\d+)\./.exec(name);
  return m ? Number(m[1]) : undefined;
};

/**
 * Ranks a tensor's difference for choosing the path: a NaN (or Inf) first, then the largest |Δ|; not
 * compared last. Equal infinities on both sides (nothing finite measured, nothing differing) rank as a match.
 */
function rank(d: TensorDiff | null): number {
  if (!d) return -2;
  if (d.nanCount > 0 || (d.differing > 0 && !Number.isFinite(d.maxAbsDiff))) return Infinity;
  return Number.isNaN(d.maxAbsDiff) ? 0 : d.maxAbsDiff;
}

/**
 * The first divergent node's neighbourhood in A's graph: the node (by `firstOutput`, the output that
 * differs), the producers of its direct inputs
 * (or the network inputs they are), and the path back to a network input, each step following the
 * input with the largest |Δ| (see rank; on a tie the first input). A tensor is compared as walkGraphs
 * compares it: a network input fed on both sides, or a node output with a counterpart in B
 * (`corresponding`), when the shapes agree. Weights and constants (inputs no node produces and the
 * network does not take) are left out. `describe` gives a network input's role in words.
 */
export function neighbourhood(
  a: SideValues,
  b: SideValues,
  corresponding: Set<string>,
  tol: DrillTolerance,
  first: ModelNode,
  firstOutput: string,
  describe: (input: string) => string | undefined,
): DrillNeighbourhood {
  const producer = new Map<string, ModelNode>();
  for (const n of a.nodes) for (const out of n.outputs) if (out) producer.set(out, n);
  const isInput = (t: string) => a.inputs.includes(t);
  const diffs = new Map<string, TensorDiff | null>();
  const diffOf = (t: string): TensorDiff | null => {
    if (!diffs.has(t)) {
      const [x, y] = isInput(t) ? [a.feeds[t], b.feeds[t]] : corresponding.has(t) ? [a.values[t], b.values[t]] : [undefined, undefined];
      diffs.set(t, x && y ? diffTensors(x, y, tol) : null);
    }
    return diffs.get(t)!;
  };
  const nodes = new Map<string, DrillGraphNode>();
  const edges = new Map<string, DrillGraphEdge>();
  /** The graph node that produces tensor `t` (a network input, or a node), added once. */
  const source = (t: string, onPath: boolean): string => {
    const node = producer.get(t);
    const id = node ? `node:${node.name}` : `input:${t}`;
    const known = nodes.get(id);
    if (known) {
      if (onPath) known.onPath = true;
      return id;
    }
    const d = diffOf(t);
    const comparison = d && { maxAbsDiff: d.maxAbsDiff, pairs: d.pairs, differing: d.differing, nanCount: d.nanCount, side: d.side, a: d.a, b: d.b };
    const role = node ? undefined : describe(t);
    const layer = layerOf(t);
    nodes.set(id, {
      id,
      kind: node ? 'node' : 'input',
      name: node ? node.name : t,
      ...(node ? { opType: node.opType } : {}),
      ...(layer === undefined ? {} : { layer }),
      ...(role ? { role } : {}),
      tensor: t,
      comparison,
      first: false,
      onPath,
    });
    return id;
  };
  const edge = (t: string, from: string, to: string) => {
    const d = diffOf(t);
    edges.set(`${from}→${to}:${t}`, { from, to, tensor: t, maxAbsDiff: d ? d.maxAbsDiff : null, nanCount: d?.nanCount ?? 0, ...(d ? { pairs: d.pairs } : {}) });
  };
  /** A node's inputs that are network inputs or node outputs (not weights or constants). */
  const dataInputs = (n: ModelNode) => n.inputs.filter((t) => t !== '' && (isInput(t) || producer.has(t)));

  const firstId = source(firstOutput, true);
  nodes.get(firstId)!.first = true;
  for (const t of dataInputs(first)) edge(t, source(t, false), firstId);

  const path = [firstId];
  let current: ModelNode | undefined = first;
  let truncated = false;
  while (current) {
    const inputs = dataInputs(current);
    if (inputs.length === 0) break;
    if (path.length >= MAX_PATH) {
      truncated = true;
      break;
    }
    const next = inputs.reduce((best, t) => (rank(diffOf(t)) > rank(diffOf(best)) ? t : best), inputs[0]);
    const id = source(next, true);
    edge(next, id, path[0]);
    path.unshift(id);
    current = producer.get(next);
  }
  return { nodes: [...nodes.values()], edges: [...edges.values()], path, truncated };
}
