import type { DrillGraphNode, DrillNeighbourhood } from '../../../electron/common/report/drill.js';
import { nothingFiniteWords, type PairCounts } from '../../../electron/common/forensics/abs-diff.js';
import { heatOf } from './drill-path.js';

/** Size of one node's box and the space between rows and columns, in SVG units (px at 1:1). */
export const BOX = { width: 300, height: 34, rowGap: 18, columnGap: 60, margin: 8 };

export interface PlacedNode {
  node: DrillGraphNode;
  x: number;
  y: number;
  /** 0 (matches) … 1 (differs a lot, or NaN) of its tensor; undefined when it was not compared. */
  heat?: number;
}

export interface PlacedEdge {
  from: string;
  to: string;
  tensor: string;
  /** SVG path data, from the producer's box to the reader's. */
  d: string;
  heat?: number;
  /** max |Δ| in words for the edge's label and title. */
  label: string;
}

export interface DrillLayout {
  width: number;
  height: number;
  nodes: PlacedNode[];
  edges: PlacedEdge[];
  /** Node ids in reading order: the path from the network input down, then the first node's other inputs. */
  order: string[];
}

/** A tensor's comparison as a node or an edge carries it (edges have no `differing`). */
type Delta = { maxAbsDiff: number | string | null; nanCount: number; pairs?: PairCounts; differing?: number };

/**
 * Heat of a tensor's |Δ|; undefined (grey) when it was not compared, or when no element pair was finite
 * on both sides and nothing is known to differ (equal infinities: no |Δ| measured).
 */
function heatOfDelta(c: Delta): number | undefined {
  if (c.maxAbsDiff === null) return undefined;
  if (c.nanCount > 0) return 1;
  if (nothingFiniteWords('values', c.pairs)) return c.differing ? 1 : undefined;
  return heatOf(Number(c.maxAbsDiff));
}

const heatOfComparison = (c: DrillGraphNode['comparison']) => (c ? heatOfDelta(c) : undefined);

/** "max |Δ| 3.1e-5" (two digits), "max |Δ| ∞", "1 NaN", "no finite values compared (…)[, 4 differ]", "not compared". */
export function deltaWords(c: Delta): string {
  if (c.maxAbsDiff === null) return 'not compared';
  if (c.nanCount > 0) return `${c.nanCount} NaN`;
  const nothing = nothingFiniteWords('values', c.pairs);
  if (nothing) return c.differing ? `${nothing}, ${c.differing} differ` : nothing;
  const v = Number(c.maxAbsDiff);
  if (!Number.isFinite(v)) return `max |Δ| ${v > 0 ? '∞' : String(v)}`;
  return `max |Δ| ${v === 0 ? '0' : v < 1e-3 ? v.toExponential(1) : String(+v.toPrecision(2))}`;
}

/**
 * The neighbourhood drawn top to bottom: the path from the network input (top row) to the first
 * divergent node (bottom row) in one column, and the first node's other direct inputs in a column to
 * its left, bottom-aligned with it, each joined to it by a curve. Edges run from producer to reader.
 */
export function layoutNeighbourhood(n: DrillNeighbourhood): DrillLayout {
  const byId = new Map(n.nodes.map((node) => [node.id, node]));
  const firstId = n.path[n.path.length - 1];
  const onPath = new Set(n.path);
  const side = n.edges.filter((e) => e.to === firstId && !onPath.has(e.from)).map((e) => e.from);
  const sideIds = [...new Set(side)];
  const rows = Math.max(n.path.length, sideIds.length);
  const rowOf = (i: number, count: number) => rows - count + i;
  const row = BOX.height + BOX.rowGap;
  const mainX = BOX.margin + (sideIds.length > 0 ? BOX.width + BOX.columnGap : 0);
  const placed = new Map<string, PlacedNode>();
  n.path.forEach((id, i) => placed.set(id, { node: byId.get(id)!, x: mainX, y: BOX.margin + rowOf(i, n.path.length) * row, heat: heatOfComparison(byId.get(id)!.comparison) }));
  sideIds.forEach((id, i) => placed.set(id, { node: byId.get(id)!, x: BOX.margin, y: BOX.margin + rowOf(i, sideIds.length) * row, heat: heatOfComparison(byId.get(id)!.comparison) }));
  const edges: PlacedEdge[] = [];
  for (const e of n.edges) {
    const from = placed.get(e.from);
    const to = placed.get(e.to);
    if (!from || !to) continue;
    let d: string;
    if (from.x === to.x) {
      d = `M ${from.x + BOX.width / 2} ${from.y + BOX.height} L ${to.x + BOX.width / 2} ${to.y}`;
    } else {
      const x0 = from.x + BOX.width;
      const y0 = from.y + BOX.height / 2;
      const x1 = to.x;
      const y1 = to.y + BOX.height / 2;
      d = `M ${x0} ${y0} C ${x0 + BOX.columnGap / 2} ${y0}, ${x1 - BOX.columnGap / 2} ${y1}, ${x1} ${y1}`;
    }
    edges.push({ from: e.from, to: e.to, tensor: e.tensor, d, heat: heatOfDelta(e), label: deltaWords(e) });
  }
  return {
    width: mainX + BOX.width + BOX.margin,
    height: BOX.margin * 2 + rows * row - BOX.rowGap,
    nodes: [...placed.values()],
    edges,
    order: [...n.path, ...sideIds],
  };
}
