import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GREEDY } from '../../../electron/common/sampling/types.js';
import { compareProfiles } from '../../../electron/engine/comparison/compare-profiles.js';
import { Engine, resolveDemoBundle } from '../../../electron/engine/engine.js';
import { exportFixture } from '../../../electron/host/export-fixture.js';
import { CHECKOUT_PARITY } from '../../setup/checkout-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'export-fixture-'));
let engine: Engine;
beforeAll(async () => {
  engine = await Engine.open(await resolveDemoBundle());
});
afterAll(async () => {
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('exportFixture', () => {
  it('a studio comparison exports report.md with the verdict, divergence, step table, warnings and the command', async () => {
    const c = await compareProfiles(
      engine,
      { text: 'Hello there.', profileA: 'graph', profileB: 'graph,fault=stale-feedback@2,fault=nan@talker:99', seed: 0, sampling: GREEDY, bundle: 'demo' },
      { createdAt: '2023-11-14T22:13:20.000Z' },
    );
    const out = join(dir, 'profiles');
    const entry = { historyId: '20231114-221320-abcdef', report: c.report, a: { sampleRate: c.resultA.sampleRate, samples: c.resultA.audio }, b: { sampleRate: c.resultB.sampleRate, samples: c.resultB.audio } };
    const written = await exportFixture(entry, out, false);
    expect(written.files).toContain('report.md');
    expect(readdirSync(out).sort()).toEqual(['a.jsonl', 'a.wav', 'b.jsonl', 'b.wav', 'diff.wav', 'overlay.png', 'report.html', 'report.json', 'report.md', 'spectrogram-diff.png', 'steps.png']);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain(`## Parity report: graph vs ${c.report.rerun.profileB}`);
    expect(md).toContain('- Verdict: diverged');
    expect(md).toContain('- First divergence: step 2 (first decode step), stage talker-logits');
    expect(md).toContain('### Steps around the first divergence');
    expect(md).toMatch(/> \*\*Warning:\*\* B \(.*\): fault nan@talker:99 was not applied: step 99 never ran/);
    // The reproduce command writes beside the folder (`<folder>-rerun`: --out refuses an existing one),
    // then the gate re-checks the folder itself; exact lines, as comparison-markdown.ts renders them.
    const reproduce = md.slice(md.indexOf('### Reproduce'), md.lastIndexOf('\n_'));
    expect(reproduce.split('\n')).toEqual([
      '### Reproduce',
      '',
      '```sh',
      `${CHECKOUT_PARITY} compare --text 'Hello there.' --a graph --b ${c.report.rerun.profileB} --seed 0 --out ${out}-rerun`,
      '```',
      '',
      'Re-check this folder (re-runs the comparison and compares it with the files stored here; exit 1 on a regression):',
      '',
      '```sh',
      `${CHECKOUT_PARITY} gate ${out}`,
      '```',
      '',
    ]);
  });
});
