import { decodeWav, type DecodedWav } from '../../common/wav/decode-wav.js';
import { decodeWavFile } from '../../engine/fs/decode-wav-file.js';
import type { WavSource } from '../kept-import.js';

/**
 * A WAV of an import decoded in the engine worker: bytes as given, or a file on disk read here a block at a
 * time (so neither the host nor the worker ever holds the file, only its samples).
 */
export async function decodeSource(source: WavSource): Promise<DecodedWav> {
  if ('bytes' in source) return decodeWav(source.bytes, source.name);
  return decodeWavFile(source.path, { label: source.name });
}
