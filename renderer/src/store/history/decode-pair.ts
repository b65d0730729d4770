import type { Audio } from '../../../../electron/common/api/primitives.js';
import { decodeWav } from '../../../../electron/common/wav/decode-wav.js';
import { downmixToMono } from '../../../../electron/common/wav/downmix.js';
import type { PickedFile } from './classify-import.js';

/**
 * Two picked WAVs as the host will show them (the same decoder and mono downmix as compare-wav), for the
 * lanes to draw while the host measures; undefined when the page cannot show them as a pair (a file it
 * cannot decode, or two sample rates): the host's answer then says what is wrong.
 */
export function decodePair(a: PickedFile, b: PickedFile): { a: Audio; b: Audio } | undefined {
  try {
    const da = decodeWav(a.bytes, a.name);
    const db = decodeWav(b.bytes, b.name);
    if (da.sampleRate !== db.sampleRate) return undefined;
    return { a: { sampleRate: da.sampleRate, samples: downmixToMono(da).signal }, b: { sampleRate: db.sampleRate, samples: downmixToMono(db).signal } };
  } catch {
    return undefined;
  }
}
