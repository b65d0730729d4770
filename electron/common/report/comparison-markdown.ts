import { divergenceLines, markdownStepTable, stepTableHeading, stepTableRows } from '../forensics/divergence-summary.js';
import type { Divergence } from '../forensics/divergence.js';
import { teacherForcedLines, type TeacherForcedDrift } from '../forensics/drift.js';
import { seamLines, type SeamReport } from '../forensics/seams.js';
import { vocoderChunkLines } from '../forensics/vocoder-chunks.js';
import { metricRows } from './format/metric-rows.js';
import { codeBlock, escapeHtmlInMarkdown } from './format/markdown-safe.js';
import { markdownTable } from './format/text-table.js';
import type { Metrics } from './metrics.js';
import type { Verdict } from './report.js';

/** What a comparison summary shows, built by the CLI and the studio's export alike. */
export interface ComparisonView {
  title: string;
  /** Lines naming what was compared (profiles, files, provider). */
  sides: string[];
  /** Warnings that change what the verdict means (a fault that did not act). */
  warnings?: string[];
  verdict: Verdict;
  divergence: Divergence;
  metrics?: Metrics;
  /** `--teacher-force` (or a teacher-forced trace): B's drift and would-flips (drift.ts). */
  teacherForced?: TeacherForcedDrift;
  /** A stream vocoder profile: seams at its chunk boundaries (seams.ts). */
  seams?: SeamReport;
  /** `--baseline` findings, one line each (baselineLines). */
  baseline?: string[];
  /** `--drill` findings, one line each (drill-lines.ts). */
  drill?: string[];
  /** The command that reproduces it; with --out, into a new folder (an existing one is refused). */
  command: string;
  /** The command that re-checks the written folder itself (`parity gate DIR`), when there is one. */
  recheck?: string;
  footer: string;
}

/** report.md: verdict, where it diverges, the step table around it, key metrics, the command. */
export function renderComparisonMarkdown(v: ComparisonView): string {
  // Prose and tables carry prompts, trace headers and node names: their HTML is escaped (markdown-safe.ts).
  const e = escapeHtmlInMarkdown;
  const item = (l: string) => `- ${e(l.trim())}`;
  const parts = [`## ${e(v.title)}`, '', ...v.sides.map(item)];
  if (v.warnings?.length) parts.push('', ...v.warnings.map((w) => `> **Warning:** ${e(w)}`));
  parts.push('', ...divergenceLines(v.verdict, v.divergence, v.teacherForced, v.metrics?.audio).map(item));
  if (v.teacherForced) parts.push('', '### Teacher forcing', '', ...teacherForcedLines(v.teacherForced).map(item));
  if (v.seams) parts.push('', '### Seams', '', ...seamLines(v.seams).map(item));
  if (v.divergence.vocoderChunks) parts.push('', '### Vocoder chunks', '', ...vocoderChunkLines(v.divergence.vocoderChunks).map(item));
  if (v.baseline?.length) parts.push('', '### Determinism baseline (each profile run twice)', '', ...v.baseline.map(item));
  if (v.divergence.steps.length > 0) parts.push('', `### ${e(stepTableHeading(v.divergence))}`, '', e(markdownStepTable(stepTableRows(v.divergence))));
  if (v.metrics) parts.push('', '### Audio', '', markdownTable(metricRows(v.metrics))); // numbers and our own labels only: "peak 0.09 < 0.5" stays readable
  if (v.drill?.length) parts.push('', '### Drill-down', '', ...v.drill.map(item));
  parts.push('', '### Reproduce', '', ...codeBlock(v.command, 'sh'));
  if (v.recheck) parts.push('', 'Re-check this folder (re-runs the comparison and compares it with the files stored here; exit 1 on a regression):', '', ...codeBlock(v.recheck, 'sh'));
  parts.push('', `_${e(v.footer)}_`);
  return parts.join('\n') + '\n';
}

/** Quotes an argument for a POSIX shell when it needs it. */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * Where a reproduce command written into a folder's report.md sends its own --out: beside the folder,
 * never onto it (the folder exists once written, and --out refuses an existing folder without --force).
 */
export function rerunFolder(out: string): string {
  return `${trimFolder(out)}-rerun`;
}

/** A folder path without its trailing separators ("/" stays "/"). */
export function trimFolder(out: string): string {
  return out.replace(/[\\/]+$/, '') || out;
}

/**
 * How a report's Reproduce lines start a `parity` command. Common code cannot know where it runs, so the
 * host passes its own (host/parity-command.ts: `parity` when that is this install on PATH, else `node
 * <absolute path>/bin/parity.js`); the default is the installed command.
 */
export interface ParityCommand {
  /** The words that start the command: `['parity']` or `['node', '/abs/bin/parity.js']`. */
  words: readonly string[];
  /** Where no command runs as written where the report was made: why, as a `#` line above the command. */
  note?: string;
  /**
   * The working folder the report's paths were given from: the command names them absolute against it,
   * so it runs from any folder. Absent: the paths as given.
   */
  cwd?: string;
}
export const INSTALLED_PARITY: ParityCommand = { words: ['parity'] };

/** `path` as the command should name it: absolute against `parity.cwd` when that is known (POSIX or Windows absolute paths kept). */
export function commandPath(parity: ParityCommand, path: string): string {
  if (parity.cwd === undefined || /^([\\/]|[A-Za-z]:[\\/])/.test(path)) return path;
  const base = parity.cwd.replace(/[\\/]+$/, '');
  return `${base}/${path.replace(/^(\.[\\/])+/, '')}`;
}

/** A `parity` command line: the words, then `args`, each quoted for a POSIX shell where needed. */
export function parityCommandLine(parity: ParityCommand, args: readonly string[]): string {
  const line = [...parity.words, ...args].map(shellQuote).join(' ');
  return parity.note === undefined ? line : `# ${parity.note}\n${line}`;
}

/** `parity gate DIR`: re-checks a written fixture folder. */
export function gateCommand(out: string, parity: ParityCommand = INSTALLED_PARITY): string {
  return parityCommandLine(parity, ['gate', commandPath(parity, out)]);
}
