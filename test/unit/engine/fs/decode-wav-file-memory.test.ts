import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeWav } from '../../../../electron/common/wav/encode-wav.js';
import { decodeWavFile } from '../../../../electron/engine/fs/decode-wav-file.js';

// Counted, not timed: the ArrayBuffer bytes decodeWavFile allocates. A 16-bit file of n samples decodes
// to 4n bytes of float32; beyond that it may hold one block (1 MiB) and a few header bytes, whatever the
// file's length. Reading the file whole first, as before, added its 2n bytes, which grows with the file.
const EXTRA_BOUND = 1.25 * 2 ** 20;
// The file's own encoding is garbage by the time it is read: collected first, and its memory given back
// (V8 frees ArrayBuffer memory off the main thread after a collection), so it is not counted off.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const dir = mkdtempSync(join(tmpdir(), 'wav-file-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('decodeWavFile memory', () => {
  it.each([2_000_000, 8_000_000])('a 16-bit file of %i samples: its float32 samples and at most one block more', async (samples) => {
    const path = join(dir, `take-${samples}.wav`);
    writeFileSync(path, encodeWav([Float32Array.from({ length: samples }, (_, i) => Math.sin(i / 50) * 0.5)], 24_000, 'pcm16'));
    gc();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const before = process.memoryUsage().arrayBuffers;
    const decoded = decodeWavFile(path);
    const grown = process.memoryUsage().arrayBuffers - before;
    expect(decoded.channels[0]).toHaveLength(samples);
    expect(grown).toBeGreaterThanOrEqual(4 * samples);
    expect(grown - 4 * samples).toBeLessThan(EXTRA_BOUND);
  });
});
