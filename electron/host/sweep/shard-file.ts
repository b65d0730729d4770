import { closeSync, existsSync, mkdirSync, openSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../common/errors.js';
import { fsReason } from '../../common/fs-reason.js';
import type { Shard } from '../../common/sweep/shard.js';
import { caseLine, headerLine, parseShardLines } from '../../common/sweep/shard-lines.js';
import { caseKey, type SweepCase, type SweepHeader } from '../../common/sweep/sweep-case.js';
import { readCheckedSync } from '../../engine/fs/read-checked.js';
import { MAX_SHARD } from './read-shards.js';

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

/**
 * Opens (creating `dir` and the file as needed) this shard's file for appending one line per case.
 * A file left by an earlier run of the same sweep is resumed: its cases are skipped, a torn last line is
 * cut off (and redone); a file written by a different sweep is refused, naming the field that differs.
 * Each case is one write of a whole line to a file opened for appending, so an interrupt between cases
 * leaves only complete lines.
 */
export function openShardFile(dir: string, header: SweepHeader): ShardFile {
  const path = join(dir, shardFileName(header.shard));
  const fail = (error: unknown): never => {
    if (error instanceof InputError) throw error;
    throw new InputError(`${path}: cannot write (${fsReason(error)})`, path);
  };
  const done = new Set<string>();
  let cutTornLine = false;
  let fd: number;
  try {
    mkdirSync(dir, { recursive: true });
    const text = existsSync(path) ? new TextDecoder().decode(readCheckedSync(path, { limit: MAX_SHARD, what: 'shard file to resume' })) : '';
    if (!text.includes('\n')) {
      // New, or stopped before its header line was whole: start it again.
      writeFileSync(path, headerLine(header));
    } else {
      const found = parseShardLines(text, path);
      const field = differingField(found.header, header);
      if (field !== undefined) {
        throw new InputError(
          `${path} was written by a different sweep (${field}: ${brief(found.header[field])} there, ${brief(header[field])} now); give another --out folder or remove the file`,
          path,
        );
      }
      const planned = new Set(header.planned);
      for (const c of found.cases) {
        const key = caseKey(c);
        if (!planned.has(key)) throw new InputError(`${path}: holds case ${key}, which this shard does not plan; the file was edited or mixed up`, path);
        done.add(key);
      }
      if (found.torn) {
        truncateSync(path, found.completeBytes);
        cutTornLine = true;
      }
    }
    fd = openSync(path, 'a');
  } catch (error) {
    return fail(error);
  }
  return {
    path,
    done,
    cutTornLine,
    append(c) {
      const bytes = Buffer.from(caseLine(c));
      try {
        let written = 0;
        while (written < bytes.length) written += writeSync(fd, bytes, written);
      } catch (error) {
        fail(error);
      }
      done.add(caseKey(c));
    },
    close() {
      closeSync(fd);
    },
  };
}
