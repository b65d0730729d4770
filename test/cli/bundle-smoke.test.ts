import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDemoBundle } from '../../electron/engine/demo/build-demo-bundle.js';
import { BAKED_NODE, writeBakedLengthBundle } from './bundle-smoke-baked.js';
import { runParity } from './run-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-bundle-smoke-'));
const demo = join(dir, 'demo');
const baked = join(dir, 'baked');
beforeAll(async () => {
  await writeDemoBundle(demo);
  // Baked at 6 positions: the smoke check's first run (1 new position, no past) already differs.
  await writeBakedLengthBundle(baked, 6);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parity bundle check --smoke', () => {
  it('passes the demo bundle: a line per export and per eager/graph precision pair', async () => {
    const json = JSON.parse((await runParity(['bundle', 'check', demo, '--json', '--smoke'], { timeoutMs: 60_000 })).stdout);
    const labels: string[] = json.files.map((f: { label: string }) => f.label);
    expect(labels).toContain('talker graph-fp16');
    expect(json.smoke).toHaveLength(labels.length + 2);
    labels.forEach((label, i) => expect(json.smoke[i]).toMatch(new RegExp(`^${label} \\(\\S+\\.onnx\\): \\d runs \\(`)));
    expect(json.smoke[labels.indexOf('talker eager-fp32')]).toContain('4 runs (S=1 P=0, S=1 P=4, S=3 P=0, S=3 P=4)');
    expect(json.smoke[labels.length]).toMatch(/^eager vs graph \(fp32\): greedy on "a+", (\d+) of \1 steps compared, codes identical; logits within \S+ relative \(tolerance 0\.001\)$/);
    expect(json.smoke[labels.length + 1]).toMatch(/^eager vs graph \(fp16\): .* codes identical; .*\(tolerance 0\.02\)$/);

    const text = await runParity(['bundle', 'check', demo, '--smoke'], { timeoutMs: 60_000 });
    expect(text.status, text.stderr).toBe(0);
    expect(text.stderr).toBe(''); // progress goes only to a terminal
    expect(text.stdout).toContain(`\nsmoke check (each export on seeded random inputs; eager vs graph greedy):\n${json.smoke.map((l: string) => `  ${l}\n`).join('')}smoke OK\n`);
  }, 90_000);

  it('a length baked into the talker passes plain check, and smoke names the export, file, node, sizes and feeds (exit 2)', async () => {
    const plain = await runParity(['bundle', 'check', baked], { timeoutMs: 60_000 });
    expect(plain.status, plain.stderr).toBe(0);
    const smoke = await runParity(['bundle', 'check', baked, '--smoke'], { timeoutMs: 60_000 });
    expect(smoke.status).toBe(2);
    expect(smoke.stdout).toBe('');
    expect(smoke.stderr).toBe(
      `parity bundle check: smoke: talker eager-fp32 (${join(baked, 'talker.eager.fp32.onnx')}), at sequence length 1, past length 0 (random inputs, seed 24301): ` +
        `ONNX Runtime failed in node "${BAKED_NODE}" (Reshape) fed inputs_embeds float32 [1, 1, 64], attention_mask int64 [1, 1], position_ids int64 [1, 1], past_key_values.{0..3}.key|value float32 [1, 2, 0, 16]: ` +
        'input_shape_size == requested_shape_size was false. The input tensor cannot be reshaped to the requested shape. Input shape:{1,2,1,16}, requested shape:{1,2,1,6,16}; ' +
        'fix: a length baked into the export: GQA written with repeat_interleave (torch.onnx.export traces the example length into a Reshape)? Use expand + reshape with sizes taken from tensor.shape, re-export, and run `parity bundle check DIR --smoke`\n',
    );
  }, 90_000);
});
