import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../common/errors.js';
import { fsReason } from '../../common/fs-reason.js';
import type { NamedShard } from '../../common/sweep/merge-shards.js';
import { ShardLinesReader, type ShardLines } from '../../common/sweep/shard-lines.js';
import { kindOf, readCheckedPiecesSync, type SizeLimit } from '../../engine/fs/read-checked.js';

const SHARD_FILE = /^shard-\d+-of-\d+\.jsonl$/;
/** A shard is read a piece at a time, but its cases are held for the merge. */
export const MAX_SHARD: SizeLimit = { bytes: 2 ** 31 - 1, words: 'the 2 GiB one shard file may have (its cases are held for the merge); split the sweep into more shards' };

/**
 * A shard file's lines (ShardLinesReader), read a piece at a time with no more than one line held; undefined
 * when no line is whole yet (not even the header).
 */
export function readShardLines(file: string, what: string): ShardLines | undefined {
  const reader = new ShardLinesReader(file);
  const decoder = new TextDecoder('utf-8');
  for (const piece of readCheckedPiecesSync(file, { limit: MAX_SHARD, what })) reader.push(decoder.decode(piece, { stream: true }));
  reader.push(decoder.decode());
  return reader.completeLines === 0 ? undefined : reader.end();
}

/**
 * Reads every shard file (`shard-*-of-*.jsonl`) in the given folders, sorted by path. A torn last line is
 * left out (the shard is incomplete, and the merge counts its case as missing), as is a file holding no
 * complete header yet.
 */
export function readShardFolders(dirs: string[]): { shards: NamedShard[]; notes: string[] } {
  const shards: NamedShard[] = [];
  const notes: string[] = [];
  for (const dir of dirs) {
    let names: string[];
    try {
      const found = statSync(dir);
      if (!found.isDirectory()) throw new InputError(`${dir}: is ${kindOf(found)}, not a folder; give the --out folder of parity sweep`, dir);
      names = readdirSync(dir).filter((n) => SHARD_FILE.test(n)).sort();
    } catch (error) {
      if (error instanceof InputError) throw error;
      throw new InputError(`${dir}: cannot read (${fsReason(error)})`, dir);
    }
    if (names.length === 0) throw new InputError(`${dir}: no shard files (shard-NNN-of-N.jsonl, written by parity sweep --out)`, dir);
    for (const name of names) {
      const file = join(dir, name);
      const shard = readShardLines(file, 'shard file');
      if (!shard) {
        notes.push(`${file}: no complete header line yet; skipped`);
        continue;
      }
      if (shard.torn) notes.push(`${file}: its last line is cut short (the run was interrupted); that case counts as missing`);
      shards.push({ ...shard, file });
    }
  }
  return { shards, notes };
}
