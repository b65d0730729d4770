import { describe, expect, it } from 'vitest';
import { faultOutcomes } from '../../../../electron/common/forensics/fault-outcomes.js';
import { bucketPadding, staleTailBoundaries } from '../../../../electron/common/profile/bucket.js';
import { checkProfile, parseProfile } from '../../../../electron/common/profile/parse-profile.js';
import { GREEDY } from '../../../../electron/common/sampling/types.js';
import { checkNativeProfile } from '../../../../electron/engine/native/native-profile.js';

// The demo's stream spans for 32 frames: 5, 10, 13, 13, 13, 13, 10 (chunks of 5, up to 8 frames of left context).
const DEMO = { chunkFrames: 5, leftContextFrames: 8 };

describe('bucket=K1|K2|… (a list of captured sizes)', () => {
  it('pads a span to the smallest listed size that holds it; a span above them all is not padded', () => {
    expect([5, 10, 13].map((span) => bucketPadding(span, [8, 16, 32]))).toEqual([3, 6, 3]);
    expect([5, 10, 13].map((span) => bucketPadding(span, [5, 16]))).toEqual([0, 6, 3]);
    expect([5, 10, 13].map((span) => bucketPadding(span, [8, 10]))).toEqual([3, 0, 0]); // 13 > 10: decoded at its own size
  });

  it('stale-tail corrupts the boundaries after a padded chunk (by hand from the spans above)', () => {
    expect(staleTailBoundaries(32, DEMO, 5)).toEqual([3, 4, 5, 6]); // multiples of 5: only the 13-frame spans pad
    expect(staleTailBoundaries(32, DEMO, [5, 16])).toEqual([2, 3, 4, 5, 6]); // 10 → 16 pads too
    expect(staleTailBoundaries(32, DEMO, [8, 10])).toEqual([1]); // only 5 → 8; 13 is above every size
    expect(faultOutcomes(parseProfile('graph,vocoder=stream,bucket=5|10|13,fault=stale-tail'), 32, 5, 8)[0]).toEqual({
      fault: 'stale-tail',
      applied: false,
      reason: 'no chunk before the last was padded (32 frames, 5 per chunk, up to 8 of left context, bucket=5|10|13)',
    });
  });

  it('parses the list in its canonical form; a one-size list is bucket=K', () => {
    const p = parseProfile('graph,fault=stale-tail,bucket=8|16|32,vocoder=stream');
    expect(p.bucket).toEqual([8, 16, 32]);
    expect(p.text).toBe('graph,vocoder=stream,bucket=8|16|32,fault=stale-tail');
    expect(parseProfile(p.text)).toEqual(p);
    expect(parseProfile('graph,vocoder=stream,bucket=16').bucket).toBe(16);
  });

  it('refuses a list that is not ascending whole frame counts, naming the item; the native backend refuses it', () => {
    const issue = (text: string) => {
      const c = checkProfile(text);
      if (c.ok) throw new Error(`expected "${text}" to be refused`);
      return c.issue;
    };
    expect(issue('graph,vocoder=stream,bucket=16|8')).toMatchObject({ token: 'bucket=16|8', message: 'bucket "16|8": the sizes of a list must be strictly ascending (e.g. 8|16|32)' });
    expect(issue('graph,vocoder=stream,bucket=8|8').message).toBe('bucket "8|8": the sizes of a list must be strictly ascending (e.g. 8|16|32)');
    expect(issue('graph,vocoder=stream,bucket=8|').message).toBe('bucket "8|": expected a whole number of frames from 1 to 9999, or a list of them (8|16|32)');
    expect(issue('graph,vocoder=stream,bucket=0|8').message).toBe('bucket "0|8": expected a whole number of frames from 1 to 9999, or a list of them (8|16|32)');
    expect(issue('graph,bucket=8|16').message).toBe('bucket=K needs vocoder=stream (it pads the streaming vocoder\'s chunks)');
    expect(() => checkNativeProfile(parseProfile('graph,vocoder=stream,bucket=8|16,backend=native'), GREEDY)).toThrow(
      'profile "graph,vocoder=stream,bucket=8|16,backend=native": backend=native does not implement bucket=8|16 (the native vocoder decodes each chunk at its own size)',
    );
  });
});
