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
/**
 * What one studio connection (a page's WebSocket, its `session`) may hold in uploads no import has used
 * yet, received or still arriving: the files of two imports (a trace import names up to six) and their
 * bytes at the per-import cap. Past either, an upload is refused; all of them go when the connection closes.
 */
export const MAX_PENDING_UPLOADS = 12;
export const MAX_PENDING_BYTES = 2 * MAX_IMPORT_BYTES;

/** A session id as the page makes it (random, URL-safe). */
export const SESSION_ID = /^[A-Za-z0-9_-]{16,64}$/;

/** A size in words: bytes under 1 MB (so a cap and a size just over it never read alike), else MB. */
const size = (n: number) => (n < 1024 * 1024 ? `${n} bytes` : `${(n / 1024 / 1024).toFixed(1)} MB`);

export interface Upload {
  /** The file name the page gave (for the history's title and messages; never a path here). */
  name: string;
  path: string;
  bytes: number;
}

/** What a connection holds in uploads no import has used (counted from the first byte), and whether it is still open. */
interface Session {
  count: number;
  bytes: number;
  open: boolean;
  ids: Set<string>;
}

/** Limits of one Uploads: per file, per import, and per connection. */
export interface UploadLimits {
  maxBytes: number;
  maxImportBytes: number;
  maxPendingUploads: number;
  maxPendingBytes: number;
  ttlMs: number;
}

export const DEFAULT_UPLOAD_LIMITS: UploadLimits = {
  maxBytes: MAX_UPLOAD_BYTES,
  maxImportBytes: MAX_IMPORT_BYTES,
  maxPendingUploads: MAX_PENDING_UPLOADS,
  maxPendingBytes: MAX_PENDING_BYTES,
  ttlMs: UPLOAD_TTL_MS,
};

/** Why an upload was refused: the HTTP status and one line for the page. */
export class UploadRefused extends Error {
  constructor(
    readonly status: 400 | 413 | 429,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Files the page sent by POST /upload, streamed to a private temporary folder as they arrive (memory
 * stays at the stream's buffers, whatever the size), each named by a random id the page then passes to
 * an import (`{upload: id}`). An upload is used once: `take` hands its file to an import and forgets
 * it, and only an import of the connection that sent it may take it. Every upload belongs to one open studio connection (`session`, the page's WebSocket): a connection
 * holds at most `maxPendingUploads` unused uploads and `maxPendingBytes` of them (refused past either),
 * and they are deleted when it closes; one never taken goes after `ttlMs` (UPLOAD_TTL_MS) in any case,
 * and the folder when the server closes.
 */
export class Uploads {
  private readonly files = new Map<string, Upload & { session: string }>();
  private readonly sessions = new Map<string, Session>();
  private dir?: Promise<string>;
  /** Removes the folder synchronously when the process exits in any way that runs 'exit' handlers. */
  private removeOnExit?: () => void;
  readonly limits: UploadLimits;

  constructor(
    limits: Partial<UploadLimits> = {},
    /** Where the private folder is made. */
    private readonly parent: string = tmpdir(),
  ) {
    this.limits = { ...DEFAULT_UPLOAD_LIMITS, ...limits };
  }

  /**
   * Whether a handshake may name this session: well formed and not held by an open connection. Nothing is
   * registered here; `openSession` does that once the WebSocket is open, so a handshake refused or failed
   * after this check leaves no session behind.
   */
  mayOpen(session: string): boolean {
    return SESSION_ID.test(session) && !this.sessions.has(session);
  }

  /**
   * A connection opened (its WebSocket, after a successful handshake): uploads may name it from now on,
   * until `endSession`. False when the id is taken or malformed.
   */
  openSession(session: string): boolean {
    if (!this.mayOpen(session)) return false;
    this.sessions.set(session, { count: 0, bytes: 0, open: true, ids: new Set() });
    return true;
  }

  /** The connection closed: its uploads no import has used are deleted (one still arriving, once it has). */
  async endSession(session: string): Promise<void> {
    const s = this.sessions.get(session);
    if (!s) return;
    s.open = false;
    this.sessions.delete(session);
    await Promise.all([...s.ids].map((id) => this.drop(id)));
  }

  /** Streams the request body to a file; refuses a body (announced or actual) over the cap, or past its connection's limits. */
  async receive(req: IncomingMessage, name: string, session: string): Promise<UploadRef & { name: string; bytes: number }> {
    if (!/^[^/\\\0]{1,500}$/.test(name)) throw new UploadRefused(400, `upload: the file name "${name.slice(0, 80)}" is empty, too long or holds a path separator (give ?name=<file name>)`);
    const s = this.sessions.get(session);
    if (!s) throw new UploadRefused(400, `${name}: ?session=${JSON.stringify(session.slice(0, 80))} names no open studio connection on this server (an upload belongs to the page that sends it; reload the page)`);
    const { maxBytes, maxPendingUploads, maxPendingBytes } = this.limits;
    const announced = Number(req.headers['content-length']);
    const cap = `browser mode takes uploads up to ${size(maxBytes)} each (compare larger files with parity compare-wav on the server)`;
    if (Number.isFinite(announced) && announced > maxBytes) throw new UploadRefused(413, `${name} is ${size(announced)}; ${cap}`);
    const held = `import the files already sent, or reload the page to drop them`;
    if (s.count >= maxPendingUploads) throw new UploadRefused(429, `${name}: this page holds ${s.count} uploads no import has used; browser mode keeps up to ${maxPendingUploads} per connection (${held})`);
    const tooMany = (bytes: number) => new UploadRefused(413, `${name}: this page's uploads no import has used would come to ${size(s.bytes + bytes)}; browser mode keeps up to ${size(maxPendingBytes)} per connection (${held})`);
    if (Number.isFinite(announced) && s.bytes + announced > maxPendingBytes) throw tooMany(announced);
    const id = `up-${randomBytes(18).toString('base64url')}`;
    const path = join(await this.folder(), id);
    let bytes = 0;
    s.count++;
    const limit = new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        bytes += chunk.length;
        s.bytes += chunk.length;
        done(bytes > maxBytes ? new UploadRefused(413, `${name} is over ${size(maxBytes)}; ${cap}`) : s.bytes > maxPendingBytes ? tooMany(0) : null, chunk);
      },
    });
    try {
      await pipeline(req, limit, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
      if (!s.open) throw new UploadRefused(400, `${name}: its studio connection closed while it arrived`);
    } catch (error) {
      s.count--;
      s.bytes -= bytes;
      await rm(path, { force: true });
      if (error instanceof UploadRefused) throw error;
      throw new UploadRefused(400, `${name}: the upload broke off after ${bytes} bytes (${(error as Error).message})`);
    }
    this.files.set(id, { name, path, bytes, session });
    s.ids.add(id);
    setTimeout(() => void this.drop(id), this.limits.ttlMs).unref();
    return { upload: id, name, bytes };
  }

  /**
   * The file of an upload, for one import of the connection `session`; unknown ids (never sent, used
   * already) and uploads another connection sent are refused alike (the other's upload stays its own).
   */
  take(ref: UploadRef, field: string, session: string | undefined): Upload {
    const file = this.files.get(ref.upload);
    if (!file || file.session !== session) {
      throw new InputError(`${field}: no upload ${ref.upload} from this page's connection on this server (each upload serves one import of the page that sent it; send the file again)`, field);
    }
    this.forget(ref.upload);
    return { name: file.name, path: file.path, bytes: file.bytes };
  }

  async discard(file: Upload): Promise<void> {
    await rm(file.path, { force: true });
  }

  /** An upload no import took: forgotten and its file deleted. */
  private async drop(id: string): Promise<void> {
    const file = this.files.get(id);
    if (!file) return;
    this.forget(id);
    await this.discard(file);
  }

  /** No longer an unused upload: off the map and off its connection's counts. */
  private forget(id: string): void {
    const file = this.files.get(id)!;
    this.files.delete(id);
    const s = this.sessions.get(file.session);
    if (!s || !s.ids.delete(id)) return;
    s.count--;
    s.bytes -= file.bytes;
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
