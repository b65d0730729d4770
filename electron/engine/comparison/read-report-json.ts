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
 * report.json at `path` (undefined when nothing is there), in memory that does not grow with its step
 * rows: they are read one line at a time, each parsed and handed to `onRow` (0-based), and left out of
 * `report`. A report not laid out as written is read as it is (as whole text, only when it is not JSON),
 * so what JSON.parse would say of the text is what this says.
 */
export async function readReportJson(path: string, onRow: (row: unknown, index: number) => void = () => {}): Promise<ReportJson | undefined> {
  const pieces = readFixtureFilePieces(path);
  if (!pieces) return undefined;
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
    kept.push(text);
  };
  const decoder = new TextDecoder('utf-8');
  let carry = '';
  for await (const piece of pieces) {
    const lines = (carry + decoder.decode(piece, { stream: true })).split('\n');
    carry = lines.pop()!;
    lines.forEach(line);
  }
  line(carry + decoder.decode());
  const seal = hash.seal();
  if (laidOut) {
    try {
      return { seal, report: JSON.parse(kept.join('\n')), rowsApart: rows > 0 };
    } catch {
      // read whole below
    }
  }
  // Not JSON as laid out: parsed whole, rows and all, so that JSON.parse's message is about the whole text.
  try {
    return { seal, report: JSON.parse(new TextDecoder().decode(readFixtureFileSync(path))), rowsApart: false };
  } catch (error) {
    return { seal, report: undefined, rowsApart: false, notJson: (error as Error).message };
  }
}
