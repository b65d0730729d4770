import { z } from 'zod';
import type { TraceLogitStats, TraceStep } from '../trace/step-record.js';
import { COMPARED_STATS } from './compare-step.js';

/**
 * Which step fields a comparison could use (partial traces, docs/trace-format.md): `fields` were
 * compared (both sides had them at some step both ran), `missingA` / `missingB` were recorded by the
 * other side only at some step, so they were not compared there. Names are `codes`, `logits.<stat>`
 * and `codePredictorLogits.<stat>` with stat one of mean, std, min, max, top5.
 */
export const ComparedFields = z.object({
  fields: z.array(z.string()),
  missingA: z.array(z.string()),
  missingB: z.array(z.string()),
});
export type ComparedFields = z.infer<typeof ComparedFields>;

/** What a full record compares; fewer (or a missing side) makes a partial comparison. */
const TALKER_FIELDS = ['codes', ...COMPARED_STATS.map((s) => `logits.${s}`)];
const PREDICTOR_FIELDS = COMPARED_STATS.map((s) => `codePredictorLogits.${s}`);
const ORDER = [...TALKER_FIELDS, ...PREDICTOR_FIELDS];

function present(stats: TraceLogitStats | undefined, prefix: string, into: Set<string>): void {
  if (!stats) return;
  for (const s of COMPARED_STATS) if (stats[s] !== undefined) into.add(`${prefix}.${s}`);
}

function fieldsOf(step: TraceStep): Set<string> {
  const out = new Set<string>();
  if (step.codes) out.add('codes');
  present(step.logits, 'logits', out);
  for (const row of step.codePredictorLogits ?? []) present(row, 'codePredictorLogits', out);
  return out;
}

const ordered = (set: Set<string>): string[] => ORDER.filter((f) => set.has(f));

/** The compared and one-sided fields over the steps both runs have. */
export function comparedFields(stepsA: readonly TraceStep[], stepsB: readonly TraceStep[]): ComparedFields {
  const tally = new ComparedFieldsTally();
  for (let i = 0; i < Math.min(stepsA.length, stepsB.length); i++) tally.add(stepsA[i], stepsB[i]);
  return tally.result();
}

/** comparedFields fed one step pair (both runs ran it) at a time, for traces read as a stream. */
export class ComparedFieldsTally {
  private readonly both = new Set<string>();
  private readonly onlyA = new Set<string>();
  private readonly onlyB = new Set<string>();

  add(stepA: TraceStep, stepB: TraceStep): void {
    const a = fieldsOf(stepA);
    const b = fieldsOf(stepB);
    for (const f of a) (b.has(f) ? this.both : this.onlyA).add(f);
    for (const f of b) if (!a.has(f)) this.onlyB.add(f);
  }

  result(): ComparedFields {
    return { fields: ordered(this.both), missingA: ordered(this.onlyB), missingB: ordered(this.onlyA) };
  }
}

/**
 * True when the comparison used less than a full record gives: a field on one side only, the codes or a
 * talker statistic not compared, or code-predictor statistics compared only in part. A trace pair
 * without code-predictor statistics on either side is not partial (they were always optional).
 */
export function isPartial(c: ComparedFields): boolean {
  if (c.missingA.length > 0 || c.missingB.length > 0) return true;
  if (!TALKER_FIELDS.every((f) => c.fields.includes(f))) return true;
  const predictor = PREDICTOR_FIELDS.filter((f) => c.fields.includes(f)).length;
  return predictor > 0 && predictor < PREDICTOR_FIELDS.length;
}

/** "logits.mean only" / "codes, logits.mean only", or "no field at all" when nothing was shared. */
export function comparedFieldsPhrase(c: ComparedFields): string {
  return c.fields.length > 0 ? `${c.fields.join(', ')} only` : 'no field at all (none recorded on both sides)';
}

/** One line on what was compared, for the summary and report.md; null for a full comparison. */
export function comparedLine(c: ComparedFields): string | null {
  if (!isPartial(c)) return null;
  const parts = [`Compared: ${c.fields.length > 0 ? c.fields.join(', ') : 'nothing (no field recorded on both sides)'}`];
  if (c.missingA.length > 0) parts.push(`not in A: ${c.missingA.join(', ')}`);
  if (c.missingB.length > 0) parts.push(`not in B: ${c.missingB.join(', ')}`);
  return `${parts.join('; ')} (partial trace)`;
}

/** The warnings for statistics present on one side only (report.warnings). */
export function oneSidedWarnings(c: ComparedFields, fileA: string, fileB: string): string[] {
  const warnings: string[] = [];
  if (c.missingA.length > 0) warnings.push(`${fileB} records ${c.missingA.join(', ')} where ${fileA} does not: not compared at those steps`);
  if (c.missingB.length > 0) warnings.push(`${fileA} records ${c.missingB.join(', ')} where ${fileB} does not: not compared at those steps`);
  return warnings;
}
