import { findingHowText } from './drill-lines.js';
import { nonFinite } from './format/numbers.js';
import type { ModuleDrillReport, ModuleFinding } from './module-drill.js';

const num = (x: number): string => (Number.isFinite(x) ? String(Number(x.toPrecision(3))) : nonFinite(x));
const shape = (s: number[]): string => `[${s.join(', ')}]`;

function moduleText(m: ModuleFinding): string {
  return `${m.name}${m.occurrence > 0 ? ` (call ${m.occurrence + 1} of it in the step)` : ''}`;
}

const toleranceText = (t: ModuleDrillReport['tolerance']): string => `|Δ| ≤ ${t.abs}${t.rel ? ` + ${t.rel}·|x|` : ''}`;

/** The one-line `summary` of a module drill-down. */
export function moduleDrillSummary(d: Omit<ModuleDrillReport, 'summary'>): string {
  if (d.status === 'no-divergence') return 'no divergent step: nothing to drill into';
  if (d.status === 'not-recorded') {
    return `step ${d.step}: not in both sidecars (A holds steps ${d.recordedSteps?.a}, B holds steps ${d.recordedSteps?.b}); record it (ModuleRecorder steps=) to see inside it`;
  }
  const unmatched = d.unmatched > 0 ? ` (${d.unmatched} output(s) of A have no counterpart in B)` : '';
  if (d.status === 'nothing-differs' || !d.module) {
    return `step ${d.step}: no module output differs: all ${d.compared} compared outputs match within ${toleranceText(d.tolerance)}${unmatched}`;
  }
  const m = d.module;
  const what = m.nanCount > 0 ? 'the NaN first appears in module' : 'first module whose output differs:';
  return `step ${d.step}: ${what} ${moduleText(m)}, ${findingHowText(m)}${unmatched}`;
}

/** The lines `parity compare-trace` prints and report.md shows for a module drill-down. */
export function moduleDrillLines(d: ModuleDrillReport): string[] {
  const lines = [`Module drill-down: ${d.summary}`];
  if (d.status !== 'found' && d.status !== 'nothing-differs') return lines;
  lines.push(`  sidecars: A ${d.sidecars.a}, B ${d.sidecars.b}`);
  const m = d.module;
  if (m) {
    lines.push(
      `  module ${m.name} ${shape(m.a.shape)}: A [${num(m.a.min)}, ${num(m.a.max)}] mean ${num(m.a.mean)} NaN ${m.a.nan}; B [${num(m.b.min)}, ${num(m.b.max)}] mean ${num(m.b.mean)} NaN ${m.b.nan}`,
    );
  }
  lines.push(
    `  tolerance ${toleranceText(d.tolerance)} per element; ${d.compared} module outputs compared, ${d.skipped} skipped (shapes differ), ${d.unmatched} of A without a counterpart in B`,
  );
  if (d.shapesDiffer?.length) lines.push(`  shapes differ (not compared): ${d.shapesDiffer.slice(0, 5).join(', ')}${d.shapesDiffer.length > 5 ? `, … (${d.shapesDiffer.length} in all)` : ''}`);
  return lines;
}
