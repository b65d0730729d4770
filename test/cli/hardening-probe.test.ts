import { execFileSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mapLimit, runParity } from './run-parity.js';

// Issue 38's probe, kept as a table: each row is one member of a class (terminal hygiene, output paths
// that are links, what a path really is, WAV sizes, and the classes that held: arguments, output rules).
// Every row expects the documented exit code, one line on stderr naming the problem, no stack trace and
// no raw control character (C0 but newline, DEL, C1) anywhere in what was printed.

const dir = mkdtempSync(join(tmpdir(), 'parity-probe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string | Uint8Array) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const header = (engine: string) => JSON.stringify({ schema: 'tts-parity-trace/1', engine, q: 2, frameRate: 12.5, sampleRate: 24000 });
const step = (n: number, codes: number[]) => JSON.stringify({ step: n, codes });
const hostile = file('hostile.jsonl', [header('eng\u001b[2J\u009b31m\u0007'), step(1, [1, 2]), step(2, [3, 4])].join('\n') + '\n');
const plain = file('plain.jsonl', [header('plain'), step(1, [1, 2]), step(2, [3, 5])].join('\n') + '\n');
const badSchema = file('bad-schema.jsonl', [JSON.stringify({ schema: 'x\u001b[2J\u009b' }), step(1, [1, 2])].join('\n') + '\n');

/** A WAV whose RIFF size (36) is far smaller than its data chunk's declared 57,600,000 bytes. */
function riffSmallerThanData(): Uint8Array {
  const b = Buffer.alloc(44 + 16);
  b.write('RIFF', 0);
  b.writeUInt32LE(36, 4);
  b.write('WAVE', 8);
  b.write('fmt ', 12);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(24000, 24);
  b.writeUInt32LE(48000, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36);
  b.writeUInt32LE(57_600_000, 40);
  return b;
}

const fifo = join(dir, 'a-fifo');
execFileSync('mkfifo', [fifo]);
const dangling = join(dir, 'dangling.wav');
symlinkSync(join(dir, 'nowhere', 'target.wav'), dangling);
const existing = file('existing.wav', 'x');

interface Row {
  what: string;
  args: string[];
  status: number;
  /** What stdout or stderr must contain (control characters shown as escapes). */
  says: string;
}
const rows: Row[] = [
  { what: 'terminal: ESC[2J, CSI and BEL in an engine name, summary line', args: ['compare-trace', hostile, plain], status: 0, says: 'eng\\u001b[2J\\u009b31m\\u0007' },
  { what: 'terminal: controls in an error quoting file content', args: ['compare-trace', badSchema, plain], status: 2, says: 'schema "x\\u001b[2J\\u009b"' },
  { what: 'terminal: controls in a path quoted by an error', args: ['compare-trace', join(dir, 'no\u001b[2Jsuch.jsonl'), plain], status: 2, says: 'no\\u001b[2Jsuch.jsonl' },
  { what: 'output: --out onto a dangling link is refused without --force', args: ['synth', '--text', 'hi', '--out', dangling], status: 2, says: `--out ${dangling}: is a symbolic link to ${join(dir, 'nowhere', 'target.wav')}, which does not exist (use --force to replace the link)` },
  { what: 'output: an existing --out without --force', args: ['synth', '--text', 'hi', '--out', existing], status: 2, says: 'already exists (use --force to replace it)' },
  { what: 'path kind: gate on a FIFO says it is one', args: ['gate', fifo], status: 2, says: `${fifo}: is a FIFO (named pipe), not a folder` },
  { what: 'WAV: RIFF size smaller than the data chunk names the RIFF size', args: ['compare-wav', file('riff-small.wav', riffSmallerThanData()), file('riff-small-b.wav', riffSmallerThanData())], status: 2, says: 'declares 57600000 bytes but only 0 remain in the RIFF chunk (its declared RIFF size 36 ends it at byte 44; the file has 60 bytes)' },
  { what: 'arguments: an unknown option', args: ['compare-trace', plain, plain, '--no-such-flag'], status: 2, says: "unknown option '--no-such-flag'" },
  { what: 'arguments: a missing argument', args: ['compare-trace', plain], status: 2, says: "missing required argument" },
];

describe('hardening probe: one row per member of each class', () => {
  it('every row: documented exit code, the words, no stack, no raw control character', async () => {
    const runs = await mapLimit(rows, 2, (row) => runParity(row.args, { timeoutMs: 60_000 }));
    for (const [i, row] of rows.entries()) {
      const run = runs[i];
      const printed = run.stdout + run.stderr;
      expect({ what: row.what, status: run.status }).toEqual({ what: row.what, status: row.status });
      expect(printed, row.what).toContain(row.says);
      expect(RAW_CONTROL.test(printed), `${row.what}: a raw control character was printed`).toBe(false);
      expect(printed, row.what).not.toMatch(/internal error|\n\s+at /);
      if (row.status === 2) expect(run.stderr, row.what).toMatch(/^parity [a-z-]+: [^\n]+\n$/);
    }
    // Nothing was lost: the link is still the link, the existing file still its byte.
    expect(lstatSync(dangling).isSymbolicLink()).toBe(true);
    expect(readlinkSync(dangling)).toBe(join(dir, 'nowhere', 'target.wav'));
  }, 180_000);

  it('--force replaces the dangling link itself (the file it named is not created)', async () => {
    const link = join(dir, 'forced.wav');
    symlinkSync(join(dir, 'elsewhere.wav'), link);
    const run = await runParity(['synth', '--text', 'hi', '--out', link, '--force'], { timeoutMs: 60_000 });
    expect(run.status).toBe(0);
    expect(lstatSync(link).isFile()).toBe(true);
    expect(() => lstatSync(join(dir, 'elsewhere.wav'))).toThrow();
  }, 60_000);
});
