import { describe, expect, it } from 'vitest';
import { ProfileError } from '../../../../electron/common/errors.js';
import {
  PROFILE_KEYS,
  ProfileSyntaxError,
  checkProfile,
  formatProfile,
  parseProfile,
} from '../../../../electron/common/profile/parse-profile.js';

function errorOf(text: string): ProfileSyntaxError {
  try {
    parseProfile(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ProfileSyntaxError);
    expect(error).toBeInstanceOf(ProfileError);
    return error as ProfileSyntaxError;
  }
  throw new Error(`expected "${text}" to be rejected`);
}

describe('parseProfile', () => {
  it('reads presets with every default', () => {
    expect(parseProfile('eager')).toEqual({
      preset: 'eager', cache: 'kv', vocoder: 'full', backend: 'ort', ep: 'cpu', precision: 'fp32', faults: [], text: 'eager',
    });
    expect(parseProfile('graph').preset).toBe('graph');
  });

  it('reads every override and fault kind', () => {
    const p = parseProfile(
      'graph, vocoder=stream,cache=recompute,precision=fp16,ep=cuda,backend=native,fault=nan@code-predictor:5,fault=stale-feedback@2,fault=no-left-context,fault=fp16-overflow,fault=nan@talker:12,fault=nan@vocoder:3',
    );
    expect(p).toMatchObject({ preset: 'graph', vocoder: 'stream', cache: 'recompute', precision: 'fp16', ep: 'cuda', backend: 'native' });
    expect(p.faults).toEqual([
      { kind: 'fp16-overflow' },
      { kind: 'nan', stage: 'code-predictor', step: 5 },
      { kind: 'nan', stage: 'talker', step: 12 },
      { kind: 'nan', stage: 'vocoder', step: 3 },
      { kind: 'no-left-context' },
      { kind: 'stale-feedback', step: 2 },
    ]);
  });

  it('defaults the preset to eager when the string starts with an override', () => {
    expect(parseProfile('cache=recompute').text).toBe('eager,cache=recompute');
  });

  it('writes a canonical text: defaults dropped, fixed key order, faults sorted; round-trips', () => {
    const p = parseProfile('graph,precision=fp16,cache=kv,fault=stale-feedback@3,vocoder=stream,fault=fp16-overflow');
    expect(p.text).toBe('graph,vocoder=stream,precision=fp16,fault=fp16-overflow,fault=stale-feedback@3');
    expect(parseProfile(p.text)).toEqual(p);
    expect(formatProfile(p)).toBe(p.text);
  });

  it('names an unknown key with the known ones (STYLE.md example, verbatim)', () => {
    expect(errorOf('graph,vocodr=stream').message).toBe(
      'profile "graph,vocodr=stream": unknown key "vocodr" (known: vocoder, bucket, cache, batch, ep, precision, backend, fault)',
    );
  });

  it.each([
    ['graph,vocoder=strem', 'unknown value "strem" for vocoder (valid: full, stream)'],
    ['eager,ep=rocm', 'unknown value "rocm" for ep (valid: cpu, cuda)'],
    ['eager,precision=bf16', 'unknown value "bf16" for precision (valid: fp32, fp16)'],
    ['eager,cache=', 'missing value for cache (valid: kv, recompute)'],
    // Number-valued keys say what a value is, not a placeholder "N".
    ['graph,batch=', 'missing value for batch (expected a whole number of rows from 1 to 64)'],
    ['graph,vocoder=stream,bucket=', 'missing value for bucket (expected a whole number of frames from 1 to 9999, or a list of them (8|16|32))'],
    ['eagr', 'unknown preset "eagr" (valid: eager, graph; or start with key=value)'],
    ['', 'empty'],
    ['graph,,cache=kv', 'empty item at position 2'],
    ['graph,', 'empty item at position 2'],
    ['cache=kv,graph', 'the preset must come first'],
    ['graph,cache=kv,cache=recompute', 'key "cache" given twice'],
    ['graph,fault=nan@talker:2,fault=nan@talker:2', 'fault "nan@talker:2" given twice'],
    ['graph,fault=nan@decoder:2', 'unknown fault "nan@decoder:2" (valid: stale-feedback@N, no-left-context'],
    // A known fault with a bad step says the step rule, not "unknown fault".
    ['graph,fault=stale-feedback@0', 'fault "stale-feedback@0": the step must be an integer >= 2 (step 1 is the prefill'],
    ['graph,fault=stale-feedback@x', 'fault "stale-feedback@x": the step must be an integer >= 2'],
    ['graph,fault=stale-feedback@', 'fault "stale-feedback@": the step must be an integer >= 2'],
    ['graph,fault=stale-feedback@1', 'fault "stale-feedback@1": the step must be an integer >= 2 (step 1 is the prefill'],
    ['graph,fault=stale-feedback@3,fault=stale-feedback@1', 'fault "stale-feedback@1": the step must be an integer >= 2'],
    ['graph,fault=nan@talker:0', 'fault "nan@talker:0": the step must be an integer >= 1'],
    ['graph,fault=nan@vocoder:-2', 'fault "nan@vocoder:-2": the step must be an integer >= 1'],
    ['graph,fault=no-left-context', 'needs vocoder=stream'],
  ])('rejects %j: %s', (text, expected) => {
    const e = errorOf(text);
    expect(e.message).toContain(expected);
    expect(e.message.startsWith(`profile "${text}": `)).toBe(true);
    expect(e.where).toBe(text);
  });

  it('locates the offending token for live validation', () => {
    const text = 'graph, vocodr=stream';
    const check = checkProfile(text);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.issue.token).toBe('vocodr=stream');
    expect(text.slice(check.issue.start, check.issue.end)).toBe('vocodr=stream');
    expect(checkProfile('graph').ok).toBe(true);
  });

  it('underlines the stale-feedback item whose step is 1, not the first stale-feedback item', () => {
    const text = 'graph,fault=stale-feedback@3,fault=stale-feedback@1';
    const check = checkProfile(text);
    if (check.ok) throw new Error('expected a problem');
    expect(text.slice(check.issue.start, check.issue.end)).toBe('fault=stale-feedback@1');
  });

  it('lists every key with values a UI can offer, all of them parseable', () => {
    for (const spec of PROFILE_KEYS) {
      for (const value of spec.values) {
        const v = value.replace('N', '4');
        const extra = v === 'no-left-context' || spec.key === 'bucket' ? ',vocoder=stream' : v === 'stale-tail' ? ',vocoder=stream,bucket=4' : '';
        expect(() => parseProfile(`graph,${spec.key}=${v}${extra}`)).not.toThrow();
      }
    }
  });
});
