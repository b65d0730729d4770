import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fsReason } from '../common/fs-reason.js';
import type { OpenedFile } from './fixture-zip.js';

/** One folder this server's host exported, and the files the export wrote there (nothing else is served). */
export interface ExportedFolder {
  dir: string;
  files: string[];
  /** Which folder sat at `dir` when the export returned (`folderGeneration`). */
  generation: string;
}

/**
 * The folder now at `dir`, as device, inode and birth time. An export (writeFixtureFolder) writes a new
 * folder beside the old one and renames it into place, so a replaced folder has another generation even
 * when its files have the same names; adding a file inside it changes nothing here.
 */
export async function folderGeneration(dir: string): Promise<string> {
  const s = await stat(dir, { bigint: true });
  return `${s.dev}:${s.ino}:${s.birthtimeNs}`;
}

export type OpenedExport = { ok: true; files: OpenedFile[]; close(): Promise<void> } | { ok: false; reason: string };

/**
 * Opens every file of the export before a byte is sent, so the zip is made of one export: an open file
 * keeps its bytes when a forced re-export renames the folder away or removes it. Then checks that the
 * folder the files were opened through is still the one exported (an export never puts an old folder
 * back, so a replace while opening shows as another generation). Anything else is a reason, in words, and
 * nothing stays open.
 */
export async function openExport(folder: ExportedFolder): Promise<OpenedExport> {
  const files: OpenedFile[] = [];
  const close = async () => {
    await Promise.all(files.map((file) => file.handle.close().catch(() => undefined)));
  };
  try {
    for (const name of folder.files) {
      const path = join(folder.dir, name);
      const handle = await open(path, 'r').catch((error: unknown) => {
        throw new Error(`${path}: ${fsReason(error)}`);
      });
      files.push({ name, handle });
      if (!(await handle.stat()).isFile()) throw new Error(`${path} is not a file any more`);
    }
    const now = await folderGeneration(folder.dir).catch(() => undefined);
    if (now !== folder.generation) throw new Error(`${folder.dir} was replaced since this export (by another export or a parity command)`);
    return { ok: true, files, close };
  } catch (error) {
    await close();
    return { ok: false, reason: (error as Error).message };
  }
}
