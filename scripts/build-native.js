#!/usr/bin/env node
// npm run build:native: builds native/build/parity_native.node with nvcc (CUDA 12 or 13) and make.
// Where nvcc is missing it says so and exits 0 (npm ci and the rest of the build never need CUDA;
// backend=native then reports "native addon not built"); with --require it exits 1 instead.
// Exit 1 also when nvcc is found but the build fails.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findNvcc } from './find-nvcc.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const requireNvcc = process.argv.includes('--require') || process.env.PARITY_NATIVE_REQUIRED === '1';
const say = (line) => console.log(`build:native: ${line}`);

/** Node's headers: beside the running node, npm's nodedir, or node-gyp's cache (all offline). */
function findNodeHeaders() {
  const candidates = [join(dirname(process.execPath), '..', 'include', 'node')];
  if (process.env.npm_config_nodedir) candidates.push(join(process.env.npm_config_nodedir, 'include', 'node'));
  const home = process.env.HOME ?? '';
  candidates.push(join(home, '.cache', 'node-gyp', process.versions.node, 'include', 'node'));
  return { dir: candidates.find((d) => existsSync(join(d, 'node_api.h'))), candidates };
}

const { nvcc, tried } = findNvcc(root);
if (!nvcc) {
  say(`nvcc not found (looked in ${tried.join(', ')}; set NVCC or CUDA_HOME, or run 'node scripts/python-env.js', which installs CUDA 13's nvcc from PyPI): the native CUDA addon is NOT built.`);
  say('backend=native will report "native addon not built"; everything else works without it.');
  process.exit(requireNvcc ? 1 : 0);
}
const versionText = execFileSync(nvcc, ['--version'], { encoding: 'utf8' });
const release = /release (\d+)\.(\d+)/.exec(versionText);
const major = release ? Number(release[1]) : 0;
say(`nvcc ${nvcc}, CUDA ${release ? `${release[1]}.${release[2]}` : 'version unknown'}`);
if (major !== 12 && major !== 13) say(`warning: built and tested with CUDA 12 and 13 only; trying CUDA ${major || '?'} anyway`);

const headers = findNodeHeaders();
if (!headers.dir) {
  say(`Node headers (node_api.h) not found in ${headers.candidates.join(', ')}: cannot build the addon`);
  process.exit(1);
}
const napi = dirname(require.resolve('node-addon-api/package.json'));
const args = ['-C', join(root, 'native'), 'addon', `NVCC=${nvcc}`, `NODE_INCLUDE=${headers.dir}`, `NAPI_INCLUDE=${napi}`];
if (process.env.CUDA_ARCH) args.push(`CUDA_ARCH=${process.env.CUDA_ARCH}`);
const t0 = Date.now();
const make = spawnSync('make', args, { stdio: 'inherit' });
if (make.status !== 0) {
  say(`make failed (exit ${make.status ?? make.signal})`);
  process.exit(1);
}
const addon = join(root, 'native', 'build', 'parity_native.node');
say(`built ${addon} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
const probe = require(addon).probe();
if (probe.ok) say(`CUDA device: ${probe.deviceName} (${probe.deviceCount} device(s)); backend=native is available`);
else say(`the addon loads, but no CUDA device can be used here: ${probe.error}; backend=native will report this`);
