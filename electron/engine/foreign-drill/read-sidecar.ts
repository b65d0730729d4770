import { closeSync, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { InputError } from '../../common/errors.js';
import { fsReason } from '../../common/fs-reason.js';
import { float32FromBytes, parseSidecarHeader, sidecarHeaderLength, type ModuleSidecar } from '../../common/trace/module-sidecar.js';

/** The sidecar a trace header names (`modules`), relative to the trace's folder. */
export function sidecarPathOf(tracePath: string, modules: string): string {
  return isAbsolute(modules) ? modules : join(dirname(tracePath), modules);
}

function readAt(fd: number, length: number, position: number, file: string): Uint8Array {
  const bytes = new Uint8Array(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, bytes, done, length - done, position + done);
    if (n === 0) throw new InputError(`${file}: ended after ${position + done} bytes while reading ${length} at offset ${position} (was it truncated while being read?)`, file);
    done += n;
  }
  return bytes;
}

/**
 * Opens a module sidecar for comparison with bounded reads: the 8-byte header length is checked
 * against the file size before the header is read, and tensors are read one at a time by their offsets
 * when compared (a sidecar of many steps is never read whole). `close()` releases the file.
 */
export function openSidecarFile(path: string, label = path): ModuleSidecar & { close(): void } {
  // Checked before opening: opening a FIFO for reading would block until something writes to it.
  let found: Stats | undefined;
  try {
    found = statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    throw new InputError(`${label}: cannot open the module sidecar (${fsReason(error)})`, label);
  }
  if (!found) {
    throw new InputError(
      `${label}: cannot open the module sidecar (no such file or folder); the trace header names it: was the ModuleRecorder closed (it writes the file on close)? Compare without it with --no-modules`,
      label,
    );
  }
  if (!found.isFile()) throw new InputError(`${label}: the module sidecar is not a regular file`, label);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new InputError(`${label}: cannot open the module sidecar (${fsReason(error)})`, label);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new InputError(`${label}: the module sidecar is not a regular file`, label);
    const size = stat.size;
    const length = sidecarHeaderLength(readAt(fd, Math.min(8, size), 0, label), size, label);
    const entries = parseSidecarHeader(readAt(fd, length, 8, label), size - 8 - length, label);
    const dataStart = 8 + length;
    return {
      file: label,
      entries,
      read: (e) => float32FromBytes(readAt(fd, e.end - e.begin, dataStart + e.begin, label)),
      close: () => closeSync(fd),
    };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}
