import { readChecked, type ReadRules } from '../engine/fs/read-checked.js';

/** A file's bytes, read as every file is (engine/fs/read-checked.ts: regular files only, bounded). */
export async function readBytes(path: string, rules: ReadRules = {}): Promise<Uint8Array> {
  return readChecked(path, rules);
}
