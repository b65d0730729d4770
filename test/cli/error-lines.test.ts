import { describe, expect, it } from 'vitest';
import { mapLimit, runParity } from './run-parity.js';

/** Every usage error: exit 2 and exactly one line, "parity <command>: <message>", no stack. */
const cases: [args: string[], line: string][] = [
  [['bogus'], "parity: unknown command 'bogus'"],
  [['--bogus'], "parity: unknown option '--bogus'"],
  [['synth', '--text', 'hi'], "parity synth: required option '--out <file.wav>' not specified"],
  [['synth', '--text', 'hi', '--out', 'x.wav', '--wat'], "parity synth: unknown option '--wat'"],
  [['synth', '--text', 'hi', '--out', 'x.wav', '--seed', 'x'], 'parity synth: --seed x: expected an integer seed in [0, 4294967295], found "x"'],
  [['synth', '--text', 'hi', '--out', 'x.wav', '--top-p', '1.5'], 'parity synth: --top-p 1.5: expected top-p in (0, 1], found "1.5"'],
  [['compare', '--text', 'hi', '--a', 'eager', '--b', 'graph', '--temperature', '0'], 'parity compare: --temperature 0: expected a temperature in (0, 10], found "0"'],
  [['synth', '--text', 'hi', '--out', 'x.wav', '--profile', 'fault=stale-feedback@0'], 'parity synth: profile "fault=stale-feedback@0": fault "stale-feedback@0": the step must be an integer >= 2 (step 1 is the prefill, which has no audio feedback)'],
  [['bundle', 'check'], "parity bundle check: missing required argument 'dir'"],
  [['compare-trace', 'a.jsonl'], "parity compare-trace: missing required argument 'b'"],
];

describe('CLI error lines', () => {
  it('commander and our own errors share one format, one line, exit 2', async () => {
    const runs = await mapLimit(cases, 2, ([args]) => runParity(args));
    runs.forEach((run, i) => {
      expect(run.stderr, cases[i][0].join(' ')).toBe(cases[i][1] + '\n');
      expect(run.status, cases[i][0].join(' ')).toBe(2);
      expect(run.stdout).toBe('');
    });
  }, 60_000);

  it('synth --help: the prompt and outputs come first, no doubled defaults', async () => {
    const run = await runParity(['synth', '--help']);
    expect(run.status).toBe(0);
    const flags = [...run.stdout.matchAll(/^ {2}(--[a-z-]+)/gm)].map((m) => m[1]);
    expect(flags.slice(0, 2)).toEqual(['--text', '--out']);
    expect(flags.indexOf('--sampling')).toBeGreaterThan(flags.indexOf('--json'));
    expect(run.stdout).not.toContain('(default: "eager")');
  });

  it('no subcommand help states a default twice', async () => {
    const names = ['synth', 'compare', 'compare-trace', 'compare-wav', 'gate', 'bench', 'bundle check', 'bundle build-demo'];
    const runs = await mapLimit(names, 2, (name) => runParity([...name.split(' '), '--help']));
    runs.forEach((run, i) => {
      expect(run.status, names[i]).toBe(0);
      expect(run.stdout.replace(/\s+/g, ' '), names[i]).not.toMatch(/\(default[^)]*\) \(default: /);
    });
  }, 60_000);
});
