import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDemoBundle } from '../../electron/engine/demo/build-demo-bundle.js';
import { BAKED_NODE, writeBakedLengthBundle } from './bundle-smoke-baked.js';
import { runParity } from './run-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-engine-errors-'));
const baked = join(dir, 'baked');
const demo = join(dir, 'demo');
beforeAll(async () => {
  // 6 positions: "hello" is BOS + 5 bytes, so step 1 (the prefill) runs and step 2 (past 6 + 1 new) fails.
  await writeBakedLengthBundle(baked, 6);
  await writeDemoBundle(demo, undefined, { precisions: ['fp32'], faultVariants: false });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A planted bug: the JSON that `bundle check --json` prints cannot be made (a plain TypeError, no ParityError).
const PLANTED_BUG =
  'data:text/javascript,const s=JSON.stringify;JSON.stringify=(v,...r)=>{if(v&&v.profiles)throw new TypeError("planted bug");return s(v,...r)}';

describe('errors during a run', () => {
  it('an ONNX Runtime failure in synth names the network, export, file, step and feeds, exit 2, no stack', async () => {
    const out = join(dir, 'a.wav');
    const run = await runParity(['synth', '--bundle', baked, '--text', 'hello', '--out', out], { timeoutMs: 60_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(
      new RegExp(
        `^parity synth: talker eager-fp32 \\(${join(baked, 'talker.eager.fp32.onnx').replace(/[.]/g, '\\.')}\\), step 2: ONNX Runtime failed in node "${BAKED_NODE.replace(/[.]/g, '\\.')}" \\(Reshape\\) ` +
          'fed inputs_embeds float32 \\[1, 1, 64\\], attention_mask int64 \\[1, 7\\], position_ids int64 \\[1, 1\\], past_key_values\\.\\{0\\.\\.3\\}\\.key\\|value float32 \\[1, 2, 6, 16\\]: ' +
          '.*requested shape:\\{1,2,1,6,16\\}; fix: a length baked into the export: GQA written with repeat_interleave.*\\n$',
      ),
    );
    expect(run.stderr.split('\n')).toHaveLength(2);
    expect(existsSync(out)).toBe(false);
  }, 60_000);

  it('a bug in parity is exit 3 and one line asking for a report; --verbose adds the stack trace', async () => {
    const quiet = await runParity(['bundle', 'check', demo, '--json'], { imports: [PLANTED_BUG], timeoutMs: 60_000 });
    expect(quiet.status).toBe(3);
    expect(quiet.stderr).toBe('parity bundle check: internal error (a bug in parity: please report it with the command that failed; --verbose prints the stack trace): planted bug\n');
    for (const args of [['--verbose', 'bundle', 'check', demo, '--json'], ['bundle', 'check', demo, '--json', '--verbose']]) {
      const verbose = await runParity(args, { imports: [PLANTED_BUG], timeoutMs: 60_000 });
      expect(verbose.status).toBe(3);
      const [line, ...stack] = verbose.stderr.trimEnd().split('\n');
      expect(line).toBe(quiet.stderr.trimEnd());
      expect(stack[0]).toBe('TypeError: planted bug');
      expect(stack[1]).toMatch(/^\s+at /);
    }
  }, 60_000);
});
