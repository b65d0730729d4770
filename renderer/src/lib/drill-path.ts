import { nothingFiniteWords } from '../../../electron/common/forensics/abs-diff.js';
import type { DrillFinding, DrillReport, TensorSummary } from '../../../electron/common/report/drill.js';

/** One box of the drill-down path: the network input the difference entered through, or the first divergent node. */
export interface DrillBox {
  kind: 'input' | 'node';
  title: string;
  /** Op type, layer, what the input carries. */
  detail?: string;
  /** |Δ| of the tensor (NaN: a NaN on one side, or nothing finite compared: see `nothingFinite`). */
  maxAbsDiff: number;
  /** "no finite values compared (…)" when no element pair was finite on both sides. */
  nothingFinite?: string;
  differing: number;
  nan?: { count: number; side: 'A' | 'B' | 'both' | null };
  a: TensorSummary;
  b: TensorSummary;
  /** 0 (matches) … 1 (differs a lot, or NaN): the colour ramp's position, log |Δ| over 1e-7 … 1e1. */
  heat: number;
}

/** Heat of a |Δ|: 0 at or under 1e-7, 1 at or over 10 or when not finite (a NaN is the worst case). */
export function heatOf(maxAbsDiff: number): number {
  if (!Number.isFinite(maxAbsDiff)) return 1;
  if (maxAbsDiff <= 1e-7) return 0;
  return Math.min(1, (Math.log10(maxAbsDiff) + 7) / 8);
}

function box(f: DrillFinding, kind: 'input' | 'node'): DrillBox {
  const detail = kind === 'input' ? f.role : [f.opType, f.layer === undefined ? undefined : `layer ${f.layer}`, f.output && f.output !== f.name ? `output ${f.output}` : undefined].filter(Boolean).join(' · ');
  return {
    kind,
    title: f.name,
    detail: detail || undefined,
    maxAbsDiff: f.maxAbsDiff,
    nothingFinite: nothingFiniteWords('values', f.pairs) ?? undefined,
    differing: f.differing,
    nan: f.nanCount > 0 ? { count: f.nanCount, side: f.side } : undefined,
    a: f.a,
    b: f.b,
    heat: f.nanCount > 0 ? 1 : heatOf(f.maxAbsDiff),
  };
}

/**
 * The path the difference took inside the divergent step, left to right: the network input it entered
 * through (when one differs), then the first node whose output differs. The report names these two
 * tensors only; the nodes between them are not recorded, so the edge between them stands for
 * "downstream of" and is labelled so.
 */
export function drillPath(d: DrillReport): DrillBox[] {
  const boxes: DrillBox[] = [];
  if (d.input) boxes.push(box(d.input, 'input'));
  if (d.node) boxes.push(box(d.node, 'node'));
  return boxes;
}

/** Where the path is: "talker network, step 8, run 1 of 1: talker, position 127". */
export function drillWhere(d: DrillReport): string {
  return `${d.network ?? 'network'} network, step ${d.step}${d.run ? `, run ${d.run.index + 1} of ${d.run.count}: ${d.run.what}` : ''}`;
}
