import { stat } from 'node:fs/promises';
import type { FileBytes, FileInput } from '../common/api/index.js';
import { InputError } from '../common/errors.js';
import { fsReason } from '../common/fs-reason.js';
import { MAX_KEPT_SIDECAR_BYTES } from './history-store.js';
import { readBytes } from './read-bytes.js';

const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MB`;

/**
 * A module sidecar given to a studio trace import (a path on the host, or bytes from the page), read
 * whole because the history keeps it with the entry; larger than MAX_KEPT_SIDECAR_BYTES is refused
 * before reading, pointing to `parity compare-trace`, which reads sidecars by offsets.
 */
export async function readSidecarInput(input: FileInput): Promise<FileBytes> {
  const name = 'bytes' in input ? input.name : input.path;
  let size: number;
  try {
    size = 'bytes' in input ? input.bytes.byteLength : (await stat(input.path)).size;
  } catch (error) {
    throw new InputError(`${name}: cannot read the module sidecar (${fsReason(error)})`, name);
  }
  if (size > MAX_KEPT_SIDECAR_BYTES) {
    throw new InputError(`${name} is ${mb(size)}; the studio keeps module sidecars up to ${mb(MAX_KEPT_SIDECAR_BYTES)} each: record fewer steps or modules, or compare with parity compare-trace --out`, name);
  }
  if ('bytes' in input) return input;
  try {
    return { name, bytes: await readBytes(input.path) };
  } catch (error) {
    throw new InputError(`${name}: cannot read the module sidecar (${fsReason(error)})`, name);
  }
}
