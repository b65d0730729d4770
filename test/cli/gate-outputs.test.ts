import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mapLimit, runParity } from './run-parity.js';

// Issue 27 item 4: `gate --html/--junit FILE` replaced an existing file (or a FIFO, or a fixture's own
// report.html) without --force, and --html and --junit could name the same path. Both now go through the
// CLI's one writer (write-output.ts) with the rules of every --out: an existing file only with --force;
// never a folder, device or FIFO; never an input (a fixture folder or a file in it); never the same path twice.

const dir = mkdtempSync(join(tmpdir(), 'gate-outputs-'));
// Refusals come before any fixture is re-run, so the fixture need only be a folder with a report.json.
const fixture = join(dir, 'fixture');
mkdirSync(fixture);
writeFileSync(join(fixture, 'report.json'), '{"kind": "profiles"}');
writeFileSync(join(fixture, 'report.html'), 'THE FIXTURE REPORT');
const existing = join(dir, 'existing.html');
const fifo = join(dir, 'fifo.xml');
execFileSync('mkfifo', [fifo]);

const REFUSED: [string, string[], string][] = [
  ['--html on an existing file', ['--html', existing], `--html ${existing}: already exists (use --force to replace it)`],
  ['--junit on an existing file', ['--junit', existing], `--junit ${existing}: already exists (use --force to replace it)`],
  ['--html and --junit on one path', ['--html', join(dir, 'same'), '--junit', join(dir, 'same')], `--junit ${join(dir, 'same')}: the same file as --html; give each output its own path`],
  ['--junit on a FIFO, --force', ['--junit', fifo, '--force'], `--junit ${fifo}: is not a regular file (a device, FIFO or socket); give a file path`],
  ['--html on /dev/null, --force', ['--html', '/dev/null', '--force'], '--html /dev/null: is not a regular file (a device, FIFO or socket); give a file path'],
  ["--html on the fixture's report.html, --force", ['--html', join(fixture, 'report.html'), '--force'], `--html ${join(fixture, 'report.html')}: is inside ${fixture}, an input of this command; write it elsewhere`],
  ['--junit on the fixture folder itself, --force', ['--junit', fixture, '--force'], `--junit ${fixture}: is a folder (give a file path)`],
  ['--junit on a new file inside the fixture', ['--junit', join(fixture, 'junit.xml')], `--junit ${join(fixture, 'junit.xml')}: is inside ${fixture}, an input of this command; write it elsewhere`],
];

describe('gate --html/--junit: the rules of every output', () => {
  it('each bad target is refused in one line (exit 2) before any fixture runs, and nothing is replaced', async () => {
    writeFileSync(existing, 'MINE');
    const runs = await mapLimit(REFUSED, 2, ([, args]) => runParity(['gate', fixture, ...args]));
    expect(runs.map((r) => [r.status, r.stderr, r.stdout])).toEqual(REFUSED.map(([, , line]) => [2, `parity gate: ${line}\n`, '']));
    expect(readFileSync(existing, 'utf8')).toBe('MINE');
    expect(readFileSync(join(fixture, 'report.html'), 'utf8')).toBe('THE FIXTURE REPORT');
  }, 120_000);

  it('with --force an existing file is replaced (the fake fixture fails: exit 1, both reports written)', async () => {
    writeFileSync(existing, 'MINE');
    const junit = join(dir, 'junit.xml');
    writeFileSync(junit, 'OLD');
    const run = await runParity(['gate', fixture, '--html', existing, '--junit', junit, '--force']);
    expect(run.status).toBe(1);
    expect(readFileSync(existing, 'utf8')).toMatch(/^<!doctype html>/i);
    expect(readFileSync(junit, 'utf8')).toMatch(/<testsuite/);
  }, 60_000);
});
