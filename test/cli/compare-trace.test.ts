import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TraceComparisonReport } from '../../electron/common/report/comparison-report.js';
import { encodeWav } from '../../electron/common/wav/encode-wav.js';
import { runParity } from './run-parity.js';
import { CHECKOUT_PARITY } from '../setup/checkout-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-trace-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string | Uint8Array) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

// Written by hand to docs/trace-format.md. B's talker logits jump at step 3 only (mean 0.31 vs 13.56,
// as in seed 000's table), with the same codes, and match again at step 4.
const HEADER = '{"schema":"tts-parity-trace/1","engine":"hand","q":2,"frameRate":12.5,"sampleRate":24000}';
const step = (n: number, mean: number, codes: [number, number]) =>
  `{"step":${n},"logits":{"mean":${mean},"std":2,"min":-5,"max":9,"argmax":${codes[0]},"top5":[{"id":${codes[0]},"logit":9}]},"codes":[${codes.join(',')}]}`;
const traceA = [HEADER, step(1, 13.43, [5, 1]), step(2, 13.2, [7, 2]), step(3, 13.2, [7, 3]), step(4, 13.1, [9, 4])].join('\n') + '\n';
const traceB = [HEADER, step(1, 13.43, [5, 1]), step(2, 13.2, [7, 2]), step(3, 0.31, [7, 3]), step(4, 13.1, [9, 4])].join('\n') + '\n';

describe('parity compare-trace', () => {
  it('localises hand-written traces: step 3, talker-logits, re-converges at step 4; writes a sealed fixture', async () => {
    const a = file('a.jsonl', traceA);
    const b = file('b.jsonl', traceB);
    const out = join(dir, 'fx1');
    const run = await runParity(['compare-trace', a, b, '--out', out]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('First divergence: step 3, stage talker-logits, codebook 0, t = 0.160 s');
    expect(run.stdout).toContain('Re-converges: yes, from step 4 on');
    const report = TraceComparisonReport.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
    expect(report.verdict).toBe('diverged');
    expect(report.divergence).toMatchObject({ firstStep: 3, stage: 'talker-logits', reconverges: true, reconvergedAtStep: 4 });
    expect(Object.keys(report.integrity!.files).sort()).toEqual(['a.jsonl', 'b.jsonl', 'report.md']);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toMatch(/\| 3 \| 13\.2000 \| 0\.3100 \|/);
    // The reproduce command reads the copies stored in the folder and writes beside it; the gate re-checks the folder itself.
    expect(md).toContain(`### Reproduce\n\n\`\`\`sh\n${CHECKOUT_PARITY} compare-trace ${out}/a.jsonl ${out}/b.jsonl --out ${out}-rerun\n\`\`\`\n`);
    expect(md).toContain(`\n${CHECKOUT_PARITY} gate ${out}\n`);
    // The same "wrote" line as compare --out: the folder and its files.
    expect(run.stdout).toContain(`wrote ${out}/ (a.jsonl, b.jsonl, report.json, report.md, report.html, steps.png)\n`);
    const again = await runParity(['compare-trace', a, b, '--out', out]);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain('already exists; pass --force');
  });

  it('with WAVs and equal codes, localises a vocoder difference to its frame and time; --fail-on diverged exits 1', async () => {
    const sr = 24000;
    const wa = Float32Array.from({ length: 4 * 1920 }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 200 * i) / sr));
    const wb = wa.slice();
    for (let i = 5000; i < 5100; i++) wb[i] = 0; // sample 5000 lies in frame floor(5000/1920)+1 = 3
    const a = file('v-a.jsonl', traceA);
    const run = await runParity([
      'compare-trace', a, a, '--wav-a', file('a.wav', encodeWav([wa], sr, 'float32')), '--wav-b', file('b.wav', encodeWav([wb], sr, 'float32')),
      '--json', '--fail-on', 'diverged',
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(1);
    const report = TraceComparisonReport.parse(JSON.parse(run.stdout));
    expect(report.divergence).toMatchObject({ stage: 'vocoder', firstStep: 3, vocoderFrame: 3, firstDifferingSample: 5000 });
    expect(report.divergence.timeSec).toBeCloseTo(5000 / sr, 12);
    expect(report.metrics!.bitIdentical).toBe(false);
  });

  it('a streamed vocoder against a whole one (header vocoderChunks): which chunk the audio differs in, from the seams, in the summary, report.json and report.md', async () => {
    // 4 frames of 1920 samples at 12.5 frames/s; B's vocoder made its audio in chunks of 1 and 3 frames, and its
    // audio differs only inside its first chunk (samples 1000-1099, frame 1).
    const sr = 24000;
    const wa = Float32Array.from({ length: 4 * 1920 }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 200 * i) / sr));
    const wb = wa.slice();
    for (let i = 1000; i < 1100; i++) wb[i] += 0.05;
    const chunked = (chunks: object[]) => traceA.replace(HEADER, HEADER.replace('}', `,"vocoderChunks":${JSON.stringify(chunks)}}`));
    const a = file('c-a.jsonl', chunked([{ startSample: 0, samples: 4 * 1920 }]));
    const b = file('c-b.jsonl', chunked([{ startSample: 0, samples: 1920, leftContextFrames: 0 }, { startSample: 1920, samples: 3 * 1920, leftContextFrames: 1 }]));
    const out = join(dir, 'fx-chunks');
    const run = await runParity(['compare-trace', a, b, '--wav-a', file('c-a.wav', encodeWav([wa], sr, 'float32')), '--wav-b', file('c-b.wav', encodeWav([wb], sr, 'float32')), '--out', out]);
    expect(run.stderr).toBe('');
    const summary = "differs only in chunk 1 of 2 (frame 1), up to the seam at frame 2 (B's chunks: seam at frame 2); equal in chunk 2 (frames 2-4)";
    expect(run.stdout).toContain(`all codes equal; audio differs from sample 1000`);
    expect(run.stdout).toContain(`; ${summary}; largest |Δ| 0.05 at sample`);
    expect(run.stdout).toContain('(frame 1, chunk 1, the last frame before the seam at frame 2)');
    expect(run.stdout).toContain('Vocoder chunks: audio ' + summary + '\n  chunk 1: frame 1 (samples 0-1919), max |Δ| 0.05, differs\n  seam at frame 2 (sample 1920, t = 0.080 s; B)\n  chunk 2: frames 2-4 (samples 1920-7679), max |Δ| 0\n');
    const report = TraceComparisonReport.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
    expect(report.divergence.vocoderChunks!.seams).toEqual([{ frame: 2, sample: 1920, timeSec: 0.08, sides: ['B'] }]);
    expect(report.divergence.vocoderChunks!.chunks.map((c) => c.differs)).toEqual([true, false]);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain(`### Vocoder chunks\n\n- Vocoder chunks: audio ${summary}\n- chunk 1: frame 1 (samples 0-1919), max |Δ| 0.05, differs\n`);
    // report.html marks the seam on its waveforms (its page data; test/e2e/report-html-seams.test.ts draws such marks)
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('"seams":[{"boundary":1,"timeSec":0.08,"frame":2,"differs":"before"}]');
  });

  it("report.md's reproduce command runs as written from the stored files, after the originals are gone, into <folder>-rerun; the gate passes", async () => {
    const a = file('moved-a.jsonl', traceA);
    const b = file('moved-b.jsonl', traceB);
    const sr = 24000;
    const wav = encodeWav([Float32Array.from({ length: 4 * 1920 }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 200 * i) / sr))], sr, 'float32');
    const out = join(dir, 'fx-rerun-src');
    const run = await runParity(['compare-trace', a, b, '--wav-a', file('moved-a.wav', wav), '--wav-b', file('moved-b.wav', wav), '--logit-tol', '0.01', '--out', out]);
    expect(run.status, run.stderr).toBe(0);
    for (const name of ['moved-a.jsonl', 'moved-b.jsonl', 'moved-a.wav', 'moved-b.wav']) renameSync(join(dir, name), join(dir, `gone-${name}`));
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    const line = /```sh\n(.* compare-trace .*)\n```/.exec(md)![1];
    expect(line).toBe(`${CHECKOUT_PARITY} compare-trace ${out}/a.jsonl ${out}/b.jsonl --wav-a ${out}/a.wav --wav-b ${out}/b.wav --logit-tol 0.01 --out ${out}-rerun`);
    // Through a shell, as a user pastes it, from another folder than the checkout.
    const rerun = spawnSync('sh', ['-c', line], { cwd: tmpdir(), encoding: 'utf8', timeout: 30_000 });
    expect(rerun.stderr).toBe('');
    expect(rerun.status).toBe(0);
    const first = TraceComparisonReport.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
    const again = TraceComparisonReport.parse(JSON.parse(readFileSync(join(`${out}-rerun`, 'report.json'), 'utf8')));
    expect(again.divergence).toEqual(first.divergence);
    expect(again.metrics).toEqual(first.metrics);
    const gate = await runParity(['gate', out], { timeoutMs: 30_000 });
    expect(gate.status, gate.stdout).toBe(0);
  });

  it('headers that disagree: q refused naming both; frameRate and sampleRate warned on stderr and in report.json/report.md', async () => {
    const a = file('h-a.jsonl', traceA);
    const q3 = file('h-q3.jsonl', [HEADER.replace('"q":2', '"q":3'), ...traceA.trim().split('\n').slice(1).map((l) => l.replace(/"codes":\[(\d+),(\d+)\]/, '"codes":[$1,$2,0]'))].join('\n') + '\n');
    const refused = await runParity(['compare-trace', a, q3]);
    expect(refused.stderr).toBe(`parity compare-trace: the traces have different codebook counts, so their codes cannot be compared: ${a} q=2, ${q3} q=3\n`);
    expect(refused.status).toBe(2);
    const other = file('h-rates.jsonl', traceA.replace('"frameRate":12.5,"sampleRate":24000', '"frameRate":25,"sampleRate":16000'));
    const out = join(dir, 'fx-rates');
    const warned = await runParity(['compare-trace', a, other, '--out', out]);
    expect(warned.status).toBe(0);
    const frame = `the trace headers disagree on frameRate: ${a} 12.5/s, ${other} 25/s; steps are compared by number and times use A's 12.5/s`;
    const sample = `the trace headers disagree on sampleRate: ${a} 24000 Hz, ${other} 16000 Hz; no audio is compared, so only the steps are`;
    expect(warned.stderr).toBe(`warning: ${frame}\nwarning: ${sample}\n`);
    expect(TraceComparisonReport.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'))).warnings).toEqual([frame, sample]);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain(`> **Warning:** ${frame}\n> **Warning:** ${sample}\n`);
  });

  it('equal traces with equal WAVs → identical; exit 0 with --fail-on diverged', async () => {
    const a = file('same.jsonl', traceA);
    // Audible: digital silence would be degenerate audio (test/cli/degenerate-audio.test.ts), never identical.
    const wav = file('same.wav', encodeWav([Float32Array.from({ length: 4 * 1920 }, (_, i) => 0.3 * Math.sin(i / 20))], 24000, 'float32'));
    const run = await runParity(['compare-trace', a, a, '--wav-a', wav, '--wav-b', wav, '--json', '--fail-on', 'diverged']);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).verdict).toBe('identical');
    expect(JSON.parse(run.stdout).divergence.audioCompared).toBe(true);
  });

  it('equal traces without WAVs: never "identical"; summary, report and report.md say the audio was not compared', async () => {
    const a = file('same-no-wav.jsonl', traceA);
    const out = join(dir, 'no-wav-out');
    const run = await runParity(['compare-trace', a, a, '--out', out, '--fail-on', 'diverged']);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Verdict: within-tolerance (over the traces only: audio not compared)');
    expect(run.stdout).toContain('Audio not compared (no --wav-a/--wav-b): the vocoder stage was not checked');
    expect(run.stdout).not.toContain('audio within');
    const report = TraceComparisonReport.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
    expect(report.verdict).toBe('within-tolerance');
    expect(report.divergence.audioCompared).toBe(false);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('audio not compared');
  });

  const bad: [string, string, number][] = [
    ['empty', '', 1],
    ['bad json', `${HEADER}\n${step(1, 1, [1, 2])}\n{oops\n`, 3],
    ['wrong q', `${HEADER}\n${step(1, 1, [1, 2])}\n${step(2, 1, [1, 2]).replace('"codes":[1,2]', '"codes":[1]')}\n`, 3],
    ['gap', `${HEADER}\n${step(1, 1, [1, 2])}\n${step(3, 1, [1, 2])}\n`, 3],
    ['no header', `${step(1, 1, [1, 2])}\n`, 1],
  ];
  it.each(bad)('malformed trace (%s) → exit 2 naming file and line', async (name, text, line) => {
    const run = await runParity(['compare-trace', file(`bad-${name.replace(/ /g, '-')}.jsonl`, text), file('ok.jsonl', traceA)]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^parity compare-trace: .*bad-${name.replace(/ /g, '-')}\\.jsonl:${line}: `));
  });

  it('refuses a lone --wav-a and a missing file', async () => {
    const a = file('x.jsonl', traceA);
    expect((await runParity(['compare-trace', a, a, '--wav-a', a])).stderr).toContain('give both --wav-a and --wav-b');
    const missing = await runParity(['compare-trace', a, join(dir, 'nope.jsonl')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('nope.jsonl: cannot read (no such file or folder)');
  });

  it('a WAV given as a trace is named as one; binary bytes are never echoed', async () => {
    const a = file('w-a.jsonl', traceA);
    const wav = file('given.wav', encodeWav([new Float32Array(480)], 24000, 'float32'));
    const run = await runParity(['compare-trace', a, wav]);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(`parity compare-trace: ${wav} is a WAV file, not a tts-parity-trace/1 trace (give WAVs with --wav-a/--wav-b)\n`);
    // gzip magic (1f 8b) then bytes that are not UTF-8: refused by position, nothing of it printed.
    const gz = file('trace.jsonl.gz', Uint8Array.of(0x1f, 0x8b, 0x08, 0x00, 0xff, 0xfe, 0x41));
    const binary = await runParity(['compare-trace', a, gz]);
    expect(binary.status).toBe(2);
    expect(binary.stderr).toBe(`parity compare-trace: ${gz}:1: not a text file: control character U+001F at column 1 (a tts-parity-trace/1 trace is UTF-8 JSON Lines, docs/trace-format.md)\n`);
    for (const r of [run, binary]) expect(r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\ufffd]/);
  });
});
