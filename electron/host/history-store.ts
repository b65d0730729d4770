import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Audio, ComparisonResult, HistoryEntry } from '../common/api/index.js';
import { AbxSession, HistoryEntry as HistoryEntrySchema, HistoryId } from '../common/api/index.js';
import { InputError } from '../common/errors.js';
import { DrillReport } from '../common/report/drill.js';
import { StoredReport } from '../common/report/comparison-report.js';
import { stringifyReport } from '../common/report/json-number.js';
import { float32MonoWavPieces } from '../common/wav/encode-wav.js';
import { decodeWavFile } from '../engine/fs/decode-wav-file.js';
import { writeOutputFiles } from './fs/output-files.js';
import { writeFixtureFolder, type FixtureFileContent, type FixtureTargetWords } from './fixture/write-fixture-folder.js';
import { keptImportFiles, readKeptImport, type KeptImport } from './kept-import.js';
import { readTextChecked } from '../engine/fs/read-checked.js';
import { readBytes } from './read-bytes.js';

/** A new entry's id is fresh, so a refusal here is a clash of ids: the words say what to do. */
const HISTORY_FOLDER: FixtureTargetWords = { target: 'the data folder', allowReplace: 'remove the old entry' };

export interface NewHistoryItem {
  kind: HistoryEntry['kind'];
  title: string;
  text?: string;
  report: StoredReport;
  a?: Audio;
  b?: Audio;
  /** The imported `tts-parity-trace/1` texts (kind 'traces'), kept so an export can be re-checked by `parity gate`. */
  traces?: KeptTraces;
  /** The files of an import as given, so Swap A/B can import them again the other way round. */
  imported?: KeptImport;
}

export interface KeptTraces {
  a: string;
  b: string;
  /** The module sidecars imported with the traces (a.modules.safetensors, b.modules.safetensors). */
  modules?: { a: Uint8Array; b: Uint8Array };
}

/**
 * Largest imported trace kept with a history entry, in UTF-8 bytes (each side). A 10-minute trace of
 * a 12.5 Hz talker is 7,500 lines of about 1 KB (~8 MB), so this holds over an hour; larger imports are
 * refused with a pointer to `parity compare-trace --out`, which writes the same fixture from the files.
 */
export const MAX_KEPT_TRACE_BYTES = 64 * 1024 * 1024;

/** Largest module sidecar kept with a history entry (each side): a few modules over a few hundred steps. */
export const MAX_KEPT_SIDECAR_BYTES = 128 * 1024 * 1024;

/**
 * Past comparisons, one folder each under `<dataDir>/history/<id>/`: entry.json, report.json, the
 * two renderings as float32 WAV (lossless for float32 audio) and, for imported traces, the two trace
 * files as given (a.jsonl, b.jsonl); for an import, its files as given (import.json, import-<role>:
 * kept-import.ts) so Swap A/B works on a reopened entry. Each folder is written atomically, so a
 * crash leaves either the whole entry or none; ids sort by creation time.
 */
export class HistoryStore {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = join(dataDir, 'history');
  }

  async save(item: NewHistoryItem): Promise<ComparisonResult & { entry: HistoryEntry }> {
    const now = new Date();
    const id = `${now.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')}-${randomBytes(3).toString('hex')}`;
    const entry: HistoryEntry = {
      id,
      createdAt: now.toISOString(),
      kind: item.kind,
      title: item.title,
      ...(item.text === undefined ? {} : { text: item.text }),
      ...(item.report.verdict === undefined ? {} : { verdict: item.report.verdict }),
      ...(item.imported ? { swappable: true } : {}),
    };
    const files: Record<string, FixtureFileContent> = {
      'entry.json': JSON.stringify(entry, null, 2),
      'report.json': stringifyReport(item.report),
    };
    // Written from the samples' own bytes: an encoded copy of a long take would double it in memory.
    if (item.a) files['a.wav'] = float32MonoWavPieces(item.a.samples, item.a.sampleRate);
    if (item.b) files['b.wav'] = float32MonoWavPieces(item.b.samples, item.b.sampleRate);
    if (item.traces) {
      files['a.jsonl'] = item.traces.a;
      files['b.jsonl'] = item.traces.b;
      if (item.traces.modules) {
        files['a.modules.safetensors'] = item.traces.modules.a;
        files['b.modules.safetensors'] = item.traces.modules.b;
      }
    }
    if (item.imported) Object.assign(files, keptImportFiles(item.imported));
    await writeFixtureFolder(join(this.root, id), files, { words: HISTORY_FOLDER });
    return { entry, historyId: id, report: item.report, a: item.a, b: item.b };
  }

  async list(): Promise<HistoryEntry[]> {
    if (!existsSync(this.root)) return [];
    const names = (await readdir(this.root)).filter((n) => HistoryId.safeParse(n).success).sort().reverse();
    const entries: HistoryEntry[] = [];
    for (const name of names) {
      try {
        entries.push(HistoryEntrySchema.parse(JSON.parse(await readTextChecked(join(this.root, name, 'entry.json')))));
      } catch {
        // A damaged entry is skipped from the list rather than hiding all the others.
      }
    }
    return entries;
  }

  async open(id: string): Promise<ComparisonResult> {
    const dir = this.dirOf(id);
    const report = StoredReport.parse(JSON.parse(await readTextChecked(join(dir, 'report.json'))));
    const abx = await readOptional(join(dir, 'abx.json'), AbxSession);
    const drill = await readOptional(join(dir, 'drill.json'), DrillReport);
    return {
      historyId: id,
      report,
      a: await readAudio(join(dir, 'a.wav')),
      b: await readAudio(join(dir, 'b.wav')),
      ...(abx ? { abx } : {}),
      ...(drill ? { drill } : {}),
    };
  }

  /** The imported traces kept with an entry, or undefined (not a trace import, or saved before they were kept). */
  async readTraces(id: string): Promise<KeptTraces | undefined> {
    const dir = this.dirOf(id);
    if (!existsSync(join(dir, 'a.jsonl')) || !existsSync(join(dir, 'b.jsonl'))) return undefined;
    const traces: KeptTraces = { a: await readTextChecked(join(dir, 'a.jsonl')), b: await readTextChecked(join(dir, 'b.jsonl')) };
    const [ma, mb] = [join(dir, 'a.modules.safetensors'), join(dir, 'b.modules.safetensors')];
    if (existsSync(ma) && existsSync(mb)) traces.modules = { a: await readBytes(ma), b: await readBytes(mb) };
    return traces;
  }

  /** The files an entry was imported from, or undefined (synthesized, or imported before they were kept). */
  async readImport(id: string): Promise<KeptImport | undefined> {
    return readKeptImport(this.dirOf(id));
  }

  /** Keeps the latest ABX session beside the entry (atomic: a reader sees the old file or the new). */
  async saveAbx(id: string, session: AbxSession): Promise<void> {
    await writeAtomic(this.dirOf(id), 'abx.json', JSON.stringify(session, null, 2));
  }

  /** Keeps the latest drill-down beside the entry, non-finite numbers as strings like report.json (atomic). */
  async saveDrill(id: string, drill: DrillReport): Promise<void> {
    await writeAtomic(this.dirOf(id), 'drill.json', stringifyReport(drill));
  }

  async delete(id: string): Promise<boolean> {
    const dir = join(this.root, HistoryId.parse(id));
    if (!existsSync(dir)) return false;
    // Move aside first so a half-deleted folder never shows up in the list.
    const trash = join(this.root, `.deleted-${id}-${randomBytes(3).toString('hex')}`);
    await rename(dir, trash);
    await rm(trash, { recursive: true, force: true });
    return true;
  }

  dirOf(id: string): string {
    const dir = join(this.root, HistoryId.parse(id));
    if (!existsSync(join(dir, 'entry.json'))) throw new InputError(`history entry "${id}" not found in ${this.root}`, id);
    return dir;
  }
}

/**
 * A file beside an entry, through the one writer (fs/output-files.ts): written to a temporary name and
 * renamed over the old file, so a crash never leaves half a file; a folder, FIFO or device there is
 * refused in one line, and the temporary removed on any failure.
 */
async function writeAtomic(dir: string, name: string, text: string): Promise<void> {
  await writeOutputFiles([{ flag: 'history entry file', path: join(dir, name), data: text }], { force: true });
}

async function readOptional<T>(path: string, schema: { parse(value: unknown): T }): Promise<T | undefined> {
  if (!existsSync(path)) return undefined;
  // A damaged side file (ABX session, drill-down) loses that record only, never the comparison.
  try {
    return schema.parse(JSON.parse(await readTextChecked(path)));
  } catch {
    return undefined;
  }
}

async function readAudio(path: string): Promise<Audio | undefined> {
  if (!existsSync(path)) return undefined;
  const wav = decodeWavFile(path);
  return { sampleRate: wav.sampleRate, samples: wav.channels[0] };
}
