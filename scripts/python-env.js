#!/usr/bin/env node
// The project's Python environments, each built from pinned, hashed locks in python/requirements/ and reused
// while its locks (and the local packages it installs) are unchanged (their SHA-256 is kept in <env>/lock.sha256).
// pip installs the pinned `uv` (bootstrap.lock); uv installs the main lock exactly (`uv pip sync`, hashes
// required), the no-deps lock without dependencies, then the local packages editable without dependencies.
// Prints the interpreter's path on the last line of stdout.
//   node scripts/python-env.js [--env NAME]          build or reuse, print <env>/bin/python
//   node scripts/python-env.js [--env NAME] --check  exit 0 when the env is current, 1 when it would be rebuilt
// NAME: dev (default; .venv, torch 2.11 as on the GPU machines) or vllm (.venv-vllm: vLLM-Omni on vLLM's CPU
// build with torch 2.13, tts_parity and the CPU platform plugin fixture; python/tests/vllm_omni/).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const say = (line) => console.error(`python-env: ${line}`);

const environments = {
  dev: { folder: '.venv', sync: 'dev.lock', noDeps: 'no-deps.lock', local: [],
    first: '~3 GB of wheels from PyPI, torch is a CUDA build' },
  vllm: { folder: '.venv-vllm', sync: 'vllm.lock', noDeps: 'vllm-no-deps.lock',
    local: ['python', 'python/tests/vllm_omni/cpu_platform'], first: '~6 GB of wheels from PyPI, torch 2.13 (a CUDA build)' },
};

function chosenEnvironment() {
  const at = process.argv.indexOf('--env');
  const name = at < 0 ? 'dev' : process.argv[at + 1];
  if (!Object.hasOwn(environments, name)) {
    say(`unknown --env ${name ?? '(missing)'}; choose one of: ${Object.keys(environments).join(', ')}`);
    process.exit(2);
  }
  return { name, ...environments[name] };
}

const environment = chosenEnvironment();
const requirements = join(root, 'python', 'requirements');
const venv = join(root, environment.folder);
const python = join(venv, 'bin', 'python');
const uv = join(venv, 'bin', 'uv');
const stampFile = join(venv, 'lock.sha256');
const stamped = [
  ...['bootstrap.lock', environment.sync, environment.noDeps].map((name) => join(requirements, name)),
  ...environment.local.map((folder) => join(root, folder, 'pyproject.toml')),
];

function lockHash() {
  const hash = createHash('sha256');
  for (const file of stamped) hash.update(readFileSync(file));
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
  say(`${environment.folder} is current (locks ${wanted.slice(0, 12)})`);
} else {
  say(current ? `the locks changed: rebuilding ${environment.folder}` : `building ${environment.folder} (first run: ${environment.first})`);
  rmSync(venv, { recursive: true, force: true });
  run(basePython(), ['-m', 'venv', venv], 'venv');
  run(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--require-hashes', '--no-deps',
    '-r', join(requirements, 'bootstrap.lock')], 'uv (pip)');
  run(uv, ['pip', 'sync', '--quiet', '--python', python, '--require-hashes', join(requirements, environment.sync)],
    `${environment.sync} (uv pip sync)`);
  run(uv, ['pip', 'install', '--quiet', '--python', python, '--require-hashes', '--no-deps',
    '-r', join(requirements, environment.noDeps)], environment.noDeps);
  if (environment.local.length) {
    // Editable, so the tests run the working tree's code; setuptools comes from the lock (no build isolation).
    run(uv, ['pip', 'install', '--quiet', '--python', python, '--no-deps', '--no-build-isolation',
      ...environment.local.flatMap((folder) => ['-e', join(root, folder)])], 'local packages (editable)');
  }
  writeFileSync(stampFile, `${wanted}\n`);
}
console.log(python);
