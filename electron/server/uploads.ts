import { randomBytes } from 'node:crypto';
import { createWriteStream, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { UploadRef } from '../common/api/primitives.js';
import { InputError } from '../common/errors.js';

/** Largest file one upload may carry unless the server is started with another cap (docs/studio.md). */
export const MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;
/**
 * Most bytes one import may name in all (docs/studio.md): a pair of WAVs at the per-file cap; a trace
 * import's six files (traces and sidecars being far smaller than WAVs) fit too.
 */
export const MAX_IMPORT_BYTES = 2 * MAX_UPLOAD_BYTES;
/** An upload no import has named this long is deleted (a page closed between its upload and its import). */
export const UPLOAD_TTL_MS = 10 * 60_000;

/** A size in words: bytes under 1 MB (so a cap and a size just over it never read alike), else MB. */
const size = (n: number) => (n < 1024 * 1024 ? `${n} bytes` : `${(n / 1024 / 1024).toFixed(1)} MB`);

export interface Upload {
  /** The file name the page gave (for the history's title and messages; never a path here). */
  name: string;
  path: string;
  bytes: number;
}

/** Why an upload was refused: the HTTP status and one line for the page. */
export class UploadRefused extends Error {
  constructor(
    readonly status: 400 | 413,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Files the page sent by POST /upload, streamed to a private temporary folder as they arrive (memory
 * stays at the stream's buffers, whatever the size), each named by a random id the page then passes to
 * an import (`{upload: id}`). An upload is used once: `take` hands its file to an import and forgets
 * it; one never taken goes after `ttlMs` (UPLOAD_TTL_MS), and the folder when the server closes.
 */
export class Uploads {
  private readonly files = new Map<string, Upload>();
  private dir?: Promise<string>;
  /** Removes the folder synchronously when the process exits in any way that runs 'exit' handlers. */
  private removeOnExit?: () => void;

  constructor(
    readonly maxBytes: number = MAX_UPLOAD_BYTES,
    /** Where the private folder is made. */
    private readonly parent: string = tmpdir(),
    private readonly ttlMs: number = UPLOAD_TTL_MS,
    readonly maxImportBytes: number = MAX_IMPORT_BYTES,
  ) {}

  /** Streams the request body to a file; refuses a body (announced or actual) over the cap. */
  async receive(req: IncomingMessage, name: string): Promise<UploadRef & { name: string; bytes: number }> {
    if (!/^[^/\\\0]{1,500}$/.test(name)) throw new UploadRefused(400, `upload: the file name "${name.slice(0, 80)}" is empty, too long or holds a path separator (give ?name=<file name>)`);
    const announced = Number(req.headers['content-length']);
    const cap = `browser mode takes uploads up to ${size(this.maxBytes)} each (compare larger files with parity compare-wav on the server)`;
    if (Number.isFinite(announced) && announced > this.maxBytes) throw new UploadRefused(413, `${name} is ${size(announced)}; ${cap}`);
    const id = `up-${randomBytes(18).toString('base64url')}`;
    const path = join(await this.folder(), id);
    let bytes = 0;
    const limit = new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        bytes += chunk.length;
        done(bytes > this.maxBytes ? new UploadRefused(413, `${name} is over ${size(this.maxBytes)}; ${cap}`) : null, chunk);
      },
    });
    try {
      await pipeline(req, limit, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
    } catch (error) {
      await rm(path, { force: true });
      if (error instanceof UploadRefused) throw error;
      throw new UploadRefused(400, `${name}: the upload broke off after ${bytes} bytes (${(error as Error).message})`);
    }
    this.files.set(id, { name, path, bytes });
    setTimeout(() => {
      const file = this.files.get(id);
      if (!file) return;
      this.files.delete(id);
      void this.discard(file);
    }, this.ttlMs).unref();
    return { upload: id, name, bytes };
  }

  /** The file of an upload, for one import; unknown ids (never sent, or used already) are refused. */
  take(ref: UploadRef, field: string): Upload {
    const file = this.files.get(ref.upload);
    if (!file) throw new InputError(`${field}: no upload ${ref.upload} on this server (each upload serves one import; send the file again)`, field);
    this.files.delete(ref.upload);
    return file;
  }

  async discard(file: Upload): Promise<void> {
    await rm(file.path, { force: true });
  }

  async close(): Promise<void> {
    const dir = await this.dir?.catch(() => undefined);
    if (this.removeOnExit) process.off('exit', this.removeOnExit);
    this.files.clear();
    if (dir) await rm(dir, { recursive: true, force: true });
  }

  private folder(): Promise<string> {
    // A crash, process.exit() or a signal the command turns into an exit must not leave the uploads behind.
    this.dir ??= mkdtemp(join(this.parent, 'parity-uploads-')).then((dir) => {
      this.removeOnExit = () => rmSync(dir, { recursive: true, force: true });
      process.once('exit', this.removeOnExit);
      return dir;
    });
    return this.dir;
  }
}
