import { describe, expect, it } from 'vitest';
import { editDistance, profileFix } from '../../../renderer/src/lib/profile-fix.js';

describe('editDistance (Levenshtein)', () => {
  it('counts single-character edits: textbook pairs', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3); // the classic example: 2 substitutions + 1 insertion
    expect(editDistance('vocodr', 'vocoder')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
});

describe('profileFix', () => {
  it('replaces a mistyped key, value, preset or fault with the nearest valid item', () => {
    expect(profileFix('graph,vocodr=stream')).toBe('graph,vocoder=stream');
    expect(profileFix('graph,vocoder=strem')).toBe('graph,vocoder=stream');
    expect(profileFix('grahp')).toBe('graph');
    expect(profileFix('graph,fault=stale-feedbak@2')).toBe('graph,fault=stale-feedback@2');
    expect(profileFix('eager,presicion=fp16')).toBe('eager,precision=fp16');
  });

  it('offers nothing for a valid profile or an item too far from any valid one', () => {
    expect(profileFix('graph,vocoder=stream')).toBeUndefined();
    expect(profileFix('graph,zzzzzz=1')).toBeUndefined();
    expect(profileFix('graph,,')).toBeUndefined();
  });
});
