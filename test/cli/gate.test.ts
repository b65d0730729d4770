import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeWav } from '../../electron/common/wav/decode-wav.js';
import { encodeWav } from '../../electron/common/wav/encode-wav.js';
import { sealReport } from '../../electron/engine/comparison/fixture-integrity.js';
import { runParity } from './run-parity.js';
import { CHECKOUT_PARITY } from '../setup/checkout-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-gate-'));
const fixture = join(dir, 'made', 'stale');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  const run = await runParity(['compare', '--text', 'Gate me, please.', '--a', 'graph', '--b', 'graph,fault=stale-feedback@3', '--out', fixture], { timeoutMs: 60_000 });
  expect(run.status).toBe(0);
}, 90_000);

/** A copy of the fixture to damage. */
function copy(name: string): string {
  const to = join(dir, name);
  cpSync(fixture, to, { recursive: true });
  return to;
}

/** Rewrites a fixture as if an earlier engine had produced `edit`ed output, sealing it again (no tampering). */
function reseal(fx: string, edit: (report: Record<string, unknown>, files: Record<string, Uint8Array | string>) => void): void {
  const report = JSON.parse(readFileSync(join(fx, 'report.json'), 'utf8'));
  delete report.integrity;
  const files: Record<string, Uint8Array | string> = {};
  for (const f of ['a.wav', 'b.wav', 'diff.wav', 'a.jsonl', 'b.jsonl', 'report.md']) files[f] = new Uint8Array(readFileSync(join(fx, f)));
  edit(report, files);
  for (const [f, content] of Object.entries(files)) writeFileSync(join(fx, f), content);
  writeFileSync(join(fx, 'report.json'), sealReport(report, files));
}

describe('parity gate', () => {
  it('passes a fixture made by compare', async () => {
    const run = await runParity(['gate', fixture], { timeoutMs: 60_000 });
    expect(run.stdout).toContain(`PASS ${fixture}: graph vs graph,fault=stale-feedback@3: recorded diverged at step 3 (talker-logits)`);
    expect(run.status).toBe(0);
  });

  it("report.md's reproduce command runs as written (into <folder>-rerun) and names the gate as the folder's re-check", () => {
    const md = readFileSync(join(fixture, 'report.md'), 'utf8');
    expect(md).toContain(`\`\`\`sh\n${CHECKOUT_PARITY} gate ${fixture}\n\`\`\``);
    const line = /```sh\n(.* compare .*)\n```/.exec(md)![1];
    expect(line.startsWith(`${CHECKOUT_PARITY} compare `)).toBe(true);
    expect(line.endsWith(`--out ${fixture}-rerun`)).toBe(true);
    // Through a shell, as a user pastes it, from another folder than the checkout.
    const rerun = spawnSync('sh', ['-c', line], { cwd: tmpdir(), encoding: 'utf8', timeout: 60_000 });
    expect(rerun.stderr).toBe('');
    expect(rerun.status).toBe(0);
    expect(readFileSync(join(`${fixture}-rerun`, 'b.wav'))).toEqual(readFileSync(join(fixture, 'b.wav')));
  }, 90_000);

  it('fails on an edited b.wav and on an edited report.json, saying which and why', async () => {
    const wav = copy('tampered-wav');
    const bytes = readFileSync(join(wav, 'b.wav'));
    bytes[bytes.length - 1] ^= 1;
    writeFileSync(join(wav, 'b.wav'), bytes);
    const report = copy('tampered-report');
    writeFileSync(join(report, 'report.json'), readFileSync(join(report, 'report.json'), 'utf8').replace('"seed": 0', '"seed": 5'));
    const run = await runParity(['gate', wav, report], { timeoutMs: 60_000 });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(`FAIL ${wav}`);
    expect(run.stdout).toMatch(/- b\.wav was changed after it was written \(sha256 [0-9a-f]{12}…, recorded [0-9a-f]{12}…\)/);
    expect(run.stdout).toContain(`FAIL ${report}`);
    expect(run.stdout).toMatch(/- report\.json was changed after it was written/);
    expect(run.stdout).toContain('gate: 0 passed, 2 failed');
  });

  it('fails when the new audio differs from the stored one, naming the side, sample, frame and time', async () => {
    const fx = copy('regressed-audio');
    reseal(fx, (_report, files) => {
      const b = decodeWav(files['b.wav'] as Uint8Array, 'b.wav').channels[0];
      b[5000] += 0.01; // sample 5000: frame floor(5000 / 1920) + 1 = 3, t = 5000 / 24000 = 0.208 s
      files['b.wav'] = encodeWav([b], 24000, 'float32');
    });
    const run = await runParity(['gate', fx], { timeoutMs: 60_000 });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('B (graph,fault=stale-feedback@3): new run regressed — b.wav differs from sample 5000 (frame 3, 0.208 s)');
  });

  it('fails when the new trace differs from the stored one, naming the step and stage', async () => {
    const fx = copy('regressed-trace');
    reseal(fx, (report) => {
      const a = report.a as { steps: { logits: { mean: number } }[] };
      a.steps[5].logits.mean += 0.5;
    });
    const run = await runParity(['gate', fx], { timeoutMs: 60_000 });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/A \(graph\): new run regressed — trace differs at step 6, stage talker-logits: talker logit mean: /);
  });

  it('--shard i/n splits the sorted fixtures; a bad shard or a non-fixture folder exits 2', async () => {
    const set = join(dir, 'set');
    for (const name of ['f1', 'f2', 'f3']) cpSync(fixture, join(set, name), { recursive: true });
    const one = await runParity(['gate', set, '--shard', '1/2'], { timeoutMs: 60_000 });
    const two = await runParity(['gate', set, '--shard', '2/2'], { timeoutMs: 60_000 });
    expect(one.status).toBe(0);
    expect(one.stdout.match(/^PASS /gm)).toHaveLength(2); // f1, f3
    expect(one.stdout).toContain('gate: 2 passed, 0 failed (shard 1/2 of 3 fixtures)');
    expect(two.stdout).toContain(`PASS ${join(set, 'f2')}`);
    expect(two.stdout).toContain('gate: 1 passed, 0 failed (shard 2/2 of 3 fixtures)');
    // --json: passed + failed = checked (this shard's f2), total = all 3 fixtures, and the shard is said.
    const json = await runParity(['gate', set, '--shard', '2/2', '--json'], { timeoutMs: 60_000 });
    expect(json.status, json.stderr).toBe(0);
    const counts = JSON.parse(json.stdout) as Record<string, unknown> & { results: { dir: string }[] };
    expect({ ...counts, results: counts.results.map((r) => r.dir) }).toEqual({ passed: 1, failed: 0, checked: 1, total: 3, shard: { index: 2, count: 2 }, results: [join(set, 'f2')] });
    const bad = await runParity(['gate', set, '--shard', '3/2']);
    expect(bad.status).toBe(2);
    const empty = await runParity(['gate', dir + '/nothing-here']);
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain('nothing-here: no such folder');
  });

  it('refuses a compare-wav folder as a usage error (exit 2, one line naming it) before checking anything', async () => {
    const wavPair = join(dir, 'pairs', 'wav-pair');
    const made = await runParity(['compare-wav', join(fixture, 'a.wav'), join(fixture, 'b.wav'), '--out', wavPair]);
    expect(made.status, made.stderr).toBe(0);
    const why = `${wavPair}: a WAV-pair comparison (parity compare-wav --out, or a studio export of two WAVs), not a gate fixture`;
    // Given with a real fixture first: nothing is re-run (no PASS line), the whole call is refused.
    for (const args of [[wavPair], [fixture, wavPair], [join(dir, 'pairs')]]) {
      const run = await runParity(['gate', ...args]);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain(`parity gate: ${why}`);
      expect(run.stderr).toContain('gate re-checks folders written by parity compare --out, parity compare-trace --out');
    }
  });

  it('a fixture made with --drill records it for the re-run, and gate fails when the drill finds something else', async () => {
    const fx = join(dir, 'drilled');
    const made = await runParity(['compare', '--text', 'Gate me, please.', '--a', 'graph', '--b', 'graph,fault=nan@talker:4', '--drill', '--out', fx], { timeoutMs: 60_000 });
    expect(made.status).toBe(0);
    const report = JSON.parse(readFileSync(join(fx, 'report.json'), 'utf8'));
    expect(report.rerun.drill).toEqual({});
    expect(report.drill.status).toBe('found');
    expect(readFileSync(join(fx, 'report.md'), 'utf8')).toContain(`--b graph,fault=nan@talker:4 --seed 0 --drill --out ${fx}-rerun`);
    const pass = await runParity(['gate', fx], { timeoutMs: 60_000 });
    expect(pass.stdout).toContain(`PASS ${fx}`);
    expect(pass.status).toBe(0);
    const edited = join(dir, 'drilled-edited');
    cpSync(fx, edited, { recursive: true });
    const node = report.drill.node.name;
    reseal(edited, (r) => {
      (r as { drill: { node: { name: string } } }).drill.node.name = 'someOtherNode';
    });
    const fail = await runParity(['gate', edited], { timeoutMs: 60_000 });
    expect(fail.status).toBe(1);
    expect(fail.stdout).toContain('drill: recorded found at step 4 (talker)');
    expect(fail.stdout).toContain(`node someOtherNode, now found at step 4 (talker)`);
    expect(fail.stdout).toContain(`node ${node}`);
  });
});
