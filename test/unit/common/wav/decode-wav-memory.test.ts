import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { decodeWav } from '../../../../electron/common/wav/decode-wav.js';
import { encodeWav } from '../../../../electron/common/wav/encode-wav.js';

// Counted, not timed: the ArrayBuffer bytes decodeWav allocates. A 16-bit take decodes to float32, twice
// its data, through one 1 MiB block; copying the data first made it three times. Garbage from before is
// collected and its memory given back first (V8 frees it off the main thread), so none is counted off.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('decodeWav memory', () => {
  it('decodes a 16-bit WAV into its float32 samples without a copy of the data', async () => {
    const samples = 2_000_000;
    const bytes = encodeWav([Float32Array.from({ length: samples }, (_, i) => Math.sin(i / 50) * 0.5)], 24_000, 'pcm16');
    gc();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const before = process.memoryUsage().arrayBuffers;
    const decoded = decodeWav(bytes, 'take.wav');
    const grown = process.memoryUsage().arrayBuffers - before;
    expect(decoded.channels[0]).toHaveLength(samples);
    expect(grown).toBeGreaterThanOrEqual(4 * samples);
    expect(grown).toBeLessThan(5 * samples);
  });
});
