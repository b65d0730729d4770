import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../common/errors.js';
import { fsReason } from '../../common/fs-reason.js';
import { kindOf } from '../../engine/fs/read-checked.js';

/** Two traces of the same name from the two folders, with their WAVs when both folders have one. */
export interface TracePair {
  index: number;
  id: string;
  traceA: string;
  traceB: string;
  wavA?: string;
  wavB?: string;
}

function traceNames(dir: string, flag: string): string[] {
  try {
    const info = statSync(dir);
    if (!info.isDirectory()) throw new InputError(`${flag} ${dir}: is ${kindOf(info)}, not a folder; give a folder of traces (*.jsonl)`, dir);
    return readdirSync(dir)
      .filter((n) => n.endsWith('.jsonl') && !n.startsWith('.'))
      .map((n) => n.slice(0, -'.jsonl'.length));
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`${flag} ${dir}: cannot read (${fsReason(error)})`, dir);
  }
}

/**
 * Pairs `NAME.jsonl` in folder A with `NAME.jsonl` in folder B (sorted by name, so every shard plans the
 * same cases); `NAME.wav` beside each is compared when both are there. Names in only one folder are
 * returned as `unpaired`; no pair at all is refused.
 */
export function pairTraceFolders(dirA: string, dirB: string): { pairs: TracePair[]; unpaired: string[] } {
  const a = new Set(traceNames(dirA, '--traces'));
  const b = new Set(traceNames(dirB, '--traces'));
  const names = [...a].filter((n) => b.has(n)).sort();
  const unpaired = [...[...a].filter((n) => !b.has(n)).map((n) => `${n} (only in ${dirA})`), ...[...b].filter((n) => !a.has(n)).map((n) => `${n} (only in ${dirB})`)].sort();
  if (names.length === 0) throw new InputError(`--traces ${dirA} ${dirB}: no trace name (NAME.jsonl) is in both folders`, dirA);
  const pairs = names.map((id, index): TracePair => {
    const pair: TracePair = { index, id, traceA: join(dirA, `${id}.jsonl`), traceB: join(dirB, `${id}.jsonl`) };
    const wavA = join(dirA, `${id}.wav`);
    const wavB = join(dirB, `${id}.wav`);
    if (existsSync(wavA) && existsSync(wavB)) Object.assign(pair, { wavA, wavB });
    return pair;
  });
  return { pairs, unpaired };
}
