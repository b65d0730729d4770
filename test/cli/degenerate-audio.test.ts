import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeWav } from '../../electron/common/wav/encode-wav.js';
import { runParity } from './run-parity.js';

// Degenerate audio (report/audio-check.ts) on every CLI surface that judges or measures audio:
// compare-wav, compare-trace (+ --fail-on diverged) and gate on the fixture it wrote.
const dir = mkdtempSync(join(tmpdir(), 'parity-degenerate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const RATE = 24000;
const N = 4 * 1920;
const wav = (name: string, samples: Float32Array) => {
  const path = join(dir, name);
  writeFileSync(path, encodeWav([samples], RATE, 'float32'));
  return path;
};
const silent = wav('silent.wav', new Float32Array(N));
const tone = wav('tone.wav', Float32Array.from({ length: N }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 200 * i) / RATE)));
const dc = wav('dc.wav', new Float32Array(N).fill(0.2));
const nan = wav('nan.wav', new Float32Array(N).fill(NaN));

// Equal hand-written traces (docs/trace-format.md): only the audio can tell the takes apart.
const HEADER = '{"schema":"tts-parity-trace/1","engine":"hand","q":2,"frameRate":12.5,"sampleRate":24000}';
const step = (n: number) => `{"step":${n},"logits":{"mean":13.2,"std":2,"min":-5,"max":9,"argmax":7,"top5":[{"id":7,"logit":9}]},"codes":[7,${n}]}`;
const trace = join(dir, 'run.jsonl');
writeFileSync(trace, [HEADER, step(1), step(2), step(3), step(4)].join('\n') + '\n');

describe('degenerate audio in the CLI', () => {
  const cases: [string, string, string, string][] = [
    ['both silent', silent, silent, 'A and B are both digital silence: audio not compared'],
    ['one silent', tone, silent, 'B is digital silence: audio not compared'],
    ['constant', dc, dc, 'A and B are both a constant 0.2 (no signal): audio not compared'],
    ['NaN', nan, tone, `A holds ${N} NaN/Inf samples: audio not compared`],
  ];
  for (const [name, a, b, reason] of cases) {
    it(`compare-wav, ${name}: says so, and prints no NaN`, async () => {
      const run = await runParity(['compare-wav', a, b]);
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^ *Audio +${reason.replace(/[.()/]/g, '\\$&')}$`, 'm'));
      // The metric rows (the WAV reader's own "note:" lines name NaN as what it found).
      expect(run.stdout.split('\nnote:')[0]).not.toMatch(/\bNaN\b(?!\/Inf)/);
    });
  }

  it('compare-trace with silent WAVs: verdict degenerate-audio everywhere, --fail-on diverged exits 1; gate reproduces it', async () => {
    const out = join(dir, 'fx');
    const run = await runParity(['compare-trace', trace, trace, '--wav-a', silent, '--wav-b', silent, '--out', out, '--fail-on', 'diverged']);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('Verdict: A and B are both digital silence: audio not compared');
    expect(run.stdout).not.toContain('Bit-identical        yes\n');
    expect(run.stdout).not.toMatch(/\bNaN\b/);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { verdict: string; metrics: { audio: unknown } };
    expect(report.verdict).toBe('degenerate-audio');
    expect(report.metrics.audio).toEqual({ a: { condition: 'digital-silence', nonFinite: 0, peak: 0 }, b: { condition: 'digital-silence', nonFinite: 0, peak: 0 } });
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain('- Verdict: A and B are both digital silence: audio not compared');
    expect(md).toContain('| Audio | A and B are both digital silence: audio not compared |');
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('A and B are both digital silence: audio not compared');
    // gate checks that the fixture reproduces (it does), and says what the recorded verdict means.
    const gate = await runParity(['gate', out]);
    expect(gate.status).toBe(0);
    expect(gate.stdout).toContain('recorded degenerate-audio (A and B are both digital silence: audio not compared)');
  });

  it('compare-trace, one side silent: diverged, and the verdict names the silent side', async () => {
    const run = await runParity(['compare-trace', trace, trace, '--wav-a', tone, '--wav-b', silent]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Verdict: diverged; B is digital silence: audio not compared');
  });
});
