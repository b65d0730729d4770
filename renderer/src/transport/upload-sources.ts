/**
 * The File each picked file's bytes were read from, so a streamed upload sends the File (read from disk
 * by the browser as it goes) rather than the bytes, and the API's requests keep carrying plain
 * `{name, bytes}`. Weak: bytes no longer referenced take their File with them.
 */
const sources = new WeakMap<Uint8Array, Blob>();

export function rememberSource(bytes: Uint8Array, file: Blob): Uint8Array {
  if (file.size === bytes.byteLength) sources.set(bytes, file);
  return bytes;
}

export function sourceOf(bytes: Uint8Array): Blob | undefined {
  return sources.get(bytes);
}
