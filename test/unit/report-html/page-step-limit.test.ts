import { describe, expect, it } from 'vitest';
import { localise } from '../../../electron/common/forensics/localise.js';
import { PAGE_STEP_LIMIT, reportPageData } from '../../../electron/common/report/html/report-page-data.js';
import type { TraceStep } from '../../../electron/common/trace/step-record.js';

const steps = (n: number, shiftFrom: number): TraceStep[] =>
  Array.from({ length: n }, (_, i) => ({ step: i + 1, logits: { mean: Math.sin(i) + (i + 1 >= shiftFrom ? 0.5 : 0) } }) as TraceStep);

describe('report.html past its step limit', () => {
  it('charts the first PAGE_STEP_LIMIT steps, says so, and still words the divergence found beyond them', () => {
    const total = PAGE_STEP_LIMIT + 5;
    const divergence = localise(steps(total, Infinity), steps(total, total - 1));
    const page = reportPageData({ verdict: 'diverged', divergence }, '## Parity report\n', 12.5);
    expect(page.steps).toHaveLength(PAGE_STEP_LIMIT);
    expect(page.logits.at(-1)?.step).toBe(PAGE_STEP_LIMIT);
    expect(page.codes.a).toHaveLength(PAGE_STEP_LIMIT);
    expect(page.warnings).toContain(`The per-step charts show steps 1–20,000 of 20,005 (the page's limit); report.json has every step.`);
    expect(page.firstStep).toBe(total - 1);
    expect(page.words.join('\n')).toContain(`step ${total - 1}`);
  });

  it('charts every step, with no warning, at the limit', () => {
    const divergence = localise(steps(PAGE_STEP_LIMIT, Infinity), steps(PAGE_STEP_LIMIT, 3));
    const page = reportPageData({ verdict: 'diverged', divergence }, '## Parity report\n', 12.5);
    expect(page.steps).toHaveLength(PAGE_STEP_LIMIT);
    expect(page.warnings).toEqual([]);
  });
});
