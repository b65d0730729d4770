import type { DivergenceStage } from '../forensics/divergence.js';
import type { SummaryCase } from './sweep-summary.js';

export interface StageRow {
  stage: DivergenceStage;
  cases: number;
  /** Cases by the codebook that first differs, lowest first (code-predictor stages name 1..Q−1). */
  codebooks: { codebook: number; cases: number }[];
  nearTie: number;
}

/** Diverged cases by the stage that first differs, and within each by codebook: where a sweep's bugs sit. */
export function stageBreakdown(cases: SummaryCase[]): StageRow[] {
  const rows = new Map<DivergenceStage, { cases: number; nearTie: number; codebooks: Map<number, number> }>();
  for (const c of cases) {
    if (c.stage === null) continue;
    const row = rows.get(c.stage) ?? { cases: 0, nearTie: 0, codebooks: new Map<number, number>() };
    row.cases++;
    if (c.flip === 'near-tie') row.nearTie++;
    if (c.codebook !== null) row.codebooks.set(c.codebook, (row.codebooks.get(c.codebook) ?? 0) + 1);
    rows.set(c.stage, row);
  }
  return [...rows]
    .sort(([, x], [, y]) => y.cases - x.cases)
    .map(([stage, r]) => ({ stage, cases: r.cases, nearTie: r.nearTie, codebooks: [...r.codebooks].sort(([x], [y]) => x - y).map(([codebook, n]) => ({ codebook, cases: n })) }));
}

/** "cb0 41 · cb3 2": a row's codebooks in one line. */
export function codebookLine(row: StageRow): string {
  return row.codebooks.map((b) => `cb${b.codebook} ${b.cases}`).join(' · ') || '—';
}
