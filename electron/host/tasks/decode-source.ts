import { decodeWav, type DecodedWav } from '../../common/wav/decode-wav.js';
import type { WavSource } from '../kept-import.js';
import { readBytes } from '../read-bytes.js';

/**
 * A WAV of an import decoded in the engine worker: bytes as given, or a file on disk read here (so the host
 * never holds it), its bytes let go once decoded, before the caller reads the other side.
 */
export async function decodeSource(source: WavSource): Promise<DecodedWav> {
  if ('bytes' in source) return decodeWav(source.bytes, source.name);
  return decodeWav(await readBytes(source.path, { label: source.name }), source.name);
}
