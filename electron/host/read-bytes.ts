import { readFile } from 'node:fs/promises';

/**
 * A file's bytes as a plain Uint8Array viewing the Buffer readFile returned. Not `new Uint8Array(buffer)`:
 * that copies, and for a long WAV the copy doubles what the read costs.
 */
export async function readBytes(path: string): Promise<Uint8Array> {
  const buffer = await readFile(path);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}
