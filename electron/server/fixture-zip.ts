import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { basename, join } from 'node:path';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { fsReason } from '../common/fs-reason.js';
import type { ExportedFolder } from './fixture-downloads.js';

/** `<folder>.zip` for Content-Disposition: an ASCII fallback name and the exact name (RFC 6266 / 5987). */
export function zipDisposition(dir: string): string {
  const name = `${basename(dir) || 'fixture'}.zip`;
  const ascii = name.replace(/[^A-Za-z0-9._-]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * Why the folder cannot be zipped now (a file the export wrote is gone or unreadable), or undefined.
 * Checked before any byte is sent, so the browser gets a status and a sentence, not a broken zip.
 */
export async function missingFile(folder: ExportedFolder): Promise<string | undefined> {
  for (const name of folder.files) {
    try {
      if (!(await stat(join(folder.dir, name))).isFile()) return `${join(folder.dir, name)} is not a file any more`;
    } catch (error) {
      return `${join(folder.dir, name)}: ${fsReason(error)}`;
    }
  }
  return undefined;
}

/**
 * Streams the export's files as one zip, file by file and chunk by chunk, waiting for the socket to
 * drain, so a fixture of two 10-minute WAVs never sits whole in memory. WAVs are stored (float samples
 * barely deflate and would cost seconds of CPU); text files are deflated. Each entry keeps its file's
 * mtime, so the same folder gives the same bytes. A read failing midway destroys the response: the
 * browser then reports a failed download instead of keeping a truncated zip.
 */
export async function streamFixtureZip(res: ServerResponse, folder: ExportedFolder): Promise<void> {
  let failed: Error | undefined;
  const zip = new Zip((error, chunk, final) => {
    if (error) failed = error;
    else if (chunk.length > 0) res.write(chunk);
    if (final && !error) res.end();
  });
  try {
    for (const name of folder.files) {
      const path = join(folder.dir, name);
      const entry = name.endsWith('.wav') ? new ZipPassThrough(name) : new ZipDeflate(name, { level: 6 });
      entry.mtime = (await stat(path)).mtime;
      zip.add(entry);
      for await (const chunk of createReadStream(path)) {
        entry.push(chunk as Buffer);
        if (failed) throw failed;
        if (res.writableNeedDrain) await drainedOrClosed(res);
        if (res.destroyed) return;
      }
      entry.push(new Uint8Array(0), true);
    }
    zip.end();
    if (failed) throw failed;
  } catch (error) {
    zip.terminate();
    res.destroy(new Error(`zip of ${folder.dir} failed: ${fsReason(error)}`));
  }
}

async function drainedOrClosed(res: ServerResponse): Promise<void> {
  const stop = new AbortController();
  try {
    await Promise.race([once(res, 'drain', { signal: stop.signal }), once(res, 'close', { signal: stop.signal })]);
  } finally {
    stop.abort();
  }
}
