import { describe, expect, it } from 'vitest';
import { Divergence } from '../../../../electron/common/forensics/divergence.js';
import { divergenceLines } from '../../../../electron/common/forensics/divergence-summary.js';
import { localise } from '../../../../electron/common/forensics/localise.js';
import { chunkAudio, vocoderChunkLines } from '../../../../electron/common/forensics/vocoder-chunks.js';
import { makeSteps } from './synthetic-trace.js';

// Higgs-Audio-v3's rates: 24 kHz, 25 frames/s, so 960 samples a frame. 20 frames, streamed in chunks of 3, 10, 7
// frames (the adapter's rule for initial 3, then 10: python/tests/vllm_omni/higgs/test_higgs_omni.py chunk_seams).
const SR = 24000;
const FR = 25;
const HOP = 960;
const FRAMES = 20;
const whole = [{ startSample: 0, samples: FRAMES * HOP }];
const streamed = [
  { startSample: 0, samples: 3 * HOP, leftContextFrames: 0 },
  { startSample: 3 * HOP, samples: 10 * HOP, leftContextFrames: 4 },
  { startSample: 13 * HOP, samples: 7 * HOP, leftContextFrames: 4 },
];

function audio(): Float32Array {
  const a = new Float32Array(FRAMES * HOP);
  for (let i = 0; i < a.length; i++) a[i] = 0.3 * Math.sin(i / 7);
  return a;
}

/** A copy of `a` with `delta` added over samples [from, to). */
function changed(a: Float32Array, from: number, to: number, delta: number): Float32Array {
  const b = a.slice();
  for (let i = from; i < to; i++) b[i] += delta;
  return b;
}

describe('chunkAudio: the audio difference chunk by chunk of the vocoder', () => {
  it('whole vs streamed, differing only in the first chunk: chunk 1 of 3, up to the seam at frame 4', () => {
    const a = audio();
    const b = changed(a, 100, 3 * HOP, 0.01);
    b[2216] += 0.2; // the largest |Δ|: frame 3, the last frame before the seam
    const r = chunkAudio({ a, b, sampleRate: SR, frameRate: FR, audioAbs: 1e-4, chunksA: whole, chunksB: streamed })!;
    expect(r.seams).toEqual([
      { frame: 4, sample: 2880, timeSec: 0.12, sides: ['B'] },
      { frame: 14, sample: 12480, timeSec: 0.52, sides: ['B'] },
    ]);
    expect(r.chunks.map((c) => [c.chunk, c.firstFrame, c.lastFrame, c.startSample, c.endSample, c.differs])).toEqual([
      [1, 1, 3, 0, 2880, true],
      [2, 4, 13, 2880, 12480, false],
      [3, 14, 20, 12480, 19200, false],
    ]);
    expect(Number(r.chunks[0].maxAbs)).toBeCloseTo(0.21, 6);
    expect(r.summary).toBe("audio differs only in chunk 1 of 3 (frames 1-3), up to the seam at frame 4 (B's chunks: seams at frames 4, 14); equal in chunks 2, 3 (frames 4-13, 14-20)");
  });

  it('a difference in the middle chunk lies between two seams; in two chunks, names both', () => {
    const a = audio();
    const mid = chunkAudio({ a, b: changed(a, 5 * HOP, 6 * HOP, 0.01), sampleRate: SR, frameRate: FR, audioAbs: 1e-4, chunksB: streamed })!;
    expect(mid.summary).toMatch(/^audio differs only in chunk 2 of 3 \(frames 4-13\), between the seams at frames 4 and 14 /);
    const two = chunkAudio({ a, b: changed(changed(a, 0, 10, 0.01), 19000, 19010, 0.01), sampleRate: SR, frameRate: FR, audioAbs: 1e-4, chunksB: streamed })!;
    expect(two.summary).toBe("audio differs in chunks 1, 3 (frames 1-3, 14-20) of 3 (B's chunks: seams at frames 4, 14); equal in chunk 2 (frames 4-13)");
  });

  it('seams both sides share are said once, as A and B; a whole decode on both sides has no seam', () => {
    const a = audio();
    const r = chunkAudio({ a, b: changed(a, 0, 10, 0.01), sampleRate: SR, frameRate: FR, audioAbs: 1e-4, chunksA: streamed, chunksB: streamed })!;
    expect(r.seams.map((s) => s.sides)).toEqual([['A', 'B'], ['A', 'B']]);
    expect(r.summary).toContain("(A and B's chunks: seams at frames 4, 14)");
    expect(chunkAudio({ a, b: a, sampleRate: SR, frameRate: FR, audioAbs: 1e-4, chunksA: whole, chunksB: whole })).toBeNull();
    expect(chunkAudio({ a, b: a, sampleRate: SR, frameRate: FR, audioAbs: 1e-4 })).toBeNull();
  });
});

describe('localise with the vocoder chunks (codes equal, audio differs)', () => {
  const a = audio();
  const b = changed(a, 0, 3 * HOP, 0.01);
  b[2216] += 0.2;
  const d = localise(makeSteps(FRAMES, 8), makeSteps(FRAMES, 8), {
    frameRate: FR,
    audio: { a, b, sampleRate: SR },
    vocoderChunks: { a: whole, b: streamed },
  });

  it('says which chunk differs and where the largest |Δ| is from the seam, and keeps the chunks in the report', () => {
    expect(d).toMatchObject({ stage: 'vocoder', firstStep: 1, divergedSteps: [1, 2, 3], reconverges: true, reconvergedAtStep: 4 });
    expect(d.detail).toContain('; differs only in chunk 1 of 3 (frames 1-3), up to the seam at frame 4');
    expect(d.detail).toMatch(/largest \|Δ\| 0\.21 at sample 2216 \(frame 3, chunk 1, the last frame before the seam at frame 4\)$/);
    expect(Divergence.parse(JSON.parse(JSON.stringify(d))).vocoderChunks?.chunks).toHaveLength(3);
    expect(vocoderChunkLines(d.vocoderChunks!)).toEqual([
      `Vocoder chunks: ${d.vocoderChunks!.summary}`,
      '  chunk 1: frames 1-3 (samples 0-2879), max |Δ| 0.21, differs',
      '  seam at frame 4 (sample 2880, t = 0.120 s; B)',
      '  chunk 2: frames 4-13 (samples 2880-12479), max |Δ| 0',
      '  seam at frame 14 (sample 12480, t = 0.520 s; B)',
      '  chunk 3: frames 14-20 (samples 12480-19199), max |Δ| 0',
    ]);
    expect(divergenceLines('diverged', d).join('\n')).toContain('differs only in chunk 1 of 3 (frames 1-3), up to the seam at frame 4');
  });

  it('without the chunks the detail is as before (no chunk words)', () => {
    const plain = localise(makeSteps(FRAMES, 8), makeSteps(FRAMES, 8), { frameRate: FR, audio: { a, b, sampleRate: SR } });
    expect(plain.vocoderChunks).toBeUndefined();
    expect(plain.detail).not.toContain('chunk');
  });
});
