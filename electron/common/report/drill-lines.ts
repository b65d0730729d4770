import type { DrillFinding, DrillGraphNode, DrillNeighbourhood, DrillReport } from './drill.js';
import { nothingFiniteWords } from '../forensics/abs-diff.js';
import { nonFinite } from './format/numbers.js';

const num = (x: number): string => (Number.isFinite(x) ? String(Number(x.toPrecision(3))) : nonFinite(x));

function nodeText(f: DrillFinding): string {
  const detail = [f.opType, f.layer === undefined ? undefined : `layer ${f.layer}`].filter(Boolean).join(', ');
  const out = f.output && f.output !== f.name ? ` output ${f.output}` : '';
  return `${f.name}${out}${detail ? ` (${detail})` : ''}`;
}

function inputText(f: DrillFinding): string {
  return `input ${f.name}${f.role ? ` (${f.role})` : ''}`;
}

type Compared = Pick<DrillFinding, 'maxAbsDiff' | 'pairs' | 'differing' | 'nanCount' | 'side'>;

/**
 * How a finding differs, as both drill-downs word it: "max |Δ| 0.52 over 64 element(s)" and/or "1 NaN on
 * side B", or "no finite values compared (…)" when no element pair was finite on both sides.
 */
export function findingHowText(f: Compared): string {
  const parts: string[] = [];
  if (f.nanCount > 0) parts.push(`${f.nanCount} NaN on side ${f.side === 'both' ? 'A and B' : f.side}`);
  const nothing = nothingFiniteWords('values', f.pairs);
  if (nothing) parts.push(f.differing > 0 ? `${nothing}, ${f.differing} element(s) differ` : nothing);
  // With a NaN on one side the largest |Δ| is NaN: the NaN count says it.
  else if (f.differing > 0 && !Number.isNaN(f.maxAbsDiff)) parts.push(`max |Δ| ${num(f.maxAbsDiff)} over ${f.differing} element(s)`);
  return parts.join(', ');
}

/** "0", "3.1e-5", "2 NaN", "no finite values compared (…), 4 differ", "not compared": a tensor's max |Δ| in a path line. */
function deltaText(c: DrillGraphNode['comparison']): string {
  if (!c) return 'not compared';
  if (c.nanCount > 0) return `${c.nanCount} NaN`;
  const nothing = nothingFiniteWords('values', c.pairs);
  if (nothing) return c.differing > 0 ? `${nothing}, ${c.differing} differ` : nothing;
  return num(Number(c.maxAbsDiff));
}

/** The neighbourhood as text: the path back to the network input, and the first node's direct inputs, each with its max |Δ|. */
function neighbourhoodLines(n: DrillNeighbourhood): string[] {
  const byId = new Map(n.nodes.map((x) => [x.id, x]));
  const step = (id: string) => {
    const x = byId.get(id)!;
    return `${x.kind === 'input' ? 'input ' : ''}${x.name} (${deltaText(x.comparison)})`;
  };
  const firstId = n.path[n.path.length - 1];
  const inputs = n.edges.filter((e) => e.to === firstId).map((e) => step(e.from));
  return [
    `  path${n.truncated ? ' (cut before the network input)' : ' from the network input'}, max |Δ| of each: ${n.path.map(step).join(' → ')}`,
    `  inputs of ${byId.get(firstId)!.name}: ${inputs.length ? inputs.join(', ') : 'weights and constants only'}`,
  ];
}

/** The one-line `summary` of a drill report. */
export function drillSummary(d: Omit<DrillReport, 'summary'>, note?: string): string {
  if (d.status === 'no-divergence') return 'no divergent step: A and B match at every step within the tolerances, so nothing differs to drill into';
  if (d.status === 'not-comparable') return `step ${d.step}, ${d.network}: ${note ?? 'the two sides have no comparable run at this step'}`;
  const where = `step ${d.step} (${d.network})`;
  if (d.status === 'nothing-differs' || (!d.input && !d.node)) {
    const unmatched = d.unmatched > 0 ? ` (${d.unmatched} node outputs of A have no counterpart in B and were not compared)` : '';
    return `${where}: nothing differs: all ${d.compared} compared tensors (inputs and node outputs) match within |Δ| ≤ ${d.tolerance.abs}${d.tolerance.rel ? ` + ${d.tolerance.rel}·|x|` : ''}${unmatched}`;
  }
  const unmatched = d.unmatched > 0 ? ` (${d.unmatched} node outputs of A have no counterpart in B)` : '';
  const node = d.node ? `${d.node.nanCount > 0 ? 'the NaN first appears at node' : 'first node whose output differs:'} ${nodeText(d.node)}, ${findingHowText(d.node)}` : `no compared node output differs${unmatched}`;
  if (d.input) {
    const nan = d.input.nanCount > 0;
    return `${inputText(d.input)} ${nan ? 'holds a NaN' : 'differs'} at ${where}, ${findingHowText(d.input)}: the ${nan ? 'NaN' : 'difference'} entered through the network input; ${node}`;
  }
  return `${where}: all inputs match; ${node}`;
}

/** The lines `parity compare --drill` prints and report.md shows. */
export function drillLines(d: DrillReport): string[] {
  const lines = [`Drill-down: ${d.summary}`];
  if (d.status !== 'found' && d.status !== 'nothing-differs') return lines;
  if (d.run) lines.push(`  run ${d.run.index + 1} of ${d.run.count} in the step: ${d.run.what}`);
  if (d.a && d.b) lines.push(`  models: A ${d.a.file} (${d.a.optimize ? 'optimised' : 'unoptimised'}), B ${d.b.file} (${d.b.optimize ? 'optimised' : 'unoptimised'})`);
  const stats = (f: DrillFinding, label: string): string =>
    `  ${label} ${f.name}: A [${num(f.a.min)}, ${num(f.a.max)}] mean ${num(f.a.mean)} NaN ${f.a.nan}; B [${num(f.b.min)}, ${num(f.b.max)}] mean ${num(f.b.mean)} NaN ${f.b.nan}`;
  if (d.input) lines.push(stats(d.input, 'input'));
  if (d.node) lines.push(stats(d.node, 'node'));
  const replay = d.replayMaxAbsDiff ? `; re-run vs recorded outputs max |Δ| A ${num(d.replayMaxAbsDiff.a)}, B ${num(d.replayMaxAbsDiff.b)}` : '';
  lines.push(`  tolerance |Δ| ≤ ${d.tolerance.abs}${d.tolerance.rel ? ` + ${d.tolerance.rel}·|x|` : ''} per element; ${d.compared} tensors compared, ${d.skipped} skipped (shapes differ), ${d.unmatched} node outputs of A without a counterpart in B${replay}`);
  if (d.inputShapesDiffer?.length) lines.push(`  inputs with different shapes on A and B (not compared): ${d.inputShapesDiffer.join(', ')}`);
  if (d.neighbourhood) lines.push(...neighbourhoodLines(d.neighbourhood));
  return lines;
}
