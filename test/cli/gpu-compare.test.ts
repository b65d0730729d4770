import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GPU_CHECK_FORMAT } from '../../electron/common/gpu/gpu-check-summary.js';
import { runParity } from './run-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-gpu-compare-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TEXT = 'Parity.';

/**
 * A result folder as scripts/gpu-check writes it, without a GPU: the "twin" traces are two `parity synth`
 * runs on this machine (eager, and graph with stale-feedback@2, so one pair must diverge at exactly step 2).
 */
async function syntheticResults(): Promise<string> {
  const folder = join(dir, 'gpu-check');
  for (const [name, profile] of [['twin-eager', 'eager'], ['twin-graph', 'graph,fault=stale-feedback@2']] as const) {
    mkdirSync(join(folder, name), { recursive: true });
    const run = await runParity(['synth', '--text', TEXT, '--profile', profile, '--out', join(folder, name, 'audio.wav'), '--trace', join(folder, name, 'trace.jsonl')], { timeoutMs: 60_000 });
    expect(run.stderr).toBe('');
  }
  const step = (name: string, profile: string) => ({ name, status: 'passed', exit_code: 0, seconds: 1.5, log: `${name}.log`, files: [`twin-${profile}/trace.jsonl`, `twin-${profile}/audio.wav`] });
  const summary = {
    format: GPU_CHECK_FORMAT,
    device: { name: 'synthetic (no GPU)', capability: [9, 0] },
    seconds: 12.5,
    passed: false,
    failed: ['native-check'],
    missing: ['real-models-real_models_gpu_hf'],
    steps: [
      { name: 'native-check', status: 'failed', exit_code: 1, seconds: 3, reason: 'FAIL graph >= 3x faster than eager', figures: { greedy_graph_nodes: 54, graph_step_ms: 0.5 } },
      step('twin-traces-eager', 'eager'),
      step('twin-traces-graph', 'graph'),
      { name: 'real-models-real_models_gpu_hf', status: 'missing', reason: 'python/gpu/real_models_gpu_hf.py is not in this checkout (issue 25): not run' },
    ],
  };
  writeFileSync(join(folder, 'summary.json'), JSON.stringify(summary));
  return folder;
}

describe('parity gpu-compare', () => {
  it('compares the twin traces with the engine run here and with each other, and writes the note', async () => {
    const folder = await syntheticResults();
    const run = await runParity(['gpu-compare', folder], { timeoutMs: 120_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const out = join(folder, 'reports');
    const result = JSON.parse(readFileSync(join(out, 'gpu-compare.json'), 'utf8')) as { tolerances: unknown; comparisons: { name: string; verdict: string; codesIdentical: boolean; firstDivergentStep: number | null; folder: string }[] };
    expect(result.tolerances).toEqual({ logit: 1e-4, audio: 1e-3 });
    const byName = Object.fromEntries(result.comparisons.map((c) => [c.name, c]));
    expect(Object.keys(byName)).toEqual(['engine-vs-twin-eager', 'engine-vs-twin-graph', 'twin-eager-vs-twin-graph']);
    // The same engine, the same profile: bit for bit.
    expect(byName['engine-vs-twin-eager']).toMatchObject({ verdict: 'identical', codesIdentical: true, firstDivergentStep: null });
    // The planted stale feedback: diverged, first at step 2.
    expect(byName['engine-vs-twin-graph']).toMatchObject({ verdict: 'diverged', firstDivergentStep: 2 });
    expect(byName['twin-eager-vs-twin-graph']).toMatchObject({ verdict: 'diverged', firstDivergentStep: 2 });
    for (const c of result.comparisons) expect(existsSync(join(c.folder, 'report.json'))).toBe(true);
    const note = readFileSync(join(out, 'gpu-compare.md'), 'utf8');
    expect(note).toContain('FAILED (native-check)');
    expect(note).toContain('missing: real-models-real_models_gpu_hf');
    expect(note).toContain('| greedy_graph_nodes | 54 |');
    expect(note).toMatch(/\| engine-vs-twin-graph \| diverged \| differ \| 2 \|/);
  }, 300_000);

  it('a folder without a gpu-check summary is refused in one line (exit 2)', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const run = await runParity(['gpu-compare', empty]);
    expect(run.stderr).toBe(`parity gpu-compare: ${join(empty, 'summary.json')}: not found: give the folder scripts/gpu-check wrote (unpack gpu-check.tar.gz first: tar xzf)\n`);
    expect(run.status).toBe(2);
    const wrong = join(dir, 'wrong');
    mkdirSync(wrong);
    copyFileSync(join(dir, 'gpu-check', 'summary.json'), join(wrong, 'x.json'));
    writeFileSync(join(wrong, 'summary.json'), JSON.stringify({ format: 'something-else/1' }));
    const refused = await runParity(['gpu-compare', wrong]);
    expect(refused.stderr).toMatch(/^parity gpu-compare: .*summary\.json: not a tts-parity-gpu-check\/1 summary: format /);
    expect(refused.status).toBe(2);
    writeFileSync(join(wrong, 'summary.json'), '{"format": "tts-parity-gpu-check/1", ');
    const truncated = await runParity(['gpu-compare', wrong]);
    expect(truncated.stderr).toMatch(/^parity gpu-compare: .*summary\.json: not valid JSON: .*\n$/);
    expect(truncated.stderr.split('\n')).toHaveLength(2);
    expect(truncated.status).toBe(2);
  });
});
