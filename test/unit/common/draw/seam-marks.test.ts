import { describe, expect, it } from 'vitest';
import { seamMarks, seamText } from '../../../../electron/common/draw/seam-marks.js';
import { chunkAudio } from '../../../../electron/common/forensics/vocoder-chunks.js';

describe('seamMarks: what the waveform lanes mark', () => {
  it("a trace pair's vocoder chunk starts, with their frame and on which side the audio differs", () => {
    // 24 kHz, 25 frames/s; B streamed in chunks of 3, 10 and 7 frames; the audio differs in frames 1-3 only.
    const a = new Float32Array(20 * 960);
    const b = a.slice();
    b[100] = 0.5;
    const chunksB = [0, 3, 13].map((f, k, all) => ({ startSample: f * 960, samples: ((all[k + 1] ?? 20) - f) * 960 }));
    const vocoderChunks = chunkAudio({ a, b, sampleRate: 24000, frameRate: 25, audioAbs: 1e-4, chunksA: [{ startSample: 0, samples: 19200 }], chunksB })!;
    const marks = seamMarks({ divergence: { vocoderChunks } });
    expect(marks).toEqual([
      { boundary: 1, timeSec: 0.12, frame: 4, differs: 'before' },
      { boundary: 2, timeSec: 0.52, frame: 14, differs: 'neither side' },
    ]);
    expect(seamText(marks[0])).toBe('seam 1 (vocoder chunk 2 starts at frame 4), 0.120 s; audio differs before');
    expect(seamText(marks[1])).toBe('seam 2 (vocoder chunk 3 starts at frame 14), 0.520 s; audio differs on neither side');
  });

  it("a stream profile's found seams as before; nothing without either", () => {
    const seams = { chunkFrames: 5, checked: 2, ratio: 1.5, windowMs: 20, audioAbs: 1e-4, seams: [{ boundary: 2, frame: 11, sample: 19200, timeSec: 0.8, curvature: 1, windowMax: 0, ratio: Infinity }] };
    expect(seamMarks({ seams })).toEqual([{ boundary: 2, timeSec: 0.8 }]);
    expect(seamText(seamMarks({ seams })[0])).toBe('seam at chunk boundary 2, 0.800 s');
    expect(seamMarks(undefined)).toEqual([]);
    expect(seamMarks({ divergence: {} })).toEqual([]);
  });
});
