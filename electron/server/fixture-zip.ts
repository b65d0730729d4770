import { once } from 'node:events';
import type { FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Writable } from 'node:stream';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { fsReason } from '../common/fs-reason.js';

/** One file of an export, already open: what is served is this file, whatever its folder holds later. */
export interface OpenedFile {
  name: string;
  handle: FileHandle;
}

/** The exported folder's own name: the zip's file name and the one folder inside it. */
export function folderName(dir: string): string {
  return basename(dir) || 'fixture';
}

/** `<folder>.zip` for Content-Disposition: an ASCII fallback name and the exact name (RFC 6266 / 5987). */
export function zipDisposition(dir: string): string {
  const name = `${folderName(dir)}.zip`;
  const ascii = name.replace(/[^A-Za-z0-9._-]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * Every entry's date. A zip stores a date as local DOS fields, which fflate takes from the Date's local
 * getters, so a file's mtime would give other bytes under another TZ (and at every re-export). This
 * Date is built from local fields, so the fields written are 1980-01-01 00:00:00 (the first DOS date)
 * under any TZ: the same files always give the same zip. The fixture's own time is in report.json.
 */
function entryDate(): Date {
  return new Date(1980, 0, 1, 0, 0, 0);
}

const CHUNK_BYTES = 1 << 16;

/**
 * Streams the opened files as one zip whose entries are `<root>/<name>` (unzipping gives the folder, so
 * `parity gate <root>` works next to it), file by file and chunk by chunk, waiting for the socket to
 * drain, so a fixture of two 10-minute WAVs never sits whole in memory. WAVs are stored (float samples
 * barely deflate and would cost seconds of CPU); text files are deflated. A read failing midway destroys
 * the output: the browser then reports a failed download instead of keeping a truncated zip. The caller
 * opens the files before the response starts and closes them afterwards.
 */
export async function streamFixtureZip(out: Writable, root: string, files: readonly OpenedFile[]): Promise<void> {
  let failed: Error | undefined;
  const zip = new Zip((error, chunk, final) => {
    if (error) failed = error;
    else if (chunk.length > 0) out.write(chunk);
    if (final && !error) out.end();
  });
  try {
    for (const { name, handle } of files) {
      const entryName = `${root}/${name}`;
      const entry = name.endsWith('.wav') ? new ZipPassThrough(entryName) : new ZipDeflate(entryName, { level: 6 });
      entry.mtime = entryDate();
      zip.add(entry);
      for (let position = 0; ; ) {
        // A fresh buffer each read: the zip hands the chunk on to the socket, which may still hold it.
        const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
        const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, position);
        if (bytesRead === 0) break;
        position += bytesRead;
        entry.push(buffer.subarray(0, bytesRead));
        if (failed) throw failed;
        if (out.writableNeedDrain) await drainedOrClosed(out);
        if (out.destroyed) return;
      }
      entry.push(new Uint8Array(0), true);
    }
    zip.end();
    if (failed) throw failed;
  } catch (error) {
    zip.terminate();
    out.destroy(new Error(`zip of ${root} failed: ${fsReason(error)}`));
  }
}

async function drainedOrClosed(out: Writable): Promise<void> {
  const stop = new AbortController();
  try {
    await Promise.race([once(out, 'drain', { signal: stop.signal }), once(out, 'close', { signal: stop.signal })]);
  } finally {
    stop.abort();
  }
}
