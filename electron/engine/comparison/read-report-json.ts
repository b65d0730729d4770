import { InputError } from '../../common/errors.js';
import { BoundedLines } from '../../common/text/bounded-lines.js';
import type { SizeLimit } from '../fs/read-checked.js';
import { ReportSealHash, type ReportSeal } from './fixture-integrity.js';
import { readFixtureFilePieces, readFixtureFileSync } from './read-inputs.js';

/** A fixture's report.json read a line at a time, as gate reads it. */
export interface ReportJson {
  seal: ReportSeal;
  /** The report as JSON.parse reads it; `divergence.steps` empty when `rowsApart`. */
  report: unknown;
  /** True when the rows of `divergence.steps` went to `onRow` instead of into `report`. */
  rowsApart: boolean;
  /** JSON.parse's own message when the text is not JSON (then `report` is undefined). */
  notJson?: string;
}

// The layout every report.json has (json-number.ts reportJsonChunks): the top level's keys indented by 2,
// divergence's by 4, and an array of rows written one compact row per line, indented by 6.
const DIVERGENCE = '  "divergence": {';
const STEPS = '    "steps": [';
const STEPS_END = /^ {4}\],?$/;
const ROW_INDENT = '      ';

/**
 * Longest report.json line read, in characters. The longest lines parity writes are per-step lists
 * (divergence.divergedSteps, a stage's per-step timings): two traces under the 256 MiB trace limit hold at
 * most ~12 M steps (22-byte step lines), under 9 characters each in such a list, so 2^27 holds any of them.
 */
export const MAX_REPORT_LINE = 2 ** 27;
/** What is kept outside the step rows, and a report read whole, is one string: V8's longest. */
export const MAX_REPORT_TEXT: SizeLimit = {
  bytes: 2 ** 29 - 24,
  words: 'the 512 MiB (the longest string Node holds) a report.json may have outside its step rows, or in all when it is not laid out as parity writes it',
};

/**
 * report.json at `path` (undefined when nothing is there), in memory that does not grow with its step
 * rows: they are read one line at a time, each parsed and handed to `onRow` (0-based), and left out of
 * `report`. A report not laid out as written is read as it is (as whole text, only when it is not JSON),
 * so what JSON.parse would say of the text is what this says.
 */
export async function readReportJson(path: string, onRow: (row: unknown, index: number) => void = () => {}): Promise<ReportJson | undefined> {
  const pieces = readFixtureFilePieces(path);
  if (!pieces) return undefined;
  const lines = new BoundedLines(MAX_REPORT_LINE, (n, limit) => new InputError(`${path}:${n}: line is longer than ${limit} characters (the limit of a report.json line; parity writes one step row per line)`, `${path}:${n}`));
  let keptLength = 0;
  const hash = new ReportSealHash();
  const kept: string[] = [];
  let where: 'top' | 'divergence' | 'steps' = 'top';
  let rows = 0;
  let lastHadComma = false;
  let laidOut = true;
  const line = (text: string) => {
    hash.line(text);
    if (!laidOut) return;
    if (where === 'steps') {
      if (STEPS_END.test(text)) {
        if (lastHadComma) laidOut = false;
        where = 'divergence';
      } else {
        if ((rows > 0 && !lastHadComma) || !text.startsWith(ROW_INDENT)) laidOut = false;
        lastHadComma = text.endsWith(',');
        try {
          onRow(JSON.parse(text.slice(ROW_INDENT.length, lastHadComma ? -1 : undefined)), rows++);
        } catch {
          laidOut = false;
        }
        return;
      }
    } else if (where === 'top' && text === DIVERGENCE) where = 'divergence';
    else if (where === 'divergence' && /^ {2}\},?$/.test(text)) where = 'top';
    else if (where === 'divergence' && text === STEPS) where = 'steps';
    keptLength += text.length + 1;
    if (keptLength > MAX_REPORT_TEXT.bytes) throw new InputError(`${path}: more than ${MAX_REPORT_TEXT.bytes} characters outside divergence.steps (the longest string Node holds); parity writes those rows one per line and reads them one at a time`, path);
    kept.push(text);
  };
  const decoder = new TextDecoder('utf-8');
  for await (const piece of pieces) for (const text of lines.push(decoder.decode(piece, { stream: true }))) line(text);
  for (const text of lines.push(decoder.decode())) line(text);
  line(lines.end());
  const seal = hash.seal();
  if (laidOut) {
    try {
      return { seal, report: JSON.parse(kept.join('\n')), rowsApart: rows > 0 };
    } catch {
      // read whole below
    }
  }
  // Not JSON as laid out: parsed whole, rows and all, so that JSON.parse's message is about the whole text.
  const text = new TextDecoder().decode(readFixtureFileSync(path, MAX_REPORT_TEXT));
  try {
    return { seal, report: JSON.parse(text), rowsApart: false };
  } catch (error) {
    return { seal, report: undefined, rowsApart: false, notJson: (error as Error).message };
  }
}
