import { describe, expect, it } from 'vitest';
import { InputError, ProfileError } from '../../../../electron/common/errors.js';
import { parseProfile } from '../../../../electron/common/profile/parse-profile.js';
import { GREEDY } from '../../../../electron/common/sampling/types.js';
import { checkNativeProfile } from '../../../../electron/engine/native/native-profile.js';

const check = (text: string, sampling = GREEDY): void => checkNativeProfile(parseProfile(text), sampling);

describe('profiles with backend=native', () => {
  it('accepts eager and graph, vocoder full/stream, stale-feedback@N and no-left-context', () => {
    for (const text of ['eager,backend=native', 'graph,backend=native', 'graph,backend=native,fault=stale-feedback@2', 'graph,backend=native,fault=stale-feedback@7', 'eager,backend=native,vocoder=stream,fault=no-left-context']) {
      expect(() => check(text), text).not.toThrow();
    }
  });

  it.each([
    ['graph,backend=native,cache=recompute', 'cache=recompute'],
    ['graph,backend=native,precision=fp16', 'precision=fp16'],
    ['graph,backend=native,ep=cuda', 'ep=cuda'],
    ['graph,backend=native,fault=nan@talker:3', 'fault=nan'],
    ['graph,backend=native,fault=fp16-overflow', 'fault=fp16-overflow'],
  ])('refuses %s, naming what is not implemented', (text, what) => {
    expect(() => check(text)).toThrow(ProfileError);
    expect(() => check(text)).toThrow(`backend=native does not implement ${what}`);
  });

  it('accepts sampled decoding and greedy with a repetition penalty (both run on the device)', () => {
    for (const sampling of [
      { ...GREEDY, mode: 'sample' as const, temperature: 0.8, topK: 20, topP: 0.9 },
      { ...GREEDY, repetitionPenalty: 1.3 },
    ]) expect(() => check('graph,backend=native', sampling)).not.toThrow();
  });

  it.each([
    [{ mode: 'sample' as const, temperature: 0 }, 'sampling: temperature must be a finite number > 0, found 0'],
    [{ mode: 'sample' as const, topK: 2.5 }, 'sampling: topK must be an integer >= 0, found 2.5'],
    [{ mode: 'sample' as const, topP: 1.5 }, 'sampling: topP must be in (0, 1], found 1.5'],
    [{ repetitionPenalty: -1 }, 'sampling: repetitionPenalty must be > 0, found -1'],
  ])('refuses bad sampling settings %j with the ORT sampler\'s words', (over, message) => {
    const sampling = { ...GREEDY, ...over };
    expect(() => check('graph,backend=native', sampling)).toThrow(InputError);
    expect(() => check('graph,backend=native', sampling)).toThrow(message);
  });
});
