import { closeSync, existsSync, readSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { InputError } from '../../common/errors.js';
import { openCheckedSync, type ReadRules, type SizeLimit } from '../fs/read-checked.js';
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

/** Module sidecars are read by offsets, never whole: this bounds the offsets, not memory. */
export const MAX_SIDECAR: SizeLimit = { bytes: 64 * 1024 ** 3, words: 'the 64 GiB a module sidecar may have (record fewer steps or modules)' };

/**
 * Opens a module sidecar for comparison through the one reading path (engine/fs/read-checked.ts: a
 * regular file, MAX_SIDECAR at most, links kept inside `inside` where given, no byte quoted), with
 * bounded reads: the 8-byte header length is checked against the file size before the header is read,
 * and tensors are read one at a time by their offsets when compared (a sidecar of many steps is never
 * read whole). `close()` releases the file.
 */
export function openSidecarFile(path: string, label = path, inside?: ReadRules['inside']): ModuleSidecar & { close(): void } {
  // A missing file has its own hint: the recorder writes the sidecar only when closed.
  if (!existsSync(path)) {
    throw new InputError(
      `${label}: cannot open the module sidecar (no such file or folder); the trace header names it: was the ModuleRecorder closed (it writes the file on close)? Compare without it with --no-modules`,
      label,
    );
  }
  const { fd, size } = openCheckedSync(path, { limit: MAX_SIDECAR, what: 'the module sidecar', label, inside });
  try {
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
