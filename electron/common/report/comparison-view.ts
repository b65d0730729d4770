import type { Sampling } from '../api/primitives.js';
import { baselineLines } from '../forensics/baseline.js';
import { unappliedFaultLines } from '../forensics/fault-outcomes.js';
import { DEFAULT_TOLERANCES, type Tolerances } from '../forensics/tolerances.js';
import type { ComparisonReport } from './comparison-report.js';
import { commandPath, gateCommand, INSTALLED_PARITY, parityCommandLine, rerunFolder, type ComparisonView, type ParityCommand } from './comparison-markdown.js';
import { drillLines } from './drill-lines.js';

function sideLine(label: string, s: ComparisonReport['a']): string {
  const fallback = s.fallback ? ` (asked for another provider; fallback: ${s.fallback})` : '';
  const nan = s.numerics.nan;
  const numerics = nan.talker + nan.codePredictor + nan.vocoder > 0 ? `, NaN talker/code-predictor/vocoder ${nan.talker}/${nan.codePredictor}/${nan.vocoder}` : '';
  const batch = s.batchRows !== undefined ? `, batch run as ${s.batchRows} rows` : '';
  return `${label}: ${s.profile} on ${s.executionProvider}${fallback}${batch}, ${s.frames} frames, ${Number(s.timings.totalMs).toFixed(0)} ms${numerics}`;
}

/** The sampling flags of `parity compare` that reproduce `s` (defaults left out). */
function samplingFlags(s: Sampling): string[] {
  const args: string[] = [];
  if (s.mode !== 'greedy') args.push('--sampling', s.mode);
  if (s.temperature !== 1) args.push('--temperature', String(s.temperature));
  if (s.topK !== 0) args.push('--top-k', String(s.topK));
  if (s.topP !== 1) args.push('--top-p', String(s.topP));
  if (s.repetitionPenalty !== 1) args.push('--repetition-penalty', String(s.repetitionPenalty));
  return args;
}

/** The tolerance flags of `parity compare` that reproduce `t` (defaults left out). */
function toleranceFlags(t: Tolerances): string[] {
  const args: string[] = [];
  if (t.logitAbs !== DEFAULT_TOLERANCES.logitAbs) args.push('--logit-tol', String(t.logitAbs));
  if (t.logitRel !== DEFAULT_TOLERANCES.logitRel) args.push('--logit-rel-tol', String(t.logitRel));
  if (t.audioAbs !== DEFAULT_TOLERANCES.audioAbs) args.push('--audio-tol', String(t.audioAbs));
  if (t.nearTieGap !== undefined) args.push('--near-tie-gap', String(t.nearTieGap));
  return args;
}

/**
 * The command line that reproduces a comparison (what report.md shows and gate re-runs), drill flags
 * included, writing into `out` (a folder that does not exist yet: `rerunFolder` for report.md; without one the line says `--out DIR`).
 * `parity` is how the command is started where the report is made.
 */
export function compareCommand(r: ComparisonReport['rerun'], out?: string, parity: ParityCommand = INSTALLED_PARITY): string {
  const args = ['compare', '--text', r.text, '--a', r.profileA, '--b', r.profileB, '--seed', String(r.seed), ...samplingFlags(r.sampling), ...toleranceFlags(r.tolerances)];
  if (r.bundle !== 'demo') args.push('--bundle', commandPath(parity, r.bundle));
  if (r.teacherForce) args.push('--teacher-force');
  if (r.baseline) args.push('--baseline');
  if (r.drill) args.push('--drill', ...(r.drill.tolerance === undefined ? [] : ['--drill-tol', String(r.drill.tolerance)]));
  args.push('--out', out === undefined ? 'DIR' : commandPath(parity, out)); // DIR: a placeholder, left as written
  return parityCommandLine(parity, args);
}

/**
 * The summary of a profile comparison, for the CLI's output and any report.md (CLI or studio export).
 * `out` is the folder the report.md goes into: its reproduce command writes beside it (`<out>-rerun`),
 * and `parity gate <out>` is given as the re-check of the folder itself; both start with `parity`.
 */
export function profileComparisonView(report: ComparisonReport, out?: string, parity: ParityCommand = INSTALLED_PARITY): ComparisonView {
  const r = report.rerun;
  return {
    title: `Parity report: ${r.profileA} vs ${r.profileB}`,
    sides: [sideLine('A', report.a), sideLine('B', report.b), `Text: ${JSON.stringify(r.text)}, seed ${r.seed}, sampling ${r.sampling.mode}, bundle ${r.bundle} (sha256 ${r.bundleHash.slice(0, 12)}…)`],
    warnings: unappliedFaultLines([
      { label: 'A', profile: report.a.profile, faults: report.a.faults },
      { label: 'B', profile: report.b.profile, faults: report.b.faults },
    ]),
    verdict: report.verdict,
    divergence: report.divergence,
    metrics: report.metrics,
    teacherForced: report.teacherForced,
    seams: report.seams,
    baseline: report.baseline ? baselineLines(report.baseline, report.divergence.firstStep) : undefined,
    drill: report.drill ? drillLines(report.drill) : undefined,
    command: compareCommand(r, out === undefined ? undefined : rerunFolder(out), parity),
    recheck: out === undefined ? undefined : gateCommand(out, parity),
    footer: `${report.tool.name} ${report.tool.version}, schema ${report.schema}, ${report.createdAt}`,
  };
}
