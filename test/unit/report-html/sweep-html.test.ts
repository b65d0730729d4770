import { describe, expect, it } from 'vitest';
import { quantilesOf } from '../../../electron/common/sweep/quantiles.js';
import { SWEEP_SUMMARY_SCHEMA, SweepSummary, type SummaryCase } from '../../../electron/common/sweep/sweep-summary.js';
import { sweepHtml } from '../../../electron/common/report/sweep-html/sweep-html.js';

function sweepCase(index: number, verdict: SummaryCase['verdict'], firstStep: number | null, correlation: number | null): SummaryCase {
  return {
    index, id: `p${index}`, seed: 0, text: 'hi', verdict, firstStep, stage: firstStep === null ? null : 'talker-logits', codebook: null, reconverges: null,
    flip: null, correlation, nullDepthDb: null, loudnessDeltaLU: correlation === null ? null : -index / 10, lsdDb: null, mcdDb: null,
  };
}

const cases = [sweepCase(0, 'identical', null, 1), sweepCase(1, 'diverged', 2, 0.3), sweepCase(2, 'diverged', 2, 0.1), sweepCase(3, 'diverged', 5, 0.5), sweepCase(4, 'error', null, null)];
const summary = SweepSummary.parse({
  schema: SWEEP_SUMMARY_SCHEMA, mode: 'profiles', a: 'graph', b: 'graph,fault=stale-feedback@2', corpusSha256: 'x', totalCases: 5,
  counts: { identical: 1, 'within-tolerance': 0, diverged: 3, error: 1, missing: 0 },
  flips: { 'near-tie': 0, real: 3, unknown: 0 },
  firstStep: { histogram: [{ step: 2, count: 2 }, { step: 5, count: 1 }], byStage: [], mode: 2 },
  distributions: { correlation: quantilesOf([1, 0.3, 0.1, 0.5]), loudnessDeltaLU: quantilesOf([0, -0.1, -0.2, -0.3]), mcdDb: quantilesOf([]) },
  worst: [{ key: 'p2@0', fixture: 'worst/01 p2 <&>' }, { key: 'p1@0' }],
  problems: { missingShards: [], missing: [], duplicates: [], conflicts: [], unpaired: [] },
  cases,
});

describe('sweep.html', () => {
  it('draws one bar per first-step bin, one dot per case with audio metrics, and links each worst case with a fixture to its report.html', () => {
    const html = sweepHtml(summary);
    expect(html.match(/<rect [^>]*data-testid="sweep-bin"><title>step \d+: \d+ cases?<\/title>/g)).toHaveLength(2);
    expect(html).toContain('<title>step 2: 2 cases</title>');
    expect(html.match(/<circle /g)).toHaveLength(4);
    expect(html).toContain('; cases without audio metrics, left out: 1');
    expect(html).toContain(`<a href="worst/01%20p2%20%3C%26%3E/report.html">p2@0</a>`);
    // A worst case without a fixture is named, not linked.
    expect(html).toMatch(/<tr><td>p1@0<\/td><td>diverged<\/td><td>2<\/td>/);
    expect(html).not.toMatch(/<script|\ssrc=|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });

  it('puts round ticks on both scatter axes, inside the frame, and a stage breakdown', () => {
    const html = sweepHtml(summary);
    const scatter = html.slice(html.indexOf('data-testid="sweep-scatter"'));
    const ticks = (axis: string) => [...scatter.matchAll(new RegExp(`data-tick="${axis}">([^<]*)<`, 'g'))].map((m) => m[1]);
    // Correlations 0.1..1: round steps, more than the two ends, the data strictly inside.
    expect(ticks('x')).toEqual(['0.2', '0.4', '0.6', '0.8', '1.0']);
    expect(ticks('y').length).toBeGreaterThanOrEqual(3);
    expect(html).toContain('<tr><td>talker-logits</td><td>3</td><td>0</td><td>—</td></tr>');
  });

  it('links report.md instead when the fixtures were written without report.html', () => {
    const html = sweepHtml(summary, 'report.md');
    expect(html).toContain(`<a href="worst/01%20p2%20%3C%26%3E/report.md">p2@0</a>`);
    expect(html).not.toContain('/report.html"');
  });

  it('has the same bytes for the same summary', () => {
    expect(sweepHtml(summary)).toBe(sweepHtml(SweepSummary.parse(JSON.parse(JSON.stringify(summary)))));
  });
});
