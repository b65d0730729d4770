#!/usr/bin/env node
// `npm run test:python`: pytest over python/tests on the project's environment (.venv, built or reused by
// scripts/python-env.js from the pinned locks). PARITY_PYTHON names another interpreter instead (it must have
// the packages of python/requirements/dev.in). Arguments go to pytest.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function projectPython() {
  if (process.env.PARITY_PYTHON) return process.env.PARITY_PYTHON;
  const env = spawnSync(process.execPath, [join(root, 'scripts', 'python-env.js')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (env.status !== 0) process.exit(env.status ?? 2);
  return env.stdout.trim().split('\n').pop();
}

const python = projectPython();
const run = spawnSync(python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', ...process.argv.slice(2)], {
  cwd: join(root, 'python'),
  stdio: 'inherit',
  env: { ...process.env, PARITY_REPO_ROOT: root, HF_HUB_OFFLINE: '1', TRANSFORMERS_OFFLINE: '1' },
});
process.exit(run.status ?? 1);
