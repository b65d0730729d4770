#!/usr/bin/env node
// `npm test`'s Python half: runs python/tests with pytest on an interpreter that has the Python side's
// dependencies (numpy, jsonschema, torch, onnx, pytest; Debian: python3-torch python3-onnx python3-numpy
// python3-jsonschema python3-pytest, installed by .ci/run). PARITY_PYTHON names the interpreter; otherwise
// /usr/bin/python3 (Debian's, where apt puts torch) is tried before python3 on PATH (often a pyenv shim).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const needed = ['numpy', 'jsonschema', 'torch', 'onnx', 'pytest'];
const probe = `import importlib.util, sys; missing = [m for m in ${JSON.stringify(needed)} if importlib.util.find_spec(m) is None]; print(",".join(missing)); sys.exit(1 if missing else 0)`;

function candidates() {
  if (process.env.PARITY_PYTHON) return [process.env.PARITY_PYTHON];
  return ['/usr/bin/python3', 'python3'].filter((p) => !p.startsWith('/') || existsSync(p));
}

const tried = [];
let python;
for (const candidate of candidates()) {
  const result = spawnSync(candidate, ['-c', probe], { encoding: 'utf8' });
  if (result.status === 0) {
    python = candidate;
    break;
  }
  tried.push(result.error ? `${candidate}: ${result.error.message}` : `${candidate} lacks ${result.stdout.trim()}`);
}
if (!python) {
  console.error(`test-python: no Python with ${needed.join(', ')} (${tried.join('; ')}); on Debian: apt-get install python3-torch python3-onnx python3-numpy python3-jsonschema python3-pytest, or set PARITY_PYTHON`);
  process.exit(2);
}
const run = spawnSync(python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', ...process.argv.slice(2)], {
  cwd: join(root, 'python'),
  stdio: 'inherit',
  env: { ...process.env, PARITY_REPO_ROOT: root },
});
process.exit(run.status ?? 1);
