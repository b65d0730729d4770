import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The README as a first hour: every `npx parity` line of its sh blocks runs as written, in order, in a new
// folder that sees the checkout's docs/ and assets/ (the files the lines name), with `npx parity` as
// `node <checkout>/bin/parity.js` (what the README says it is). `serve` runs until it prints its URL. The
// `npm run bench*` lines (minutes) and the server install (npm pack, scp, npm install -g) are left out.
const README = readFileSync('README.md', 'utf8');
const PARITY = `node ${resolve('bin/parity.js')}`;
const dir = mkdtempSync(join(tmpdir(), 'parity-readme-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
symlinkSync(resolve('docs'), join(dir, 'docs'));
symlinkSync(resolve('assets'), join(dir, 'assets'));

/** The README's `npx parity …` lines, each without its trailing `# comment`. */
function readmeCommands(): string[] {
  const blocks = [...README.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  return blocks.flatMap((b) => b.split('\n')).filter((l) => l.startsWith('npx parity ')).map((l) => l.replace(/\s+#\s.*$/, '').trim());
}

const commands = readmeCommands();

describe('README commands', () => {
  it('finds the quick start, compare-wav and CI lines', () => {
    expect(commands.length).toBe(16);
    expect(commands).toContain('npx parity compare --text "Hello world, this is a parity test." --a eager --b graph --fail-on diverged --out ci-graph');
  });

  it('runs every line as written, each exiting 0', async () => {
    // Two chains side by side (2 cores): the quick start up to its gate lines, which read what the lines
    // before them wrote, and everything after it, in README order within each.
    const lastGate = commands.findLastIndex((c) => c.startsWith('npx parity gate '));
    const chains = [commands.slice(0, lastGate + 1), commands.slice(lastGate + 1)];
    const results = await Promise.all(chains.map(async (chain) => {
      const out: { command: string; status: number | null; stderr: string }[] = [];
      for (const command of chain) out.push(await runLine(command));
      return out;
    }));
    expect(results.flat()).toEqual(commands.map((command) => ({ command, status: 0, stderr: '' })));
  }, 300_000);
});

/** One README line in the folder: its exit status, and its stderr when it failed. */
async function runLine(command: string): Promise<{ command: string; status: number | null; stderr: string }> {
  const line = command.replace(/^npx parity /, `${PARITY} `);
  if (/^npx parity serve\b/.test(command)) {
    const out = await serveUntilUrl(line);
    return { command, status: /http:\/\/127\.0\.0\.1:\d+\//.test(out) ? 0 : null, stderr: '' };
  }
  return new Promise((done) => {
    const child = spawn('bash', ['-c', line], { cwd: dir, timeout: 120_000, killSignal: 'SIGKILL' });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => done({ command, status, stderr: status === 0 ? '' : stderr }));
  });
}

/** Starts `parity serve`, resolves with its stdout once it names its URL, and stops it. */
function serveUntilUrl(line: string): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn('bash', ['-c', `exec ${line}`], { cwd: dir });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`parity serve printed no URL in 60 s: ${out}`));
    }, 60_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (/http:\/\/127\.0\.0\.1:\d+\//.test(out)) {
        clearTimeout(timer);
        child.kill('SIGTERM');
        done(out);
      }
    });
  });
}
