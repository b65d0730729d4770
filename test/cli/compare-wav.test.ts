import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Metrics } from '../../electron/common/report/metrics.js';
import { ParityReport } from '../../electron/common/report/report.js';
import { decodeWav } from '../../electron/common/wav/decode-wav.js';
import { encodeWav } from '../../electron/common/wav/encode-wav.js';
import { runParity } from './run-parity.js';

// The README pair, made by scripts/make-samples.sh: B = A delayed by 37 samples, scaled by 0.8, plus
// white noise 60 dB below A's RMS. So the lag is +37 samples (B late), B's gain onto A is
// −20·log10(0.8) = +1.938 dB and the loudness change is 20·log10(0.8) = −1.938 LU. Tolerance
// ±0.05 LU: the noise adds 10·log10(1 + 1e-6) LU, 16-bit rounding less, and the 37 leading
// samples of near-silence move the 400 ms gating blocks by 1.5 ms.
const A = 'assets/samples/speech.wav';
const B = 'assets/samples/speech-quieter-late.wav';
const expectedDeltaLU = 20 * Math.log10(0.8);

const dir = mkdtempSync(join(tmpdir(), 'parity-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function decodeFile(path: string) {
  return decodeWav(new Uint8Array(readFileSync(path)), path);
}

describe('parity compare-wav', () => {
  it('--json prints exactly one JSON object: the metrics, with the 37-sample lag and ΔLU of 20·log10(0.8)', async () => {
    const run = await runParity(['compare-wav', '--json', A, B]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const metrics = Metrics.parse(JSON.parse(run.stdout));
    expect(metrics.lagSamples).toBe(37);
    expect(metrics.lagMs).toBeCloseTo((37 / 24000) * 1000, 9);
    expect(Math.abs(metrics.loudnessDeltaLU - expectedDeltaLU)).toBeLessThanOrEqual(0.05);
    expect(Math.abs(metrics.gainDb + expectedDeltaLU)).toBeLessThanOrEqual(0.05);
    expect(metrics.lengthDifference).toBe(37);
  });

  it('--out writes a.wav, b.wav, diff.wav, report.json (valid) and report.md atomically, refusing to overwrite', async () => {
    const out = join(dir, 'fixture');
    const env = { SOURCE_DATE_EPOCH: '1700000000' };
    const run = await runParity(['compare-wav', A, B, '--out', out], { env });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/Cross-correlation peak .* at lag 37 samples/);
    expect(run.stdout.endsWith(`\nwrote ${out}/ (a.wav, b.wav, diff.wav, report.json, report.md, report.html, overlay.png, spectrogram-diff.png)\n`)).toBe(true);

    const report = ParityReport.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
    expect(report.schema).toBe('tts-parity-report/1');
    expect(report.createdAt).toBe('2023-11-14T22:13:20.000Z');
    expect(report.metrics.lagSamples).toBe(37);
    expect(Math.abs(report.metrics.loudnessDeltaLU - expectedDeltaLU)).toBeLessThanOrEqual(0.05);
    expect(report.sources.a).toMatchObject({ path: A, sampleRate: 24000, channels: 1, format: 'pcm16', downmix: 'mono (single channel, unchanged)' });

    // a.wav and b.wav are the compared mono signals as float32, diff.wav is A−B at lag 0 over the common part.
    const inA = decodeFile(A).channels[0];
    const inB = decodeFile(B).channels[0];
    const a = decodeFile(join(out, 'a.wav'));
    const b = decodeFile(join(out, 'b.wav'));
    const diff = decodeFile(join(out, 'diff.wav'));
    expect([a.format, b.format, diff.format]).toEqual(['float32', 'float32', 'float32']);
    expect(a.channels[0]).toEqual(inA);
    expect(b.channels[0]).toEqual(inB);
    expect(diff.channels[0]).toHaveLength(Math.min(inA.length, inB.length));
    expect(diff.channels[0][1000]).toBe(Math.fround(inA[1000] - inB[1000]));

    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toMatch(/^## Parity report/);
    expect(md).toMatch(/\| Cross-correlation peak \| .* at lag 37 samples/);

    const again = await runParity(['compare-wav', A, B, '--out', out], { env });
    expect(again.status).toBe(2);
    expect(again.stderr.trim().split('\n')).toEqual([`parity compare-wav: ${out} already exists; pass --force to replace it`]);

    const before = readFileSync(join(out, 'report.json'));
    const forced = await runParity(['compare-wav', A, B, '--out', out, '--force'], { env });
    expect(forced.status).toBe(0);
    // Same inputs and SOURCE_DATE_EPOCH: the same bytes.
    expect(readFileSync(join(out, 'report.json')).equals(before)).toBe(true);
  });

  it('a file against itself: bit-identical; -Infinity null depth is the string "-Infinity" in JSON and −∞ dB in the table', async () => {
    const json = await runParity(['compare-wav', '--json', A, A]);
    expect(json.status).toBe(0);
    const raw = JSON.parse(json.stdout);
    expect(raw.nullDepthDb).toBe('-Infinity');
    expect(raw.snrDb).toBe('Infinity');
    expect(raw.bitIdentical).toBe(true);
    const table = await runParity(['compare-wav', A, A]);
    // As the studio writes it (U+2212 MINUS SIGN); report.json keeps the documented "-Infinity".
    expect(table.stdout).toMatch(/Null depth +\u2212∞ dB/);
    expect(table.stdout).toMatch(/SNR +∞ dB/);
    expect(table.stdout).not.toContain('Infinity');
    expect(table.stdout).toMatch(/Bit-identical +yes/);
  });

  it('downmixes a stereo file by the stated rule and records it; loudness is all-channel, the downmix\'s apart', async () => {
    const mono = decodeFile(A).channels[0];
    const stereo = join(dir, 'stereo.wav');
    writeFileSync(stereo, encodeWav([mono, mono], 24000, 'float32'));
    const out = join(dir, 'stereo-out');
    const run = await runParity(['compare-wav', stereo, A, '--out', out]);
    expect(run.status).toBe(0);
    const report = ParityReport.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
    expect(report.sources.a.downmix).toBe('mean of 2 channels (L+R)/2');
    expect(report.sources.a.channels).toBe(2);
    // (L+R)/2 of two equal channels is the channel itself.
    expect(report.metrics.bitIdentical).toBe(true);
    // The headline is BS.1770's all-channel loudness, which sums the two channels' powers: +10·log10(2)
    // = +3.01 LU over the mono downmix, whose loudness is kept apart (and equals mono B's here).
    expect(report.metrics.loudnessA).toBe(report.sources.a.loudnessAllChannels);
    expect(report.metrics.loudnessA - report.metrics.loudnessDownmixA!).toBeCloseTo(10 * Math.log10(2), 2);
    expect(report.metrics.loudnessDownmixB).toBe(report.metrics.loudnessB);
    expect(report.metrics.loudnessDeltaLU).toBeCloseTo(-10 * Math.log10(2), 2);
  });

  it('refuses different sample rates (no resampling) with exit 2 and one line', async () => {
    const other = join(dir, 'rate-48k.wav');
    writeFileSync(other, encodeWav([new Float32Array(4800).fill(0.1)], 48000, 'pcm16'));
    const run = await runParity(['compare-wav', A, other]);
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/sample rates differ: .*speech\.wav is 24000 Hz, .*rate-48k\.wav is 48000 Hz; resampling is not done/);
  });

  it('a missing file and a bad --max-lag-ms give exit 2', async () => {
    const missing = await runParity(['compare-wav', A, join(dir, 'nope.wav')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/nope\.wav: cannot read \(no such file or folder\)/);
    const lag = await runParity(['compare-wav', '--max-lag-ms', 'abc', A, B]);
    expect(lag.status).toBe(2);
    expect(lag.stderr).toMatch(/max-lag-ms/);
    expect(existsSync(join(dir, 'nope.wav'))).toBe(false);
  });

  it('--help describes the command', async () => {
    const run = await runParity(['compare-wav', '--help']);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/--max-lag-ms <ms>/);
  });
});
