import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runParity, type ParityRun } from './run-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-interrupt-'));
const fixture = join(dir, 'fixture');
// 128 bytes, the demo's limit: the longest synthesis it runs, and recompute is its slowest cache mode.
const LONG = 'x'.repeat(128);
beforeAll(async () => {
  expect((await runParity(['compare', '--text', 'Hi.', '--a', 'graph', '--b', 'eager', '--out', fixture])).status).toBe(0);
}, 30_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Test-side hook (as run-parity's RSS hook): touches PARITY_TEST_SIGINT_FILE when parity adds its SIGINT
// listener, so the signal is sent during the work, not to Node still loading (whose default is a silent exit).
const SIGINT_HOOK =
  'data:text/javascript,import fs from "node:fs";process.on("newListener",(n)=>{if(n==="SIGINT")fs.writeFileSync(process.env.PARITY_TEST_SIGINT_FILE,"")})';

/** Starts parity and sends Ctrl-C's signal as soon as parity's own handler is in place. */
async function interrupt(args: string[]): Promise<ParityRun> {
  const markerDir = mkdtempSync(join(tmpdir(), 'parity-sigint-'));
  const marker = join(markerDir, 'listening');
  const run = await runParity(args, {
    timeoutMs: 30_000,
    env: { PARITY_TEST_SIGINT_FILE: marker },
    imports: [SIGINT_HOOK],
    whileRunning: (child) => {
      const poll = setInterval(() => {
        if (existsSync(marker)) {
          clearInterval(poll);
          child.kill('SIGINT');
        }
      }, 5);
      return () => clearInterval(poll);
    },
  });
  rmSync(markerDir, { recursive: true, force: true });
  return run;
}

describe('Ctrl-C and --force', () => {
  it('Ctrl-C during compare --out: exit 130, one line, no folder and no temporary left', async () => {
    const out = join(dir, 'interrupted');
    const run = await interrupt(['compare', '--text', LONG, '--a', 'eager', '--b', 'graph,cache=recompute', '--out', out]);
    expect(run.stderr).toBe('parity compare: interrupted (SIGINT); no output was left half-written\n');
    expect(run.status).toBe(130);
    expect(run.stdout).toBe('');
    expect(readdirSync(dir).sort()).toEqual(['fixture']);
  }, 30_000);

  it('Ctrl-C during gate: exit 130 and how far it got', async () => {
    const run = await interrupt(['gate', fixture]);
    expect(run.stderr).toBe('parity gate: interrupted (SIGINT); 0 of 1 fixtures checked, 0 failed\n');
    expect(run.status).toBe(130);
  }, 30_000);

  it('--force never replaces a folder of other files or a file, and says so before any work', async () => {
    const home = join(dir, 'home');
    mkdirSync(join(home, 'src'), { recursive: true });
    writeFileSync(join(home, 'thesis.txt'), 'keep');
    const started = Date.now();
    const run = await runParity(['compare', '--text', LONG, '--a', 'eager', '--b', 'graph,cache=recompute', '--out', home, '--force']);
    expect(run.stderr).toBe(`parity compare: ${home} is not a fixture folder (it holds src/, thesis.txt); --force replaces only a fixture folder, choose another --out\n`);
    expect(run.status).toBe(2);
    // Refused before the bundle is opened (a comparison of 128 bytes takes over a second here).
    expect(Date.now() - started).toBeLessThan(5000);
    expect(readdirSync(home).sort()).toEqual(['src', 'thesis.txt']);
    const file = join(home, 'thesis.txt');
    const onFile = await runParity(['compare-wav', join(fixture, 'a.wav'), join(fixture, 'b.wav'), '--out', file, '--force']);
    expect(onFile.stderr).toBe(`parity compare-wav: ${file} is a file; give a folder path for the fixture\n`);
    expect(onFile.status).toBe(2);
    expect(readFileSync(file, 'utf8')).toBe('keep');
    // A fixture folder is replaced with --force, as before.
    expect((await runParity(['compare-wav', join(fixture, 'a.wav'), join(fixture, 'b.wav'), '--out', join(dir, 'again')])).status).toBe(0);
    expect((await runParity(['compare-wav', join(fixture, 'a.wav'), join(fixture, 'b.wav'), '--out', join(dir, 'again'), '--force'])).status).toBe(0);
    expect(existsSync(join(dir, 'again', 'report.json'))).toBe(true);
  }, 30_000);

  it('gate names a file given as a fixture folder', async () => {
    const run = await runParity(['gate', join(fixture, 'a.wav')]);
    expect(run.stderr).toBe(`parity gate: ${join(fixture, 'a.wav')}: is a file; give a fixture folder (with report.json) or a folder of them\n`);
    expect(run.status).toBe(2);
  });
});
