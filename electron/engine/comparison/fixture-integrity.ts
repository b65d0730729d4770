import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { reportJsonChunks } from '../../common/report/json-number.js';

export function sha256Hex(content: Uint8Array | string): string {
  return createHash('sha256').update(content).digest('hex');
}

const DIGEST_FIELD = /"reportSha256": "([0-9a-f]{64})"/;

/**
 * report.json text with `integrity` filled in: the sha256 of every file written beside it, and the
 * sha256 of the report text itself as written with `"reportSha256": ""`. Detects any edit to the
 * report or the files (an integrity check against accidents and careless edits, not a signature).
 */
export function sealReport(report: Record<string, unknown>, files: Record<string, Uint8Array | string>): string {
  return sealReportChunks(report, files).join('');
}

/** sealReport's text in pieces (reportJsonChunks), for reports too large for one string. */
export function sealReportChunks(report: Record<string, unknown>, files: Record<string, Uint8Array | string>): string[] {
  const hashes: Record<string, string> = {};
  for (const name of Object.keys(files).sort()) hashes[name] = sha256Hex(files[name]);
  const chunks = [...reportJsonChunks({ ...report, integrity: { files: hashes, reportSha256: '' } }), '\n'];
  const hash = createHash('sha256');
  for (const chunk of chunks) hash.update(chunk);
  const digest = hash.digest('hex');
  // reportJsonChunks writes a key and its value as separate pieces.
  const at = chunks.findLastIndex((c, i) => c === '""' && chunks[i - 1]?.endsWith('"reportSha256": '));
  chunks[at] = `"${digest}"`;
  return chunks;
}

/**
 * sealReportChunks for a report written as it is made (`pieces` of the report with `integrity` in it, e.g.
 * reportJsonWithRows): `hashes` are the files' sha256 (sha256File for one too large to hold). The pieces
 * are made twice, once to hash the text and once to write it.
 */
export async function sealReportStream(report: Record<string, unknown>, hashes: Record<string, string>, pieces: (report: Record<string, unknown>) => AsyncIterable<string>): Promise<() => AsyncGenerator<string>> {
  const files: Record<string, string> = {};
  for (const name of Object.keys(hashes).sort()) files[name] = hashes[name];
  const sealed = { ...report, integrity: { files, reportSha256: '' } };
  const hash = createHash('sha256');
  for await (const piece of pieces(sealed)) hash.update(piece);
  hash.update('\n');
  const digest = hash.digest('hex');
  return async function* () {
    let previous = '';
    for await (const piece of pieces(sealed)) {
      // reportJsonChunks writes a key and its value as separate pieces.
      yield piece === '""' && previous.endsWith('"reportSha256": ') ? `"${digest}"` : piece;
      previous = piece;
    }
    yield '\n';
  };
}

/** A file's sha256, read a piece at a time. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** What a report.json's seal says: the digest it records (undefined when it has none) and its text's own. */
export interface ReportSeal {
  recorded: string | undefined;
  actual: string;
}

/**
 * The seal of a report.json read a line at a time (`lines` joined by "\n" are its text): the digest field's
 * first occurrence is blanked as the writer blanked it before hashing.
 */
export class ReportSealHash {
  private readonly hash = createHash('sha256');
  private recorded: string | undefined;
  private first = true;

  line(text: string): void {
    if (!this.first) this.hash.update('\n');
    this.first = false;
    const match = this.recorded === undefined ? DIGEST_FIELD.exec(text) : null;
    if (match) this.recorded = match[1];
    this.hash.update(match ? text.replace(DIGEST_FIELD, '"reportSha256": ""') : text);
  }

  seal(): ReportSeal {
    return { recorded: this.recorded, actual: this.hash.digest('hex') };
  }
}

/**
 * Problems found in a sealed fixture, in words; empty when report.json and every listed file are intact.
 * `files` is the report's integrity.files, `found` each one's sha256 now (undefined: missing).
 */
export function sealProblems(seal: ReportSeal, files: Record<string, string>, found: Record<string, string | undefined>): string[] {
  if (seal.recorded === undefined) return ['report.json has no integrity.reportSha256 (not written by parity compare, or edited)'];
  const problems: string[] = [];
  if (seal.actual !== seal.recorded) problems.push(`report.json was changed after it was written (sha256 ${seal.actual.slice(0, 12)}…, recorded ${seal.recorded.slice(0, 12)}…)`);
  for (const [name, recorded] of Object.entries(files)) {
    const now = found[name];
    if (now === undefined) problems.push(`${name} is missing`);
    else if (now !== recorded) problems.push(`${name} was changed after it was written (sha256 ${now.slice(0, 12)}…, recorded ${recorded.slice(0, 12)}…)`);
  }
  return problems;
}

/** The files a report's integrity lists (name → sha256), none when it lists none or is not an object. */
export function sealedFiles(report: unknown): Record<string, string> {
  return (report as { integrity?: { files?: Record<string, string> } } | null)?.integrity?.files ?? {};
}

/** sealProblems of a report.json held as text and files held as bytes. */
export function verifySeal(reportText: string, readFile: (name: string) => Uint8Array | undefined): string[] {
  const hash = new ReportSealHash();
  for (const line of reportText.split('\n')) hash.line(line);
  const seal = hash.seal();
  if (seal.recorded === undefined) return sealProblems(seal, {}, {});
  const files = sealedFiles(JSON.parse(reportText));
  const found: Record<string, string | undefined> = {};
  for (const name of Object.keys(files)) {
    const bytes = readFile(name);
    found[name] = bytes && sha256Hex(bytes);
  }
  return sealProblems(seal, files, found);
}
