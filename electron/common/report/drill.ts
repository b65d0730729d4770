import { z } from 'zod';
import { PairCounts } from '../forensics/abs-diff.js';
import { DivergenceStage } from '../forensics/divergence.js';
import { JsonNumber } from './json-number.js';

/**
 * `drill` section of a comparison report (`parity compare --drill`, docs/drill.md): inside the first
 * divergent step, the network input and the first node (in topological order) whose output differs
 * beyond tolerance or holds a NaN, found by re-running that step's network with every intermediate
 * tensor promoted to a graph output.
 */

export const DrillNetwork = z.enum(['talker', 'code-predictor', 'vocoder']);
export type DrillNetwork = z.infer<typeof DrillNetwork>;

export const TensorSummary = z.object({
  shape: z.array(z.number().int().nonnegative()),
  min: JsonNumber,
  max: JsonNumber,
  mean: JsonNumber,
  nan: z.number().int().nonnegative(),
  inf: z.number().int().nonnegative(),
});
export type TensorSummary = z.infer<typeof TensorSummary>;

/** How one tensor of A compares with its counterpart of B (float-diff.ts); both drill-downs report it. */
export const TensorComparison = z.object({
  /**
   * Largest |A − B| over the elements: NaN when one side is NaN where the other is not, or when no
   * element pair was finite on both sides (`pairs.finite` 0: nothing measured, e.g. ±Inf on both sides).
   */
  maxAbsDiff: JsonNumber,
  /** Element pairs finite on both sides, and those holding a NaN or an infinity (abs-diff.ts). Absent in older reports. */
  pairs: PairCounts.optional(),
  /** Elements beyond tolerance (NaN mismatches included). */
  differing: z.number().int().nonnegative(),
  /** NaN elements, both sides together. */
  nanCount: z.number().int().nonnegative(),
  /** Which side holds a NaN: A, B, both, or null when neither. */
  side: z.enum(['A', 'B', 'both']).nullable(),
  a: TensorSummary,
  b: TensorSummary,
});

/** One tensor of both sides: a network input, or one output of a node. */
export const DrillFinding = z.object({
  kind: z.enum(['input', 'node']),
  /** Input name, or node name (the node's first output name in the demo builder). */
  name: z.string(),
  opType: z.string().optional(),
  /** The node output compared (a node may have several). */
  output: z.string().optional(),
  /** Decoder layer index read from the name (`layers.2.attn.softmax` → 2). */
  layer: z.number().int().nonnegative().optional(),
  /** What the input carries, e.g. "audio feedback: sum of the previous frame's code embeddings". */
  role: z.string().optional(),
  ...TensorComparison.shape,
});
export type DrillFinding = z.infer<typeof DrillFinding>;

/**
 * One tensor of the neighbourhood drawn as a graph node: a network input, or a node (by the output of it
 * that the neighbourhood follows). `comparison` is null when the tensor has no comparable counterpart in
 * B (no corresponding node, or shapes that differ).
 */
export const DrillGraphNode = z.object({
  /** `input:<name>` or `node:<name>`: unique in the neighbourhood. */
  id: z.string(),
  kind: z.enum(['input', 'node']),
  name: z.string(),
  opType: z.string().optional(),
  layer: z.number().int().nonnegative().optional(),
  /** What a network input carries. */
  role: z.string().optional(),
  /** The tensor compared: the input itself, or the node output the neighbourhood follows. */
  tensor: z.string(),
  comparison: TensorComparison.nullable(),
  /** The first divergent node (the report's `node`). */
  first: z.boolean(),
  /** On the path from the network input to the first divergent node. */
  onPath: z.boolean(),
});
export type DrillGraphNode = z.infer<typeof DrillGraphNode>;

/** A tensor flowing from the node (or input) that produces it to one that reads it. */
export const DrillGraphEdge = z.object({
  from: z.string(),
  to: z.string(),
  tensor: z.string(),
  /** max |A − B| of the tensor; null when it was not compared. */
  maxAbsDiff: JsonNumber.nullable(),
  nanCount: z.number().int().nonnegative(),
  /** As TensorComparison's `pairs`; absent when not compared and in older reports. */
  pairs: PairCounts.optional(),
});
export type DrillGraphEdge = z.infer<typeof DrillGraphEdge>;

/**
 * The first divergent node's graph neighbourhood in A's network (neighbourhood.ts): the node, its direct
 * inputs (network inputs, or the nodes producing them; weights and constants left out) and the path
 * back to a network input, each step taking the input with the largest |Δ| (a NaN first; ties: the
 * first input), each tensor compared with B's as the walk compares them.
 */
export const DrillNeighbourhood = z.object({
  nodes: z.array(DrillGraphNode),
  edges: z.array(DrillGraphEdge),
  /** Node ids from the network input (or where the path stopped) to the first divergent node. */
  path: z.array(z.string()),
  /** The path was cut at MAX_PATH nodes before reaching a network input. */
  truncated: z.boolean(),
});
export type DrillNeighbourhood = z.infer<typeof DrillNeighbourhood>;

export const DrillModel = z.object({ file: z.string(), optimize: z.boolean(), provider: z.string(), runs: z.number().int().nonnegative() });

export const DrillReport = z.object({
  /**
   * no-divergence: the localiser found no divergent step (nothing to drill); found: an input or a node
   * differs; nothing-differs: every compared tensor matches within tolerance; not-comparable: one side
   * has no run of the network at that step (e.g. it stopped earlier).
   */
  status: z.enum(['no-divergence', 'found', 'nothing-differs', 'not-comparable']),
  step: z.number().int().positive().nullable(),
  /** The localiser's stage that chose the network. */
  divergenceStage: DivergenceStage.nullable(),
  network: DrillNetwork.nullable(),
  a: DrillModel.optional(),
  b: DrillModel.optional(),
  /** Which session.run of the step (0-based, aligned from the last run) holds the finding, and what it computed. */
  run: z.object({ index: z.number().int().nonnegative(), count: z.number().int().nonnegative(), what: z.string() }).optional(),
  /** An element matches when |a − b| ≤ abs + rel·max(|a|, |b|); NaN matches nothing (a NaN is always reported). */
  tolerance: z.object({ abs: z.number().nonnegative(), rel: z.number().nonnegative() }),
  /** The first network input that differs or holds a NaN: the difference entered through it. */
  input: DrillFinding.nullable(),
  /** The first node output, in topological order, that differs or holds a NaN. */
  node: DrillFinding.nullable(),
  /**
   * Tensors compared (inputs and node outputs present on both sides, up to the finding), and those
   * skipped: shapes differ, or integer/bool node outputs of runs whose input shapes differ.
   */
  compared: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  /** Node outputs of A (up to the finding) with no corresponding node in B: two exports built differently. */
  unmatched: z.number().int().nonnegative(),
  /** Inputs whose shapes differ between the sides (not compared), e.g. a dynamic vs a fixed-size KV cache. */
  inputShapesDiffer: z.array(z.string()).optional(),
  /** Largest |Δ| between each side's declared outputs in the drill re-run and in the recorded run (0: reproduced exactly). */
  replayMaxAbsDiff: z.object({ a: JsonNumber, b: JsonNumber }).optional(),
  /** The first divergent node's neighbourhood, as a graph (absent in reports made before it was recorded). */
  neighbourhood: DrillNeighbourhood.optional(),
  /** One line: where the difference starts. */
  summary: z.string(),
});
export type DrillReport = z.infer<typeof DrillReport>;
