import { describe, expect, it } from 'vitest';
import { decodeWav } from '../../../../electron/common/wav/decode-wav.js';
import { encodeWav } from '../../../../electron/common/wav/encode-wav.js';

// Counted, not timed: the ArrayBuffer bytes decodeWav allocates (nothing is collected mid-call that
// matters here). A 16-bit take decodes to float32, twice its data; copying the data first made it three times.
describe('decodeWav memory', () => {
  it('decodes a 16-bit WAV into its float32 samples without a copy of the data', () => {
    const samples = 2_000_000;
    const bytes = encodeWav([Float32Array.from({ length: samples }, (_, i) => Math.sin(i / 50) * 0.5)], 24_000, 'pcm16');
    const before = process.memoryUsage().arrayBuffers;
    const decoded = decodeWav(bytes, 'take.wav');
    const grown = process.memoryUsage().arrayBuffers - before;
    expect(decoded.channels[0]).toHaveLength(samples);
    expect(grown).toBeGreaterThanOrEqual(4 * samples);
    expect(grown).toBeLessThan(5 * samples);
  });
});
