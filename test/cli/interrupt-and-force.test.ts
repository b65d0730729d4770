import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runParity, type ParityRun } from './run-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-interrupt-'));
const fixture = join(dir, 'fixture');
beforeAll(async () => {
  expect((await runParity(['compare', '--text', 'Hi.', '--a', 'graph', '--b', 'eager', '--out', fixture])).status).toBe(0);
}, 30_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Test-side hooks (as run-parity's RSS hook); each writes the file PARITY_TEST_MARKER when the signal
// should be sent. This one: when parity adds its SIGINT listener, so the signal lands during the work,
// not in Node still loading (whose default is a silent exit).
const LISTENING_HOOK =
  'data:text/javascript,import fs from "node:fs";process.on("newListener",(n)=>{if(n==="SIGINT")fs.writeFileSync(process.env.PARITY_TEST_MARKER,"")})';
// This one: once a file is in the temporary fixture folder, holding the write there (the marker holds its path).
const HOLD_WRITE_HOOK = pathToFileURL(join(import.meta.dirname, 'hooks', 'hold-fixture-write.mjs')).href;

/** Starts parity and sends Ctrl-C's signal as soon as `hook` writes its marker; returns the marker's text too. */
async function interrupt(args: string[], hook: string): Promise<ParityRun & { marker: string }> {
  const markerDir = mkdtempSync(join(tmpdir(), 'parity-sigint-'));
  const marker = join(markerDir, 'marker');
  const run = await runParity(args, {
    timeoutMs: 30_000,
    env: { PARITY_TEST_MARKER: marker },
    imports: [hook],
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
  const text = existsSync(marker) ? readFileSync(marker, 'utf8') : '';
  rmSync(markerDir, { recursive: true, force: true });
  return { ...run, marker: text };
}

const INTERRUPTED = (command: string) => `parity ${command}: interrupted (SIGINT); no output was left half-written\n`;

describe('Ctrl-C and --force', () => {
  it('Ctrl-C while compare --out writes its fixture: exit 130, one line, the temporary removed, no folder', async () => {
    const out = join(dir, 'interrupted');
    const run = await interrupt(['compare', '--text', 'Hi.', '--a', 'graph', '--b', 'eager', '--out', out], HOLD_WRITE_HOOK);
    expect(run.stderr).toBe(INTERRUPTED('compare'));
    expect(run.status).toBe(130);
    expect(run.stdout).toBe('');
    // The signal came while the temporary folder held a written file (the hook's marker names it).
    expect(run.marker.startsWith(join(dir, '.interrupted.tmp-'))).toBe(true);
    expect(existsSync(run.marker)).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['fixture']);
  }, 30_000);

  it('Ctrl-C while --force replaces a fixture: the old fixture is kept whole, the temporary removed', async () => {
    const old = join(dir, 'old');
    cpSync(fixture, old, { recursive: true });
    const before = readdirSync(old).map((name) => [name, readFileSync(join(old, name))]);
    const run = await interrupt(['compare-wav', join(fixture, 'a.wav'), join(fixture, 'b.wav'), '--out', old, '--force'], HOLD_WRITE_HOOK);
    expect(run.stderr).toBe(INTERRUPTED('compare-wav'));
    expect(run.status).toBe(130);
    expect(run.marker.startsWith(join(dir, '.old.tmp-'))).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['fixture', 'old']);
    expect(readdirSync(old).map((name) => [name, readFileSync(join(old, name))])).toEqual(before);
    rmSync(old, { recursive: true });
  }, 30_000);

  it('Ctrl-C during gate: exit 130 and how far it got', async () => {
    const run = await interrupt(['gate', fixture], LISTENING_HOOK);
    expect(run.stderr).toBe('parity gate: interrupted (SIGINT); 0 of 1 fixtures checked, 0 failed\n');
    expect(run.status).toBe(130);
  }, 30_000);

  it('--force never replaces a folder of other files or a file, and says so before any work', async () => {
    const home = join(dir, 'home');
    mkdirSync(join(home, 'src'), { recursive: true });
    writeFileSync(join(home, 'thesis.txt'), 'keep');
    // A bundle that does not exist fails when it is opened: the --out refusal printed instead shows
    // the target is checked before any work.
    const run = await runParity(['compare', '--text', 'Hi.', '--a', 'eager', '--b', 'graph', '--bundle', join(dir, 'no-bundle'), '--out', home, '--force']);
    expect(run.stderr).toBe(`parity compare: ${home} is not a fixture folder (it holds src/, thesis.txt); only a fixture folder is replaced, so change --out DIR\n`);
    expect(run.status).toBe(2);
    expect(readdirSync(home).sort()).toEqual(['src', 'thesis.txt']);
    const file = join(home, 'thesis.txt');
    // Likewise inputs that do not exist: the --out refusal comes first.
    const onFile = await runParity(['compare-wav', join(dir, 'no-a.wav'), join(dir, 'no-b.wav'), '--out', file, '--force']);
    expect(onFile.stderr).toBe(`parity compare-wav: ${file} is a file, not a folder; give a folder path for the fixture\n`);
    expect(onFile.status).toBe(2);
    expect(readFileSync(file, 'utf8')).toBe('keep');
    // A fixture folder is replaced with --force, as before.
    expect((await runParity(['compare-wav', join(fixture, 'a.wav'), join(fixture, 'b.wav'), '--out', join(dir, 'again')])).status).toBe(0);
    expect((await runParity(['compare-wav', join(fixture, 'a.wav'), join(fixture, 'b.wav'), '--out', join(dir, 'again'), '--force'])).status).toBe(0);
    expect(existsSync(join(dir, 'again', 'report.json'))).toBe(true);
  }, 30_000);

  it('gate names a file given as a fixture folder', async () => {
    const run = await runParity(['gate', join(fixture, 'a.wav')]);
    expect(run.stderr).toBe(`parity gate: ${join(fixture, 'a.wav')}: is a file, not a folder; give a fixture folder (with report.json) or a folder of them\n`);
    expect(run.status).toBe(2);
  });
});
