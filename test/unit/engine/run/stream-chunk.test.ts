import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../../../electron/common/profile/parse-profile.js';
import { dropsLeftContext, streamChunk } from '../../../../electron/engine/run/stream-chunk.js';

// Chunking rule (docs/profiles.md, vocoder=stream): chunks of chunkFrames frames, each preceded by up to
// leftContextFrames earlier frames as context; none under fault no-left-context.
const vocoder = { chunkFrames: 5, leftContextFrames: 2 };

describe('streamChunk', () => {
  it('first chunk has no earlier frames to take as context', () => {
    expect(streamChunk(0, 12, vocoder, false)).toEqual({ from: 0, end: 5, context: 0 });
  });
  it('later chunks re-decode leftContextFrames earlier frames; the last chunk ends at the last frame', () => {
    expect(streamChunk(5, 12, vocoder, false)).toEqual({ from: 3, end: 10, context: 2 });
    expect(streamChunk(10, 12, vocoder, false)).toEqual({ from: 8, end: 12, context: 2 });
  });
  it('context is capped by the frames before the chunk', () => {
    expect(streamChunk(1, 12, { chunkFrames: 1, leftContextFrames: 4 }, false)).toEqual({ from: 0, end: 2, context: 1 });
  });
  it('no-left-context: no context frames', () => {
    expect(streamChunk(5, 12, vocoder, true)).toEqual({ from: 5, end: 10, context: 0 });
  });
  it('dropsLeftContext reads the fault from the profile', () => {
    expect(dropsLeftContext(parseProfile('graph,vocoder=stream,fault=no-left-context'))).toBe(true);
    expect(dropsLeftContext(parseProfile('graph,vocoder=stream'))).toBe(false);
  });
});
