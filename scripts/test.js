#!/usr/bin/env node
// `npm test`: sets up what the tests need on a Debian machine, then runs every suite, and always all of them.
//   1. Debian packages (ffmpeg, sox, espeak-ng, chromium, slurm-wlm, munge, python3-venv): installed with
//      apt-get when running as root; otherwise one line naming the exact command, exit 2.
//   2. The Python environment (.venv from python/requirements/*.lock; scripts/python-env.js).
//   3. The native addon and its CPU emulation check (nvcc from .venv; scripts/build-native.js).
//   4. Suites: eslint, the TypeScript type checks, vitest (unit, CLI, end-to-end in Chromium, Slurm),
//      pytest (torch 2.x), ruff and mypy over the Python package (python/lint.sh), `cargo test` of the Rust
//      workspace (rust/: the trace writer crate and the Candle port; needs cargo, e.g. from rustup), and the
//      vLLM-Omni suite (pytest in its own torch 2.13 environment, .venv-vllm; scripts/test-vllm.js), then two
//      `vllm-omni serve` deployments compared by the CLI and the studio (vitest.vllm.config.ts).
// A failing suite does not stop the others; the closing lines report each one. Exit 0 when every suite
// passed, 1 when any failed, 2 when set-up could not be done. Arguments after `--` go to vitest
// (`npm test -- test/unit`), and then only vitest runs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const say = (line) => console.log(`test: ${line}`);
const seconds = (started) => `${((Date.now() - started) / 1000).toFixed(0)} s`;

/** Debian package → a command it provides (checked on PATH) or undefined (checked with dpkg). */
const debianPackages = {
  ffmpeg: 'ffmpeg', sox: 'sox', 'espeak-ng': 'espeak-ng', chromium: 'chromium',
  'slurm-wlm': 'slurmctld', munge: 'munged', 'python3-venv': undefined,
};

function missingPackages() {
  return Object.entries(debianPackages).filter(([pkg, command]) => {
    if (command && spawnSync('sh', ['-c', `command -v ${command}`]).status === 0) return false;
    const status = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
    return !(status.status === 0 && status.stdout.includes('install ok installed'));
  }).map(([pkg]) => pkg);
}

function installPackages() {
  const missing = missingPackages();
  if (!missing.length) return;
  const command = `apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  if (process.getuid?.() !== 0) {
    console.error(`test: missing Debian packages: ${missing.join(', ')}; install them with: sudo apt-get update && sudo ${command}`);
    process.exit(2);
  }
  say(`installing Debian packages: ${missing.join(' ')}`);
  const started = Date.now();
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', '--no-install-recommends', ...missing]]) {
    const result = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
    if (result.status !== 0) {
      console.error(`test: apt-get ${args[0]} failed (exit ${result.status}); run: ${command}`);
      process.exit(2);
    }
  }
  say(`Debian packages installed in ${seconds(started)}`);
}

function setUp() {
  installPackages();
  const env = spawnSync(process.execPath, [join(root, 'scripts', 'python-env.js')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (env.status !== 0) process.exit(2);
  const python = env.stdout.trim().split('\n').pop();
  const native = spawnSync(process.execPath, [join(root, 'scripts', 'build-native.js'), '--require'], { stdio: 'inherit' });
  if (native.status !== 0) {
    console.error('test: the native addon did not build (its lines above say why)');
    process.exit(2);
  }
  return python;
}

/** cargo on PATH, else rustup's default place (a shell that did not read ~/.cargo/env). */
function cargoCommand() {
  if (spawnSync('sh', ['-c', 'command -v cargo']).status === 0) return 'cargo';
  const home = join(homedir(), '.cargo', 'bin', 'cargo');
  return existsSync(home) ? home : 'cargo';
}

const results = [];
/** Runs one suite with inherited output; `count` turns its report file into a "N passed, M failed" text. */
function suite(name, command, args, count, extraEnv = {}) {
  say(`── ${name}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  const run = spawnSync(command, args, { stdio: 'inherit', cwd: root, env: { ...process.env, HF_HUB_OFFLINE: '1', TRANSFORMERS_OFFLINE: '1', ...extraEnv } });
  const passed = run.status === 0;
  let detail = passed ? 'passed' : `FAILED (${run.error?.message ?? `exit ${run.status ?? run.signal}`})`;
  try {
    if (count) detail += `: ${count()}`;
  } catch {
    detail += ': no report file';
  }
  results.push({ name, passed, line: `${name.padEnd(22)} ${detail}, ${seconds(started)}` });
}

const reports = mkdtempSync(join(tmpdir(), 'parity-test-'));
const vitestArgs = process.argv.slice(2);
const started = Date.now();
const python = setUp();
const bin = (name) => join(root, 'node_modules', '.bin', name);
const vitestReport = join(reports, 'vitest.json');
/** Failing and skipped tests by name, repeated under the summary (CI shows a log's last lines). */
const unfinished = [];
/** A pytest JUnit report as "N passed, M failed, K skipped" (the vllm-omni suite's; the python suite counts alike). */
const junitCount = (file) => {
  const xml = readFileSync(file, 'utf8');
  const suiteTag = /<testsuite [^>]*>/.exec(xml)[0];
  const attr = (key) => Number(new RegExp(` ${key}="(\\d+)"`).exec(suiteTag)[1]);
  for (const [, classname, name, kind, message] of xml.matchAll(/<testcase classname="([^"]*)" name="([^"]*)"[^>]*>\s*<(failure|error|skipped)(?: [^>]*?message="([^"]*)")?/g)) {
    unfinished.push(`${kind}: ${classname}::${name}${message ? ` — ${message.split('&#10;')[0].slice(0, 300)}` : ''}`);
  }
  const failed = attr('failures') + attr('errors');
  return `${attr('tests') - failed - attr('skipped')} passed, ${failed} failed, ${attr('skipped')} skipped`;
};
const vitestCount = (file = vitestReport) => {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  for (const file of report.testResults) {
    for (const test of file.assertionResults) {
      if (test.status === 'passed') continue;
      const why = (test.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 300);
      unfinished.push(`${test.status}: ${relative(root, file.name)} > ${test.fullName}${why ? ` — ${why}` : ''}`);
    }
  }
  return `${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests + report.numTodoTests} skipped of ${report.numTotalTests} in ${report.numTotalTestSuites} files`;
};

if (vitestArgs.length) {
  suite('typescript (vitest)', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`, ...vitestArgs], vitestCount);
} else {
  suite('eslint', bin('eslint'), ['.']);
  suite('typecheck', 'npm', ['run', '--silent', 'typecheck']);
  suite('typescript (vitest)', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`], vitestCount);
  const junit = join(reports, 'pytest.xml');
  suite('python (pytest)', process.execPath, [join(root, 'scripts', 'test-python.js'), `--junit-xml=${junit}`], () => junitCount(junit));
  suite('python lint (ruff, mypy)', 'sh', [join(root, 'python', 'lint.sh')], undefined, { PYTHON: python });
  suite('rust (cargo test)', cargoCommand(), ['test', '--locked', '--manifest-path', join(root, 'rust', 'Cargo.toml')], undefined, { PARITY_PYTHON: python });
  const vllmJunit = join(reports, 'pytest-vllm.xml');
  suite('vllm-omni (pytest)', process.execPath, [join(root, 'scripts', 'test-vllm.js'), `--junit-xml=${vllmJunit}`], () => junitCount(vllmJunit));
  // Two `vllm-omni serve` deployments compared by the CLI and the studio (test/vllm-omni/, in .venv-vllm as built just above).
  const vllmServers = join(reports, 'vitest-vllm.json');
  suite('vllm-omni servers (vitest)', bin('vitest'), ['run', '--config', 'vitest.vllm.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${vllmServers}`], () => vitestCount(vllmServers));
}
rmSync(reports, { recursive: true, force: true });

say(`── summary (${seconds(started)} in all)`);
for (const { line } of results) say(line);
for (const line of unfinished) say(line);
const failed = results.filter((r) => !r.passed);
say(failed.length ? `${failed.length} of ${results.length} suites FAILED: ${failed.map((r) => r.name).join(', ')}` : `all ${results.length} suites passed`);
process.exit(failed.length ? 1 : 0);
