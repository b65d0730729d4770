import { describe, expect, it } from 'vitest';
import { checkProfile } from '../../../electron/common/profile/parse-profile.js';
import { profileSuggestions } from '../../../renderer/src/lib/profile-suggestions.js';
import { classifyImport } from '../../../renderer/src/store/history/classify-import.js';

const file = (name: string, text = 'x') => ({ name, bytes: new TextEncoder().encode(text) });

describe('import classification (pure)', () => {
  it('two audio files are a WAV pair (A then B), two traces a trace pair', () => {
    const wavs = classifyImport([file('a.wav'), file('b.wav')]);
    expect(wavs).toMatchObject({ ok: true, kind: 'wavs', a: { name: 'a.wav' }, b: { name: 'b.wav' } });
    const traces = classifyImport([file('a.jsonl', '{"schema":1}'), file('b.jsonl')]);
    expect(traces).toMatchObject({ ok: true, kind: 'traces', a: { name: 'a.jsonl', text: '{"schema":1}' } });
  });

  it('a non-WAV among two files goes to the host decoder, which names it; one file is refused here', () => {
    expect(classifyImport([file('a.wav'), file('notes.txt')])).toMatchObject({ ok: true, kind: 'wavs' });
    const one = classifyImport([file('a.wav')]);
    expect(one).toMatchObject({ ok: false });
    expect(one.ok ? '' : one.message).toContain('a.wav');
    expect(classifyImport([])).toMatchObject({ ok: false, message: expect.stringContaining('none') });
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
