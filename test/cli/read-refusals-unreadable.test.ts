import { chmodSync, cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveDemoBundle } from '../../electron/engine/engine.js';
import { mapLimit, runParity, type ParityRun } from './run-parity.js';

// Issue 27 item 3, the unreadable file: every reader the CLI reaches, given a file its user may not read,
// ends with one line naming the file and "permission denied" (exit 2). Root reads any file whatever its
// mode, so when the tests run as root the command runs as nobody (65534), which cannot.
// The other bad files (FIFO, link to /dev/zero, link outside, folder) are walked in-process by
// test/unit/engine/read-refusals.test.ts.

const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
let root: string;
let demo: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'read-unreadable-'));
  chmodSync(root, 0o777); // outputs are written beside the inputs
  demo = await resolveDemoBundle();
}, 120_000);

/** A folder the other user may enter, with `files` written in it; `locked` is then made unreadable. */
function folder(name: string, files: Record<string, string>, locked: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text, { mode: 0o644 });
  chmodSync(join(dir, locked), 0o000);
  return join(dir, locked);
}

const SHARD_HEADER = '{"schema":"tts-parity-sweep-shard/1"}\n';

/** A gate reports a fixture it cannot read as failed (exit 1, docs/gate.md), with the reason on its line. */
const CASES: Record<string, () => { args: string[]; locked: string; status?: number }> = {
  'bundle check: bundle.json': () => {
    const locked = folder('bundle-json', { 'bundle.json': '{}' }, 'bundle.json');
    return { args: ['bundle', 'check', join(root, 'bundle-json')], locked };
  },
  'bundle check: a model file': () => {
    const dir = join(root, 'bundle-model');
    cpSync(demo, dir, { recursive: true });
    chmodSync(dir, 0o755);
    const locked = join(dir, 'vocoder.fp32.onnx');
    chmodSync(locked, 0o000);
    return { args: ['bundle', 'check', dir], locked };
  },
  'sweep merge: a shard file': () => {
    const locked = folder('shards', { 'shard-001-of-1.jsonl': SHARD_HEADER }, 'shard-001-of-1.jsonl');
    return { args: ['sweep', 'merge', join(root, 'shards'), '--out', join(root, 'merged')], locked };
  },
  "gate: a fixture's report.json": () => {
    const locked = folder('fixture', { 'report.json': '{}', 'a.wav': '' }, 'report.json');
    return { args: ['gate', join(root, 'fixture')], locked, status: 1 };
  },
  'compare-wav: a WAV': () => {
    const locked = folder('wavs', { 'a.wav': 'RIFF', 'b.wav': 'RIFF' }, 'a.wav');
    return { args: ['compare-wav', locked, join(root, 'wavs', 'b.wav')], locked };
  },
  'compare-trace: a trace': () => {
    const locked = folder('traces', { 'a.jsonl': '{}\n', 'b.jsonl': '{}\n' }, 'a.jsonl');
    return { args: ['compare-trace', locked, join(root, 'traces', 'b.jsonl')], locked };
  },
  'bundle build-demo: its --config': () => {
    const locked = folder('config', { 'config.json': '{}' }, 'config.json');
    return { args: ['bundle', 'build-demo', '--config', locked, '--out', join(root, 'built')], locked };
  },
};

describe('an unreadable file, through every CLI reader: exit 2, one line naming it', () => {
  it('each command refuses it in one line', async () => {
    const cases = Object.entries(CASES).map(([name, make]) => ({ name, ...make() }));
    const runs = await mapLimit(cases, 2, (c) => runParity(c.args, { ...asNobody, timeoutMs: 60_000 }));
    const seen = (run: ParityRun, locked: string) => ({
      status: run.status,
      signal: run.signal,
      // "<path>: [what it is: ]cannot read (permission denied)"
      names: new RegExp(`${locked.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ([^:]+: )?cannot read \\(permission denied\\)`).test(`${run.stdout}${run.stderr}`),
      stackTrace: /\n\s+at |internal error/.test(run.stderr),
    });
    const expected = cases.map((c) => ({ name: c.name, status: c.status ?? 2, signal: null, names: true, stackTrace: false }));
    expect(cases.map((c, i) => ({ name: c.name, ...seen(runs[i], c.locked) }))).toEqual(expected);
    // The refusals (exit 2) are one line each.
    expect(runs.filter((r) => r.status === 2 && r.stderr.trim().split('\n').length !== 1)).toEqual([]);
  }, 180_000);
});
