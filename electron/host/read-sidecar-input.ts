import type { FileBytes, ImportFile } from '../common/api/index.js';
import { InputError } from '../common/errors.js';
import type { SizeLimit } from '../engine/fs/read-checked.js';
import { MAX_KEPT_SIDECAR_BYTES } from './history-store.js';
import { readBytes } from './read-bytes.js';
import { unresolvedUpload } from './unresolved-upload.js';

const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MB`;

/** Why a sidecar is kept whole, and where a larger one goes instead. */
export const KEPT_SIDECAR: SizeLimit = {
  bytes: MAX_KEPT_SIDECAR_BYTES,
  words: `the ${mb(MAX_KEPT_SIDECAR_BYTES)} the studio keeps of a module sidecar: record fewer steps or modules, or compare with parity compare-trace --out`,
};

/**
 * A module sidecar given to a studio trace import (a path on the host, or bytes from the page), read
 * whole because the history keeps it with the entry, through the one reading path (regular files
 * only, KEPT_SIDECAR at most; parity compare-trace reads larger ones by offsets).
 */
export async function readSidecarInput(input: ImportFile): Promise<FileBytes> {
  if ('upload' in input) unresolvedUpload(input);
  if ('bytes' in input) {
    if (input.bytes.byteLength > KEPT_SIDECAR.bytes) throw new InputError(`${input.name}: the module sidecar: ${input.bytes.byteLength} bytes, larger than ${KEPT_SIDECAR.words}`, input.name);
    return input;
  }
  const name = input.name ?? input.path;
  return { name, bytes: await readBytes(input.path, { limit: KEPT_SIDECAR, what: 'the module sidecar', label: name }) };
}
