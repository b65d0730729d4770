import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { QWEN3_SHAPED } from '../../electron/engine/demo/qwen3-shaped-config.js';
import { runParity } from './run-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-build-demo-qwen3-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parity bundle build-demo --config with the Qwen3-shaped config', () => {
  it('builds a bundle that bundle check accepts and synth runs (eager and graph agree on the codes)', async () => {
    const config = join(dir, 'qwen3.json');
    writeFileSync(config, JSON.stringify(QWEN3_SHAPED, null, 2));
    const out = join(dir, 'bundle');
    const built = await runParity(['bundle', 'build-demo', '--config', config, '--out', out]);
    expect(built.stderr).toBe('');
    expect(built.status).toBe(0);
    const check = await runParity(['bundle', 'check', out]);
    expect(check.status).toBe(0);
    expect(check.stdout).toContain('text: byte-level: UTF-8 bytes (ids 0..255) placed by the talker.prefill template; at most 32 UTF-8 bytes');
    // What the engine does with each field beyond the demo's shape, one line each, after the vocoder line.
    const layout = check.stdout.split('\n').slice(check.stdout.split('\n').findIndex((l) => l.startsWith('vocoder: ')) + 1);
    expect(layout.slice(0, 6)).toEqual([
      'embedding table: embed.fp16.safetensors (safetensors tensor "embed_tokens.weight", float16, 454 rows × 32), read by rows',
      "talker logits: 48 = codebook 0's 32 codes + special ids 32..47 (8 named), masked before sampling, EOS 38 included (the frame count ends the loop)",
      "codebook sizes: 32, 32, 24, 16 (code predictor logits past a codebook's size masked)",
      'code predictor input: 32 wide, projected to its hidden 16 inside its exports',
      'prefill: template of 10 parts; slots: instruction, speaker (vivian, ryan)',
      'text conditioning: each decode step adds the next trailing text token, then 260, then pad 261',
    ]);
    const codes: string[] = [];
    for (const profile of ['eager', 'graph']) {
      const trace = join(dir, `${profile}.jsonl`);
      const run = await runParity(['synth', '--bundle', out, '--text', 'hello there', '--profile', profile, '--out', join(dir, `${profile}.wav`), '--trace', trace, '--json']);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      // 11 code points × 0.5 = 5.5, rounded half up to 6 frames.
      expect((JSON.parse(run.stdout) as { frames: number }).frames).toBe(6);
      codes.push(readFileSync(trace, 'utf8').split('\n').filter((l) => l.includes('"codes"')).map((l) => JSON.stringify((JSON.parse(l) as { codes: number[] }).codes)).join(';'));
    }
    expect(codes[0].length).toBeGreaterThan(0);
    expect(codes[1]).toBe(codes[0]);
  });
});
