import type { ModuleDrillReport, ModuleFinding } from '../report/module-drill.js';
import { moduleDrillSummary } from '../report/module-drill-lines.js';
import type { ModuleSidecar, SidecarEntry } from '../trace/module-sidecar.js';
import { diffFloats, type FloatTolerance } from './float-diff.js';

/**
 * Default per-element tolerance of the module drill-down: |Δ| ≤ 1e-4 + 1e-4·max(|a|, |b|). The absolute
 * part is the ONNX drill-down's (--drill-tol); the relative part keeps float32 reordering noise in large
 * activations (eager vs a captured graph's kernels: relative errors of ~1e-6..1e-5) from being reported.
 */
export const DEFAULT_MODULE_TOLERANCE: FloatTolerance = { abs: 1e-4, rel: 1e-4 };

/** "1-4, 6, 9-10": the steps a sidecar holds, for a message. */
export function stepRanges(entries: SidecarEntry[]): string {
  const steps = [...new Set(entries.map((e) => e.step))].sort((x, y) => x - y);
  const parts: string[] = [];
  for (let i = 0; i < steps.length; ) {
    let j = i;
    while (j + 1 < steps.length && steps[j + 1] === steps[j] + 1) j++;
    parts.push(i === j ? `${steps[i]}` : `${steps[i]}-${steps[j]}`);
    i = j + 1;
  }
  return parts.join(', ') || 'none';
}

/** Each entry of one step with its occurrence: the k-th output of that name in the step (0-based). */
function withOccurrence(entries: SidecarEntry[]): { entry: SidecarEntry; occurrence: number }[] {
  const seen = new Map<string, number>();
  return entries.map((entry) => {
    const occurrence = seen.get(entry.name) ?? 0;
    seen.set(entry.name, occurrence + 1);
    return { entry, occurrence };
  });
}

const shapeText = (s: number[]): string => `[${s.join(', ')}]`;

/**
 * Inside the localiser's first divergent step, the first module output of A (in execution order) whose
 * B counterpart — same name, same occurrence in the step — differs beyond `tolerance` or holds a NaN.
 * Outputs with different shapes are skipped (counted and named); A's outputs without a counterpart are
 * counted as unmatched. Reads only that step's tensors.
 */
export function drillModules(firstStep: number | null, a: ModuleSidecar, b: ModuleSidecar, tolerance: FloatTolerance = DEFAULT_MODULE_TOLERANCE): ModuleDrillReport {
  const base = { step: firstStep, sidecars: { a: a.file, b: b.file }, tolerance, module: null, compared: 0, skipped: 0, unmatched: 0 };
  const finish = (d: Omit<ModuleDrillReport, 'summary'>): ModuleDrillReport => ({ ...d, summary: moduleDrillSummary(d) });
  if (firstStep === null) return finish({ ...base, status: 'no-divergence' });
  const atA = a.entries.filter((e) => e.step === firstStep);
  const atB = b.entries.filter((e) => e.step === firstStep);
  if (atA.length === 0 || atB.length === 0) {
    return finish({ ...base, status: 'not-recorded', recordedSteps: { a: stepRanges(a.entries), b: stepRanges(b.entries) } });
  }
  const onB = new Map(withOccurrence(atB).map(({ entry, occurrence }) => [`${occurrence}\u0000${entry.name}`, entry]));
  let compared = 0;
  let unmatched = 0;
  const shapesDiffer: string[] = [];
  let found: ModuleFinding | null = null;
  for (const { entry: ea, occurrence } of withOccurrence(atA)) {
    const eb = onB.get(`${occurrence}\u0000${ea.name}`);
    if (!eb) {
      unmatched++;
      continue;
    }
    if (ea.shape.length !== eb.shape.length || ea.shape.some((d, i) => d !== eb.shape[i])) {
      shapesDiffer.push(`${ea.name} (A ${shapeText(ea.shape)}, B ${shapeText(eb.shape)})`);
      continue;
    }
    compared++;
    const diff = diffFloats(ea.shape, a.read(ea), b.read(eb), tolerance);
    if (diff.differing > 0 || diff.nanCount > 0) {
      found = { name: ea.name, occurrence, seq: { a: ea.seq, b: eb.seq }, ...diff };
      break;
    }
  }
  return finish({
    ...base,
    status: found ? 'found' : 'nothing-differs',
    module: found,
    compared,
    skipped: shapesDiffer.length,
    ...(shapesDiffer.length ? { shapesDiffer } : {}),
    unmatched,
  });
}
