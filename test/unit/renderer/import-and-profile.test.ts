import { describe, expect, it } from 'vitest';
import { checkProfile } from '../../../electron/common/profile/parse-profile.js';
import { profileSuggestions } from '../../../renderer/src/lib/profile-suggestions.js';
import { classifyImport } from '../../../renderer/src/store/history/classify-import.js';

const file = (name: string, text = 'x') => ({ name, bytes: new TextEncoder().encode(text) });
/** The first 12 bytes of a WAV (RIFF, chunk size, WAVE): enough for the header check; the host decodes the rest. */
const wav = (name: string) => file(name, 'RIFF\x24\x00\x00\x00WAVE');

describe('import classification (pure)', () => {
  it('two audio files are a WAV pair (A then B), two traces a trace pair', () => {
    const wavs = classifyImport([file('a.wav'), file('b.wav')]);
    expect(wavs).toMatchObject({ ok: true, kind: 'wavs', a: { name: 'a.wav' }, b: { name: 'b.wav' } });
    const traces = classifyImport([file('a.jsonl', '{"schema":1}'), file('b.jsonl')]);
    expect(traces).toMatchObject({ ok: true, kind: 'traces', a: { name: 'a.jsonl', text: '{"schema":1}' } });
  });

  it('a non-WAV among two files goes to the host decoder, which names it; one file is refused here', () => {
    expect(classifyImport([file('a.wav'), file('notes.txt')])).toMatchObject({ ok: true, kind: 'wavs' });
    const one = classifyImport([wav('a.wav')]);
    expect(one).toMatchObject({ ok: false });
    expect(one.ok ? '' : one.message).toContain('a.wav');
    expect(classifyImport([])).toMatchObject({ ok: false, message: expect.stringContaining('none') });
  });

  it('one WAV alone says a second WAV is needed and how to give it', () => {
    const one = classifyImport([wav('run.wav')]);
    if (one.ok) throw new Error('one WAV was accepted');
    expect(one.message).toBe('Only one WAV file (run.wav): a comparison needs a second WAV for B.');
    expect(one.hint).toMatch(/^Pick or drop both WAVs together/);
    // With two traces, one WAV is refused too (the audio is compared only when both runs have it).
    const withTraces = classifyImport([file('a.jsonl'), file('b.jsonl'), wav('a.wav')]);
    expect(withTraces).toMatchObject({ ok: false, message: expect.stringContaining('second WAV'), hint: expect.stringContaining('both runs’ WAVs or none') });
  });

  it('one file that is neither a WAV nor a trace is named as such, not as a lone WAV', () => {
    const notes = classifyImport([file('notes.txt', 'meeting notes')]);
    expect(notes).toMatchObject({ ok: false, message: 'notes.txt is neither a WAV file (it has no RIFF/WAVE header) nor a trace (.jsonl, .ndjson, .trace, .json).' });
    // A .wav name is not enough: the header decides (a truncated download named .wav).
    expect(classifyImport([file('take.wav', 'RIF')])).toMatchObject({ ok: false, message: expect.stringContaining('take.wav is neither a WAV file') });
    expect(classifyImport([file('big.wav', 'RF64\x00\x00\x00\x00WAVE')])).toMatchObject({ ok: false, message: expect.stringContaining('Only one WAV file (big.wav)') });
  });

  it('two traces and two WAVs are one comparison; WAVs pair with the trace of the same name, in any order', () => {
    const mixed = classifyImport([file('dir/b.wav'), file('a.jsonl', 'A'), file('dir/A.wav'), file('b.jsonl', 'B')]);
    expect(mixed).toMatchObject({ ok: true, kind: 'traces', a: { name: 'a.jsonl', text: 'A' }, b: { name: 'b.jsonl', text: 'B' }, wavA: { name: 'dir/A.wav' }, wavB: { name: 'dir/b.wav' } });
    // Names that do not match: the first WAV goes with the first trace.
    const byOrder = classifyImport([file('ref.jsonl'), file('x.wav'), file('new.jsonl'), file('y.wav')]);
    expect(byOrder).toMatchObject({ ok: true, kind: 'traces', a: { name: 'ref.jsonl' }, b: { name: 'new.jsonl' }, wavA: { name: 'x.wav' }, wavB: { name: 'y.wav' } });
    // Half a match is no match: order decides.
    const half = classifyImport([file('a.jsonl'), file('b.jsonl'), file('b.wav'), file('c.wav')]);
    expect(half).toMatchObject({ wavA: { name: 'b.wav' }, wavB: { name: 'c.wav' } });
    expect(classifyImport([file('a.jsonl'), file('b.jsonl')])).not.toHaveProperty('wavA');
  });

  it('other mixes are refused with the counts and the rule', () => {
    const three = classifyImport([file('a.jsonl'), file('a.wav'), file('b.wav'), file('c.wav')]);
    if (three.ok) throw new Error('three WAVs were accepted');
    expect(three.message).toContain('got 3 WAV and 1 trace file(s): a.jsonl, a.wav, b.wav, c.wav');
    expect(three.hint).toMatch(/same name \(a\.jsonl ↔ a\.wav\)/);
    expect(classifyImport([file('a.jsonl'), file('b.wav'), file('c.wav')])).toMatchObject({ ok: false });
  });
});

describe('profile suggestions (pure)', () => {
  it('offers the presets first, then valid overrides; every suggestion parses', () => {
    const empty = profileSuggestions('');
    expect(empty.slice(0, 2)).toEqual(['eager', 'graph']);
    for (const s of [...empty, ...profileSuggestions('graph'), ...profileSuggestions('graph,vocoder=stream,')]) {
      expect(checkProfile(s).ok, s).toBe(true);
    }
  });

  it('drops a misspelt item and offers the valid keys instead', () => {
    const s = profileSuggestions('graph,vocodr=stream');
    expect(s).toContain('graph,vocoder=stream');
    expect(s.every((x) => !x.includes('vocodr'))).toBe(true);
  });

  it('does not offer a key already set (faults are repeatable)', () => {
    const s = profileSuggestions('graph,vocoder=stream');
    expect(s.some((x) => x.endsWith('vocoder=full'))).toBe(false);
    expect(s).toContain('graph,vocoder=stream,fault=no-left-context');
  });
});
