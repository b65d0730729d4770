import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoBundleFiles } from '../../electron/engine/demo/build-demo-bundle.js';
import { DEMO_SEED } from '../../electron/engine/demo/demo-config.js';
import { SMALL } from '../unit/engine/bundle/small-bundle.js';
import { runParity } from './run-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-build-demo-seed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const smallConfig = join(dir, 'small.json');
writeFileSync(smallConfig, JSON.stringify(SMALL, null, 2));

function manifestOf(out: string): { name: string; description: string } {
  return JSON.parse(readFileSync(join(out, 'bundle.json'), 'utf8')) as { name: string; description: string };
}

describe('parity bundle build-demo --out is checked before anything is built', () => {
  it('an existing --out is refused even when --config is broken: the refusal names --out, not the config', async () => {
    const out = join(dir, 'taken');
    mkdirSync(out);
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{');
    // Before, the config was read (and the bundle built) first: this run named the config instead.
    const run = await runParity(['bundle', 'build-demo', '--config', broken, '--out', out, '--seed', '5']);
    expect(run.stderr).toBe(`parity bundle build-demo: --out ${out}: already exists (use --force to write into it)\n`);
    expect(run.status).toBe(2);
    expect(readdirSync(out)).toEqual([]);
  });

  it('an --out under a file is refused before the build, nothing written', async () => {
    const file = join(dir, 'plain-file');
    writeFileSync(file, 'x');
    const run = await runParity(['bundle', 'build-demo', '--config', join(dir, 'absent.json'), '--out', join(file, 'sub')]);
    expect(run.stderr).toBe(`parity bundle build-demo: --out ${join(file, 'sub')}: ${file} is a file, not a folder\n`);
    expect(run.status).toBe(2);
    expect(readFileSync(file, 'utf8')).toBe('x');
  });
});

describe('parity bundle build-demo --seed', () => {
  it('builds the same bytes as the builder with that seed, other bytes than the default seed, and records the seed', async () => {
    const out = join(dir, 'small-seed-7');
    const run = await runParity(['bundle', 'build-demo', '--config', smallConfig, '--out', out, '--seed', '7'], { timeoutMs: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    const expected = demoBundleFiles(7, { config: SMALL });
    expect(readdirSync(out).sort()).toEqual([...expected.keys()].sort());
    for (const [name, bytes] of expected) expect(Buffer.from(readFileSync(join(out, name))).equals(Buffer.from(bytes)), name).toBe(true);
    const defaultSeed = demoBundleFiles(DEMO_SEED, { config: SMALL });
    expect(Buffer.from(expected.get('talker.eager.fp32.onnx')!).equals(Buffer.from(defaultSeed.get('talker.eager.fp32.onnx')!))).toBe(false);
    expect(manifestOf(out).description).toMatch(/^Demo architecture, custom config \(.*\), seed 7: untrained/);
  }, 60_000);

  it('at the demo sizes another seed is not called the built-in bundle; 0 and 4294967295 are seeds', async () => {
    const out = join(dir, 'demo-seed-0');
    const run = await runParity(['bundle', 'build-demo', '--out', out, '--seed', '0'], { timeoutMs: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(manifestOf(out)).toMatchObject({
      name: 'demo-custom',
      description: expect.stringMatching(/^Demo architecture at the built-in sizes, seed 0 \(the built-in bundle's is 20240611\): untrained/),
    });
    const top = join(dir, 'small-seed-max');
    const max = await runParity(['bundle', 'build-demo', '--config', smallConfig, '--out', top, '--seed', '4294967295'], { timeoutMs: 60_000 });
    expect(max.status, max.stderr).toBe(0);
    expect(manifestOf(top).description).toContain('seed 4294967295:');
  }, 60_000);

  it('a seed that is not an integer in [0, 2^32 - 1] (the weight hash is 32-bit) is one line, exit 2, nothing written', async () => {
    const out = join(dir, 'not-written');
    for (const seed of ['x', '-1', '1.5', '4294967296']) {
      const run = await runParity(['bundle', 'build-demo', '--out', out, '--seed', seed]);
      expect(run.stderr).toBe(`parity bundle build-demo: --seed ${seed}: expected an integer seed in [0, 4294967295], found "${seed}"\n`);
      expect(run.status).toBe(2);
    }
    expect(existsSync(out)).toBe(false);
  });
});
