import { describe, expect, it } from 'vitest';
import { faultOutcomes } from '../../../../electron/common/forensics/fault-outcomes.js';
import { bucketPadding, staleTailBoundaries } from '../../../../electron/common/profile/bucket.js';
import { checkProfile, parseProfile } from '../../../../electron/common/profile/parse-profile.js';
import { GREEDY } from '../../../../electron/common/sampling/types.js';
import { checkNativeProfile } from '../../../../electron/engine/native/native-profile.js';

// The demo's stream vocoder: chunks of 5 frames, up to 8 frames of left context, so the spans of a
// 32-frame utterance are 5, 10, 13, 13, 13, 13 and 10 frames (the last chunk has 2 frames + 8 context).
const DEMO = { chunkFrames: 5, leftContextFrames: 8 };

describe('bucket=K', () => {
  it('pads a span to the next multiple of K', () => {
    expect([5, 10, 13, 16].map((span) => bucketPadding(span, 13))).toEqual([8, 3, 0, 10]);
    expect([5, 10, 13, 16].map((span) => bucketPadding(span, 16))).toEqual([11, 6, 3, 0]);
    expect(bucketPadding(7, 1)).toBe(0);
  });

  it('stale-tail corrupts the boundaries after a padded chunk (by hand: spans 5 and 10 pad to 13, 13 does not)', () => {
    expect(staleTailBoundaries(32, DEMO, 13)).toEqual([1, 2]);
    expect(staleTailBoundaries(32, DEMO, 16)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(staleTailBoundaries(32, DEMO, 5)).toEqual([3, 4, 5, 6]); // spans 5 and 10 are multiples of 5, 13 is not
    expect(staleTailBoundaries(5, DEMO, 16)).toEqual([]); // one chunk: no boundary
  });

  it('parses bucket=K after vocoder=stream, in canonical order', () => {
    const p = parseProfile('graph,fault=stale-tail,bucket=13,vocoder=stream');
    expect(p).toMatchObject({ vocoder: 'stream', bucket: 13, faults: [{ kind: 'stale-tail' }] });
    expect(p.text).toBe('graph,vocoder=stream,bucket=13,fault=stale-tail');
    expect(parseProfile(p.text)).toEqual(p);
    expect(parseProfile('graph,vocoder=stream')).not.toHaveProperty('bucket');
  });

  it('refuses bucket without vocoder=stream, a bucket that is not a frame count, and stale-tail without bucket', () => {
    const issue = (text: string) => {
      const c = checkProfile(text);
      if (c.ok) throw new Error(`expected "${text}" to be refused`);
      return c.issue;
    };
    expect(issue('graph,bucket=13')).toMatchObject({ token: 'bucket=13', message: 'bucket=K needs vocoder=stream (it pads the streaming vocoder\'s chunks)' });
    expect(issue('graph,vocoder=stream,bucket=0').message).toBe('bucket "0": expected a whole number of frames from 1 to 9999, or a list of them (8|16|32)');
    expect(issue('graph,vocoder=stream,bucket=1.5').token).toBe('bucket=1.5');
    expect(issue('graph,vocoder=stream,bucket=8,bucket=9').message).toBe('key "bucket" given twice');
    expect(issue('graph,vocoder=stream,fault=stale-tail')).toMatchObject({ token: 'fault=stale-tail', message: expect.stringContaining('needs vocoder=stream and bucket=K') });
  });

  it('fault outcomes: stale-tail applied when a chunk before the last was padded, else the reason', () => {
    expect(faultOutcomes(parseProfile('graph,vocoder=stream,bucket=16,fault=stale-tail'), 32, 5, 8)).toEqual([{ fault: 'stale-tail', applied: true }]);
    expect(faultOutcomes(parseProfile('graph,vocoder=stream,bucket=16,fault=stale-tail'), 5, 5, 8)).toEqual([
      { fault: 'stale-tail', applied: false, reason: 'no chunk before the last was padded (5 frames, 5 per chunk, up to 8 of left context, bucket=16)' },
    ]);
  });

  it('backend=native refuses bucket=K (its vocoder decodes each chunk at its own size)', () => {
    expect(() => checkNativeProfile(parseProfile('graph,vocoder=stream,bucket=16,backend=native'), GREEDY)).toThrow(
      'profile "graph,vocoder=stream,bucket=16,backend=native": backend=native does not implement bucket=16 (the native vocoder decodes each chunk at its own size)',
    );
  });
});
