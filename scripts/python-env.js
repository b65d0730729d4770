#!/usr/bin/env node
// The project's Python environment: .venv at the repository root, built from python/requirements/*.lock
// (pinned, hashed) and reused while the locks are unchanged (their SHA-256 is kept in .venv/lock.sha256).
// pip installs the pinned `uv` (bootstrap.lock); uv installs dev.lock exactly (`uv pip sync`, hashes
// required) and no-deps.lock without dependencies. Prints the interpreter's path on the last line of stdout.
//   node scripts/python-env.js            build or reuse, print .venv/bin/python
//   node scripts/python-env.js --check    exit 0 when .venv is current, 1 when it would be rebuilt
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const venv = join(root, '.venv');
const python = join(venv, 'bin', 'python');
const uv = join(venv, 'bin', 'uv');
const locks = ['bootstrap.lock', 'dev.lock', 'no-deps.lock'].map((name) => join(root, 'python', 'requirements', name));
const stampFile = join(venv, 'lock.sha256');
const say = (line) => console.error(`python-env: ${line}`);

function lockHash() {
  const hash = createHash('sha256');
  for (const lock of locks) hash.update(readFileSync(lock));
  return hash.digest('hex');
}

function run(command, args, what) {
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], cwd: root });
  if (result.status !== 0) {
    say(`${what} failed (${command} ${args.join(' ')}: ${result.error?.message ?? `exit ${result.status}`})`);
    process.exit(2);
  }
  say(`${what}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** The interpreter the venv is made from: PARITY_BASE_PYTHON, else python3.11 or python3 on PATH. */
function basePython() {
  const candidates = process.env.PARITY_BASE_PYTHON ? [process.env.PARITY_BASE_PYTHON] : ['python3.11', 'python3'];
  for (const candidate of candidates) {
    const probe = spawnSync(candidate, ['-c', 'import sys, venv; print("%d.%d" % sys.version_info[:2])'], { encoding: 'utf8' });
    if (probe.status === 0 && probe.stdout.trim() === '3.11') return candidate;
  }
  say(`no Python 3.11 with the venv module (tried ${candidates.join(', ')}; the locks are for CPython 3.11 on Linux x86_64). ` +
    'Debian: apt-get install python3 python3-venv, or set PARITY_BASE_PYTHON');
  process.exit(2);
}

const wanted = lockHash();
const current = existsSync(stampFile) && existsSync(python) ? readFileSync(stampFile, 'utf8').trim() : '';
if (process.argv.includes('--check')) process.exit(current === wanted ? 0 : 1);

if (current === wanted) {
  say(`.venv is current (locks ${wanted.slice(0, 12)})`);
} else {
  say(current ? 'the locks changed: rebuilding .venv' : 'building .venv (first run: ~3 GB of wheels from PyPI, torch is a CUDA build)');
  rmSync(venv, { recursive: true, force: true });
  const requirements = join(root, 'python', 'requirements');
  run(basePython(), ['-m', 'venv', venv], 'venv');
  run(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--require-hashes', '--no-deps',
    '-r', join(requirements, 'bootstrap.lock')], 'uv (pip)');
  run(uv, ['pip', 'sync', '--quiet', '--python', python, '--require-hashes', join(requirements, 'dev.lock')], 'dev.lock (uv pip sync)');
  run(uv, ['pip', 'install', '--quiet', '--python', python, '--require-hashes', '--no-deps',
    '-r', join(requirements, 'no-deps.lock')], 'no-deps.lock');
  writeFileSync(stampFile, `${wanted}\n`);
}
console.log(python);
