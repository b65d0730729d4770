import { closeSync, constants, existsSync, fstatSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../common/errors.js';
import { fsReason } from '../../common/fs-reason.js';
import type { Shard } from '../../common/sweep/shard.js';
import { caseLine, headerLine } from '../../common/sweep/shard-lines.js';
import { caseKey, type SweepCase, type SweepHeader } from '../../common/sweep/sweep-case.js';
import { kindOf, readCheckedPieces } from '../../engine/fs/read-checked.js';
import { writeOutputFiles, type OutputFile } from '../fs/output-files.js';
import { MAX_SHARD, readShardLines } from './read-shards.js';

// Without blocking: opening a FIFO for writing would wait for a reader (with none, it fails at once).
const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** `shard-002-of-003.jsonl`: the index padded to the count's width, so names sort in shard order. */
export function shardFileName(shard: Shard): string {
  return `shard-${String(shard.index).padStart(Math.max(3, String(shard.count).length), '0')}-of-${shard.count}.jsonl`;
}

/** A shard file open for appending, with the keys of the cases it already holds. */
export interface ShardFile {
  path: string;
  done: Set<string>;
  /** True when a torn last line (an interrupted write) was found and cut off. */
  cutTornLine: boolean;
  append(c: SweepCase): void;
  close(): void;
}

function differingField(found: SweepHeader, wanted: SweepHeader): keyof SweepHeader | undefined {
  const keys = [...new Set([...Object.keys(found), ...Object.keys(wanted)])] as (keyof SweepHeader)[];
  return keys.find((k) => JSON.stringify(found[k]) !== JSON.stringify(wanted[k]));
}

function brief(value: unknown): string {
  const text = JSON.stringify(value) ?? 'absent';
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/** The first `count` bytes of `path`, a piece at a time (the complete lines of a torn shard file, copied). */
async function* firstBytes(path: string, count: number): AsyncGenerator<Uint8Array> {
  let left = count;
  for await (const piece of readCheckedPieces(path, { limit: MAX_SHARD, what: 'shard file to resume' })) {
    if (left <= 0) return;
    yield piece.subarray(0, Math.min(left, piece.length));
    left -= piece.length;
  }
}

/**
 * Opens (creating `dir` and the file as needed) this shard's file for appending one line per case.
 * A file left by an earlier run of the same sweep is resumed: its cases are skipped, a torn last line is
 * cut off (and redone); a file written by a different sweep is refused, naming the field that differs.
 * A new file's header line (or a resumed file's complete lines) is written through the one writer
 * (fs/output-files.ts: a temporary renamed into place, so a link at the name is replaced, never written
 * through); the file is then opened for appending without blocking and must be a regular file. Each
 * case is one write of a whole line, so an interrupt between cases leaves only complete lines.
 */
export async function openShardFile(dir: string, header: SweepHeader): Promise<ShardFile> {
  const path = join(dir, shardFileName(header.shard));
  const fail = (error: unknown): never => {
    if (error instanceof InputError) throw error;
    throw new InputError(`${path}: cannot write (${fsReason(error)})`, path);
  };
  const rewrite = (data: OutputFile['data']) => writeOutputFiles([{ flag: 'sweep shard file', path, data }], { force: true });
  const done = new Set<string>();
  let cutTornLine = false;
  let fd: number | undefined;
  try {
    const found = statSync(dir, { throwIfNoEntry: false });
    if (found && !found.isDirectory()) throw new InputError(`--out ${dir}: is ${kindOf(found)}, not a folder; give the folder for the shard files (created if missing)`, dir);
    mkdirSync(dir, { recursive: true });
    const resumed = existsSync(path) ? readShardLines(path, 'shard file to resume') : undefined;
    if (!resumed) {
      // New, or stopped before its header line was whole: start it again.
      await rewrite(headerLine(header));
    } else {
      const field = differingField(resumed.header, header);
      if (field !== undefined) {
        throw new InputError(
          `${path} was written by a different sweep (${field}: ${brief(resumed.header[field])} there, ${brief(header[field])} now); give another --out folder or remove the file`,
          path,
        );
      }
      const planned = new Set(header.planned);
      for (const c of resumed.cases) {
        const key = caseKey(c);
        if (!planned.has(key)) throw new InputError(`${path}: holds case ${key}, which this shard does not plan; the file was edited or mixed up`, path);
        done.add(key);
      }
      if (resumed.torn) {
        await rewrite(firstBytes(path, resumed.completeBytes));
        cutTornLine = true;
      }
    }
    fd = openSync(path, APPEND_FLAGS);
    const opened = fstatSync(fd);
    if (!opened.isFile()) throw new InputError(`${path}: is ${kindOf(opened)}, not a regular file; remove it or give another --out folder`, path);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    return fail(error);
  }
  const appendTo = fd;
  return {
    path,
    done,
    cutTornLine,
    append(c) {
      const bytes = Buffer.from(caseLine(c));
      try {
        let written = 0;
        while (written < bytes.length) written += writeSync(appendTo, bytes, written);
      } catch (error) {
        fail(error);
      }
      done.add(caseKey(c));
    },
    close() {
      closeSync(appendTo);
    },
  };
}
