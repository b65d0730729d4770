import { escapeHtmlInMarkdown, inlineCode } from '../report/format/markdown-safe.js';
import type { Quantiles } from './quantiles.js';
import { caseKey } from './sweep-case.js';
import { sweepNumber } from './sweep-number.js';
import type { SweepSummary } from './sweep-summary.js';

const BAR = 40;

function bars(histogram: { step: number; count: number }[]): string[] {
  const top = Math.max(1, ...histogram.map((h) => h.count));
  return histogram.map((h) => `step ${String(h.step).padStart(4)} | ${'#'.repeat(Math.max(1, Math.round((h.count / top) * BAR)))} ${h.count}`);
}

function quantileRow(name: string, q: Quantiles, digits: number): string {
  const cells = [q.min, q.p05, q.p25, q.p50, q.p75, q.p95, q.max].map((v) => sweepNumber(v, digits));
  return `| ${name} | ${q.count} | ${q.nonFinite} | ${cells.join(' | ')} |`;
}

/** `sweep.md`: the summary as paste-ready Markdown (for an issue or a PR). Pure, like the summary. */
export function renderSweepMarkdown(s: SweepSummary): string {
  const run = s.cases.length;
  const pct = (n: number) => (run === 0 ? '0.0' : ((100 * n) / run).toFixed(1));
  // Corpus ids, profiles, folder names and error messages are not ours: code spans hold them verbatim,
  // prose and table cells get their HTML escaped and their pipes escaped (markdown-safe.ts).
  const e = (text: string) => escapeHtmlInMarkdown(text).replace(/\|/g, '\\|');
  const what =
    s.mode === 'profiles'
      ? `profile ${inlineCode(s.a)} vs ${inlineCode(s.b)} on bundle ${inlineCode(s.bundle ?? 'demo')}`
      : `${s.mode === 'endpoints' ? 'endpoints' : 'traces'} ${inlineCode(s.a)} vs ${inlineCode(s.b)}`;
  const out: string[] = [
    `# Parity sweep: ${what}`,
    '',
    `${run} of ${s.totalCases} cases run (corpus sha256 \`${s.corpusSha256.slice(0, 12)}…\`).`,
    '',
    '| verdict | cases | % of run |',
    '| --- | ---: | ---: |',
    ...(['identical', 'within-tolerance', 'diverged', 'degenerate-audio', 'error'] as const).map((v) => `| ${v} | ${s.counts[v] ?? 0} | ${pct(s.counts[v] ?? 0)} |`),
    `| missing | ${s.counts.missing} | |`,
    '',
    '## First divergent step',
    '',
  ];
  const f = s.flips;
  if (f['near-tie'] + f.real + f.unknown > 0) out.push(`First code flips: ${f['near-tie']} near-tie (numeric drift could swap the codes), ${f.real} real, ${f.unknown} unknown.`, '');
  if (s.firstStep.histogram.length === 0) out.push('No case diverged.', '');
  else {
    out.push(`Most frequent: step ${s.firstStep.mode}.`, '', '```', ...bars(s.firstStep.histogram), '```', '');
    for (const { stage, histogram } of s.firstStep.byStage) out.push(`Stage \`${stage}\`:`, '', '```', ...bars(histogram), '```', '');
  }
  out.push(
    '## Distributions',
    '',
    'Quantiles over the cases with a finite value (linear interpolation between ranks).',
    '',
    '| metric | finite | not finite | min | p5 | p25 | median | p75 | p95 | max |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    quantileRow('correlation', s.distributions.correlation, 6),
    quantileRow('ΔLU (B − A)', s.distributions.loudnessDeltaLU, 3),
    quantileRow('MCD (dB)', s.distributions.mcdDb, 3),
    '',
  );
  if (s.worst.length > 0) {
    const byKey = new Map(s.cases.map((c) => [caseKey(c), c]));
    out.push('## Worst cases', '', '| case | verdict | first step | stage | flip | correlation | ΔLU | MCD | fixture |', '| --- | --- | ---: | --- | --- | ---: | ---: | ---: | --- |');
    for (const w of s.worst) {
      const c = byKey.get(w.key);
      if (!c) continue;
      out.push(`| ${e(w.key)} | ${c.verdict} | ${c.firstStep ?? '—'} | ${c.stage ?? '—'} | ${c.flip ?? '—'} | ${sweepNumber(c.correlation, 6)} | ${sweepNumber(c.loudnessDeltaLU, 3)} | ${sweepNumber(c.mcdDb, 3)} | ${w.fixture ? inlineCode(w.fixture) : '—'} |`);
    }
    out.push('');
  }
  const p = s.problems;
  const problems = [
    p.missingShards.length ? `- shards with no file: ${p.missingShards.join(', ')}` : '',
    p.missing.length ? `- missing cases: ${e(list(p.missing))}` : '',
    p.duplicates.length ? `- cases written twice (same result, kept once): ${e(list(p.duplicates))}` : '',
    p.conflicts.length ? `- cases written twice with different results (first kept): ${e(list(p.conflicts))}` : '',
    p.unpaired.length ? `- traces in only one folder: ${e(list(p.unpaired))}` : '',
    ...s.cases.filter((c) => c.verdict === 'error').slice(0, 10).map((c) => `- ${e(caseKey(c))} failed: ${e(c.error ?? 'no message')}`),
  ].filter((line) => line !== '');
  if (problems.length) out.push('## Problems', '', ...problems, '');
  return out.join('\n');
}

function list(keys: string[]): string {
  return keys.length <= 10 ? keys.join(', ') : `${keys.slice(0, 10).join(', ')}, … (${keys.length} in all)`;
}
