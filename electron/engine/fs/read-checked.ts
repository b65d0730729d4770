import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, type Stats } from 'node:fs';
import { open, realpath, type FileHandle } from 'node:fs/promises';
import { sep } from 'node:path';
import { InputError, ParityError } from '../../common/errors.js';
import { fsReason } from '../../common/fs-reason.js';

/**
 * The one way the tool reads a file it was given or that a format names (bundle.json, model files,
 * tokenizer.json, embed tables, WAVs, traces, sidecars, shard lines, fixture files, configs):
 *
 * - links are followed, and where the format says its files live in a folder (a bundle's), the file
 *   they lead to must be inside that folder, as `../` is refused;
 * - the file is opened without blocking (a FIFO would wait forever for a writer) and checked on the
 *   open descriptor: anything but a regular file (a folder, a FIFO, a socket, a device such as the
 *   /dev/zero a link can lead to) is refused, so is a file past the caller's limit, whose words the
 *   message gives;
 * - at most the size the check saw is read (a file that grows while read is refused), so no read is
 *   unbounded;
 * - a refusal names the path and why, and never quotes the file's bytes.
 */
export interface SizeLimit {
  bytes: number;
  /** Ends "<n> bytes, larger than …", e.g. "the 16 MiB a bundle.json may have". */
  words: string;
}

/** Node cannot hold a larger file in one buffer. */
export const ANY_FILE: SizeLimit = { bytes: 2 ** 31 - 1, words: 'the 2 GiB that can be read' };

export interface ReadRules {
  limit?: SizeLimit;
  /** The folder the file must stay in once links are followed, and its name in words ("the bundle folder"). */
  inside?: { dir: string; words: string };
  /** What the file is, for messages: "tokenizer.json named by bundle.json text.file". */
  what?: string;
  /** Ends the not-a-regular-file line: what the caller expected there. */
  context?: string;
  /** The name messages give the file when its path is not for the user's eyes (an upload's own name). */
  label?: string;
  /** The typed error a refusal throws (InputError unless the file belongs to a bundle). */
  error?: (message: string, where: string) => ParityError;
}

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** What a path is, in words ("a folder", "a character device", …; "a file" for a regular file). */
export function kindOf(info: Stats): string {
  if (info.isFile()) return 'a file';
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

class Refusal {
  constructor(
    readonly path: string,
    readonly rules: ReadRules,
  ) {}

  error(problem: string): ParityError {
    const name = this.rules.label ?? this.path;
    const message = `${name}: ${this.rules.what ? `${this.rules.what}: ` : ''}${problem}`;
    return (this.rules.error ?? ((m, w) => new InputError(m, w)))(message, name);
  }

  cannotRead(error: unknown): ParityError {
    return error instanceof ParityError ? error : this.error(`cannot read (${fsReason(error)})`);
  }

  /** The path to open: `real` (the path with its links followed) when it lies inside the rules' folder `dir` (also real). */
  within(real: string, dir: string): string {
    if (!real.startsWith(dir + sep)) throw this.error(`a link to ${real}, outside ${this.rules.inside?.words ?? 'its folder'} (${dir})`);
    return real;
  }

  /** The checks made on the open descriptor; returns the bytes to read. */
  check(info: Stats): number {
    if (!info.isFile()) throw this.error(`not a regular file (${kindOf(info)})${this.rules.context ?? ''}`);
    const limit = this.rules.limit ?? ANY_FILE;
    if (info.size > limit.bytes) throw this.error(`${info.size} bytes, larger than ${limit.words}`);
    return info.size;
  }

  grew(size: number): ParityError {
    return this.error(`grew past the ${size} bytes it had when opened while being read`);
  }
}

/** A file's bytes, after the checks above. */
export async function readChecked(path: string, rules: ReadRules = {}): Promise<Uint8Array> {
  const refusal = new Refusal(path, rules);
  let handle: FileHandle | undefined;
  try {
    handle = await openCheckedHandle(path, refusal);
    const size = refusal.check(await handle.stat());
    // One byte more than the size seen: a file still growing is refused, not read without end.
    const bytes = new Uint8Array(size + 1);
    let done = 0;
    for (;;) {
      const { bytesRead } = await handle.read(bytes, done, bytes.length - done, done);
      if (bytesRead === 0) break;
      done += bytesRead;
      if (done > size) throw refusal.grew(size);
    }
    return bytes.subarray(0, done);
  } catch (error) {
    throw refusal.cannotRead(error);
  } finally {
    await handle?.close();
  }
}

/**
 * A file's bytes after the checks above, a piece of at most `pieceBytes` at a time, for readers that
 * hash or parse a file too large to hold. Each piece is a view of one buffer, valid until the next.
 */
export async function* readCheckedPieces(path: string, rules: ReadRules = {}, pieceBytes = 1 << 20): AsyncGenerator<Uint8Array> {
  const refusal = new Refusal(path, rules);
  let handle: FileHandle | undefined;
  try {
    handle = await openCheckedHandle(path, refusal);
    const size = refusal.check(await handle.stat());
    // One byte more than the size seen, as readChecked reads: a file still growing is refused.
    const buffer = new Uint8Array(Math.min(pieceBytes, size + 1));
    for (let done = 0; ; ) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size + 1 - done), done);
      if (bytesRead === 0) break;
      done += bytesRead;
      if (done > size) throw refusal.grew(size);
      yield buffer.subarray(0, bytesRead);
    }
  } catch (error) {
    throw refusal.cannotRead(error);
  } finally {
    await handle?.close();
  }
}

/** readChecked for the few synchronous readers (fixture folders, shard files). */
export function readCheckedSync(path: string, rules: ReadRules = {}): Uint8Array {
  const { fd, size, refusal } = openFd(path, rules);
  try {
    const bytes = new Uint8Array(size + 1);
    let done = 0;
    for (;;) {
      const n = readSync(fd, bytes, done, bytes.length - done, done);
      if (n === 0) break;
      done += n;
      if (done > size) throw refusal.grew(size);
    }
    return bytes.subarray(0, done);
  } catch (error) {
    throw refusal.cannotRead(error);
  } finally {
    closeSync(fd);
  }
}

/** readCheckedPieces for the few synchronous readers (shard files): the same checks, a piece at a time. */
export function* readCheckedPiecesSync(path: string, rules: ReadRules = {}, pieceBytes = 1 << 20): Generator<Uint8Array> {
  const { fd, size, refusal } = openFd(path, rules);
  try {
    const buffer = new Uint8Array(Math.min(pieceBytes, size + 1));
    for (let done = 0; ; ) {
      const n = readSync(fd, buffer, 0, Math.min(buffer.length, size + 1 - done), done);
      if (n === 0) break;
      done += n;
      if (done > size) throw refusal.grew(size);
      yield buffer.subarray(0, n);
    }
  } catch (error) {
    throw refusal.cannotRead(error);
  } finally {
    closeSync(fd);
  }
}

/**
 * openChecked for synchronous readers that read parts of a large file by offset (module sidecars): an
 * open descriptor on a checked regular file and its size; the caller closes it.
 */
export function openCheckedSync(path: string, rules: ReadRules = {}): { fd: number; size: number } {
  const { fd, size } = openFd(path, rules);
  return { fd, size };
}

function openFd(path: string, rules: ReadRules): { fd: number; size: number; refusal: Refusal } {
  const refusal = new Refusal(path, rules);
  let fd: number | undefined;
  try {
    const inside = rules.inside;
    fd = openSync(inside ? refusal.within(realpathSync(path), realpathSync(inside.dir)) : path, OPEN_FLAGS);
    return { fd, size: refusal.check(fstatSync(fd)), refusal };
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    throw refusal.cannotRead(error);
  }
}

/** A file's text (UTF-8), read as readChecked reads it. */
export async function readTextChecked(path: string, rules: ReadRules = {}): Promise<string> {
  return new TextDecoder('utf-8').decode(await readChecked(path, rules));
}

/**
 * An open handle on a checked regular file and its size, for readers that read parts of a large file
 * by offset (embedding tables); the caller closes it.
 */
export async function openChecked(path: string, rules: ReadRules = {}): Promise<{ handle: FileHandle; size: number }> {
  const refusal = new Refusal(path, rules);
  let handle: FileHandle | undefined;
  try {
    handle = await openCheckedHandle(path, refusal);
    return { handle, size: refusal.check(await handle.stat()) };
  } catch (error) {
    await handle?.close();
    throw refusal.cannotRead(error);
  }
}

async function openCheckedHandle(path: string, refusal: Refusal): Promise<FileHandle> {
  const inside = refusal.rules.inside;
  return open(inside ? refusal.within(await realpath(path), await realpath(inside.dir)) : path, OPEN_FLAGS);
}
