import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runnableProfiles } from '../../electron/cli/commands/bundle-profiles.js';
import type { BundleInfo } from '../../electron/engine/types.js';
import { runParity } from './run-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-bundle-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Only the export keys matter to runnableProfiles; the rest of BundleInfo is not read. */
const withExports = (talker: string[], codePredictor: string[], vocoder: string[]) =>
  ({ talker: { exports: talker }, codePredictor: { exports: codePredictor }, vocoder: { exports: vocoder } }) as unknown as BundleInfo;

describe('parity bundle check', () => {
  it('a folder that is not a bundle is said so in one line (exit 2), before any model is loaded', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const file = join(dir, 'file.txt');
    writeFileSync(file, 'x');
    // A bundle.json that is not JSON: line 3 is `  "name": "x"`, whose '"' (column 3) should have been a ','.
    const broken = join(dir, 'broken');
    mkdirSync(broken);
    writeFileSync(join(broken, 'bundle.json'), '{\n  "format": "tts-parity-bundle/1"\n  "name": "x"\n}\n');
    const cases: [string, string][] = [
      [broken, `${join(broken, 'bundle.json')}: not valid JSON: Expected ',' or '}' after property value at line 3, column 3`],
      [empty, `no bundle.json in ${empty} (not a bundle folder)`],
      [join(dir, 'nowhere'), `${join(dir, 'nowhere')}: no such folder`],
      [file, `${file} is a file, not a folder; give a bundle folder (with bundle.json)`],
      // Issue 27: it used to say "/dev/zero is a file".
      ['/dev/zero', '/dev/zero is a character device, not a folder; give a bundle folder (with bundle.json)'],
    ];
    for (const [arg, line] of cases) {
      const run = await runParity(['bundle', 'check', arg]);
      expect(run.stderr).toBe(`parity bundle check: ${line}\n`);
      expect(run.status).toBe(2);
    }
  });

  it('lists the profiles the demo bundle can run (it has every export: docs/bundle-format.md)', async () => {
    const demo = join(dir, 'demo');
    expect((await runParity(['bundle', 'build-demo', '--out', demo], { timeoutMs: 60_000 })).status).toBe(0);
    const run = await runParity(['bundle', 'check', demo], { timeoutMs: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('profiles it can run (each also with vocoder=stream, ep=cuda and the faults; docs/profiles.md "Which exports a profile needs"):\n');
    expect(run.stdout).toContain('  eager, eager,precision=fp16, eager,cache=recompute, eager,cache=recompute,precision=fp16, graph, graph,precision=fp16, graph,cache=recompute, graph,cache=recompute,precision=fp16\n');
    expect(run.stdout).not.toContain('cannot run');
    const json = JSON.parse((await runParity(['bundle', 'check', demo, '--json'], { timeoutMs: 60_000 })).stdout);
    expect(json.profiles.runs).toHaveLength(8);
    expect(json.profiles.missing).toEqual([]);
  }, 90_000);

  it('an eager-only fp32 bundle runs eager and eager,cache=recompute; each other profile names the export it lacks', () => {
    // Keys per docs/profiles.md: talker <preset>-<precision> (eager-* under cache=recompute), code
    // predictor <preset>-<precision>, vocoder <precision>, talker +-fp16-overflow for that fault.
    const p = runnableProfiles(withExports(['eager-fp32', 'eager-fp32-fp16-overflow'], ['eager-fp32'], ['fp32']));
    expect(p.runs).toEqual(['eager', 'eager,cache=recompute']);
    expect(p.fp16Overflow).toEqual(['eager', 'eager,cache=recompute']);
    expect(p.missing).toEqual([
      'eager,precision=fp16 (no talker export "eager-fp16")',
      'eager,cache=recompute,precision=fp16 (no talker export "eager-fp16")',
      'graph (no talker export "graph-fp32")',
      'graph,precision=fp16 (no talker export "graph-fp16")',
      // recompute drives the eager talker: what graph,cache=recompute lacks is the graph code predictor.
      'graph,cache=recompute (no code-predictor export "graph-fp32")',
      'graph,cache=recompute,precision=fp16 (no talker export "eager-fp16")',
    ]);
    const noVocoder16 = runnableProfiles(withExports(['eager-fp32', 'eager-fp16'], ['eager-fp32', 'eager-fp16'], ['fp32']));
    expect(noVocoder16.missing[0]).toBe('eager,precision=fp16 (no vocoder export "fp16")');
    expect(noVocoder16.fp16Overflow).toEqual([]);
  });
});
