// Where nvcc is: NVCC, then PATH, then the CUDA homes (CUDA_HOME, CUDA_PATH, /usr/local/cuda; PARITY_CUDA_DIRS
// replaces that list), then CUDA 13's compiler from PyPI in the project's .venv (nvidia-cuda-nvcc ships
// site-packages/nvidia/cu13/bin/nvcc; python/requirements/dev.in installs it). Used by build-native.js and
// the native tests, which run make in native/test with the same compiler.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** nvcc's path (undefined when none is found) and the places looked in. */
export function findNvcc(root) {
  const tried = [];
  if (process.env.NVCC) return { nvcc: process.env.NVCC, tried };
  const onPath = spawnSync('sh', ['-c', 'command -v nvcc'], { encoding: 'utf8' });
  if (onPath.status === 0 && onPath.stdout.trim()) return { nvcc: onPath.stdout.trim(), tried };
  tried.push('PATH');
  const homes = process.env.PARITY_CUDA_DIRS?.split(':') ?? [process.env.CUDA_HOME, process.env.CUDA_PATH, '/usr/local/cuda'];
  for (const home of homes.filter(Boolean)) {
    const candidate = join(home, 'bin', 'nvcc');
    if (existsSync(candidate)) return { nvcc: candidate, tried };
    tried.push(candidate);
  }
  const lib = join(root, '.venv', 'lib');
  const pythons = existsSync(lib) ? readdirSync(lib).filter((name) => name.startsWith('python')) : [];
  for (const python of pythons) {
    const candidate = join(lib, python, 'site-packages', 'nvidia', 'cu13', 'bin', 'nvcc');
    if (existsSync(candidate)) return { nvcc: candidate, tried };
  }
  tried.push(join(root, '.venv/lib/python3.*/site-packages/nvidia/cu13/bin/nvcc'));
  return { nvcc: undefined, tried };
}
