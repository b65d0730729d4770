import { describe, expect, it } from 'vitest';
import { codebookTicks, frequencyTicks, integerIncrs } from '../../../electron/common/draw/axis-ticks.js';
import { fmt, fmtTick, minusSigns } from '../../../renderer/src/lib/format.js';
import { historyLabel, historyLabels } from '../../../renderer/src/lib/history-label.js';

describe('fmt', () => {
  it('never shows a signed zero: -0 and values that round to zero print as 0.0', () => {
    expect(fmt(-0, 1, ' dB')).toBe('0.0 dB');
    expect(fmt(-0.04, 1, ' dB')).toBe('0.0 dB'); // (-0.04).toFixed(1) === "-0.0"
    expect(fmt(-0.05, 1, ' dB')).toBe('\u22120.1 dB'); // a real negative value keeps its sign
    expect(fmt(-0.0000001, 6)).toBe('0.000000');
    expect(fmt(-Infinity, 1, ' dB')).toBe('\u2212∞ dB');
  });

  it('writes a negative number with the typographic minus U+2212, never a hyphen-minus', () => {
    expect(fmt(-12.34, 1, ' dB')).toBe('\u221212.3 dB');
    expect(fmt(-103, 0, ' samples')).toBe('\u2212103 samples');
    expect(fmt('-1e-3', 4)).toBe('\u22120.0010');
    expect(fmt(103, 0, ' samples')).toBe('103 samples');
    for (const v of [-1, -0.5, -1e9, -123.456]) expect(fmt(v, 2)).not.toContain('-');
  });
});

describe('minusSigns (numbers inside report text)', () => {
  it('turns a number’s sign into U+2212 and leaves hyphens in words, ranges and exponents alone', () => {
    expect(minusSigns('talker logit mean: 0.0392998 vs -0.0215 (|Δ| 0.06 > 0.001)')).toBe('talker logit mean: 0.0392998 vs \u22120.0215 (|Δ| 0.06 > 0.001)');
    expect(minusSigns('-3 dB, (-.5), x=-1')).toBe('\u22123 dB, (\u2212.5), x=\u22121');
    expect(minusSigns('graph,fault=stale-feedback@2 steps 2-3, 1e-7, talker-logits')).toBe('graph,fault=stale-feedback@2 steps 2-3, 1e-7, talker-logits');
  });
});

describe('fmtTick (chart axes)', () => {
  it('writes ticks with the decimals their spacing needs and the typographic minus', () => {
    expect([-30, -25, 0, 5].map((v) => fmtTick(v, 5))).toEqual(['\u221230', '\u221225', '0', '5']);
    expect([-0.5, -0.25, 0, 0.25].map((v) => fmtTick(v, 0.25))).toEqual(['\u22120.50', '\u22120.25', '0.00', '0.25']);
    expect(fmtTick(0.30000000000000004, 0.1)).toBe('0.3'); // float noise in a split does not add digits
    expect(fmtTick(null, 1)).toBe('');
  });
});

describe('frequencyTicks', () => {
  it('24 kHz audio (Nyquist 12 kHz): 3, 6, 9 kHz at 3/4, 1/2, 1/4 of the height from the top', () => {
    expect(frequencyTicks(24000)).toEqual([
      { hz: 3000, fromTop: 0.75, label: '3 kHz' },
      { hz: 6000, fromTop: 0.5, label: '6 kHz' },
      { hz: 9000, fromTop: 0.25, label: '9 kHz' },
    ]);
  });

  it('picks a step that leaves at most four ticks, all strictly inside 0..Nyquist', () => {
    for (const rate of [8000, 16000, 22050, 44100, 48000]) {
      const ticks = frequencyTicks(rate);
      expect(ticks.length, String(rate)).toBeGreaterThan(0);
      expect(ticks.length, String(rate)).toBeLessThanOrEqual(4);
      for (const t of ticks) expect(t.hz).toBeLessThan(rate / 2);
    }
    expect(frequencyTicks(44100).map((t) => t.label)).toEqual(['5 kHz', '10 kHz', '15 kHz', '20 kHz']);
    expect(frequencyTicks(0)).toEqual([]);
  });
});

describe('codebookTicks (codes lane)', () => {
  it('numbers every codebook when rows are 11 px or more apart, else every 2nd, 4th…, each at its row centre', () => {
    expect(codebookTicks(4, 12)).toEqual([
      { fromTop: 0.125, label: '0' },
      { fromTop: 0.375, label: '1' },
      { fromTop: 0.625, label: '2' },
      { fromTop: 0.875, label: '3' },
    ]);
    expect(codebookTicks(8, 9).map((t) => t.label)).toEqual(['0', '2', '4', '6']);
    expect(codebookTicks(32, 3.5).map((t) => t.label)).toEqual(['0', '5', '10', '15', '20', '25', '30']);
  });
});

describe('historyLabel', () => {
  // Built from a local time, so the expected "14:07:30" holds in any time zone.
  const createdAt = new Date(2026, 10, 22, 14, 7, 30).toISOString();

  it('time, what was compared and the first words of the prompt', () => {
    expect(historyLabel({ createdAt, title: 'eager vs graph', text: 'Hello from the parity studio today, again.' })).toBe('14:07:30 · eager vs graph · “Hello from the parity studio…”');
    expect(historyLabel({ createdAt, title: 'eager vs graph', text: 'Short one.' })).toBe('14:07:30 · eager vs graph · “Short one.”');
  });

  it('imports without a prompt show time and title only', () => {
    expect(historyLabel({ createdAt, title: 'a.wav vs b.wav' })).toBe('14:07:30 · a.wav vs b.wav');
  });

  it('tells apart two runs of the same profiles: seconds, and #1/#2 (oldest first) when even those are the same', () => {
    const later = new Date(2026, 10, 22, 14, 7, 41).toISOString();
    const same = { title: 'eager vs graph', text: 'Hello world' };
    // The case: the same profiles in the same minute read differently now.
    const minute = historyLabels([{ id: 'x', createdAt: later, ...same }, { id: 'y', createdAt, ...same }]);
    expect(minute.get('x')).not.toBe(minute.get('y'));
    // The same second (createdAt with milliseconds apart): numbered after the time, so a cut-off row still shows it.
    const ms = (n: number) => new Date(2026, 10, 22, 14, 7, 30, n).toISOString();
    const second = historyLabels([{ id: 'b', createdAt: ms(900), ...same }, { id: 'a', createdAt: ms(100), ...same }, { id: 'c', createdAt: later, title: 'a.wav vs b.wav' }]);
    expect(second.get('a')).toBe('14:07:30 #1 · eager vs graph · “Hello world”');
    expect(second.get('b')).toBe('14:07:30 #2 · eager vs graph · “Hello world”');
    expect(second.get('c')).toBe('14:07:41 · a.wav vs b.wav');
  });
});

describe('integerIncrs (step axis)', () => {
  it('is the 1-2-5 series of whole numbers up to max, so no tick can fall between two steps', () => {
    expect(integerIncrs(100)).toEqual([1, 2, 5, 10, 20, 50, 100]);
    expect(integerIncrs(60)).toEqual([1, 2, 5, 10, 20, 50]);
    // The default reaches a million steps: far past any decode (the demo bundle caps at 115 frames).
    const all = integerIncrs();
    expect(all.every((v) => Number.isInteger(v) && v >= 1)).toBe(true);
    expect(all.at(-1)).toBe(1e6);
  });
});
