import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeWav } from '../../electron/common/wav/decode-wav.js';

// The package as `npm pack` makes it (dist/ is built by the test setup), installed with
// `npm install -g --prefix` into a temporary prefix and run from a folder outside the checkout.
const root = mkdtempSync(join(tmpdir(), 'parity-installed-'));
const prefix = join(root, 'prefix');
const work = join(root, 'work');
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * The environment of the npm and parity children: no npm_* variables inherited from an `npm exec`
 * around vitest (they carry this checkout's prefix and .npmrc settings into the child npm), the
 * installed bin first on PATH, a private demo-bundle cache, and ORT's CUDA download skipped.
 */
function childEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  return { ...env, PATH: `${join(prefix, 'bin')}${delimiter}${env.PATH ?? ''}`, PARITY_CACHE_DIR: join(root, 'cache'), ONNXRUNTIME_NODE_INSTALL: 'skip' };
}

function parity(args: string[], timeout = 60_000): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync('parity', args, { cwd: work, env: childEnv(), encoding: 'utf8', timeout });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

beforeAll(() => {
  mkdirSync(work);
  const started = Date.now();
  // --ignore-scripts: `prepare` would rebuild dist/, which the setup has just built.
  const packed = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', root], { cwd: process.cwd(), env: childEnv(), encoding: 'utf8' });
  const tarball = join(root, (JSON.parse(packed) as { filename: string }[])[0].filename);
  // --prefer-offline: tarballs come from the cache `npm ci` filled; the registry is asked only for what
  // the cache lacks (package documents: `npm ci` stores tarballs only, so --offline fails here).
  execFileSync('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball], { cwd: root, env: childEnv(), encoding: 'utf8', stdio: 'pipe' });
  console.log(`installable-package: pack + install took ${((Date.now() - started) / 1000).toFixed(1)} s`);
}, 180_000);

describe('the packed parity CLI, installed with npm install -g', () => {
  it('prints its help from a folder outside the checkout', () => {
    const run = parity(['--help']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Usage: parity \[options\] \[command\]/);
    for (const command of ['synth', 'compare', 'serve', 'gate']) expect(run.stdout).toContain(`\n  ${command} `);
  });

  it('synthesizes a WAV on the embedded demo bundle', () => {
    const run = parity(['synth', '--text', 'hi', '--out', 'x.wav']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const wav = decodeWav(new Uint8Array(readFileSync(join(work, 'x.wav'))), 'x.wav');
    expect(wav.sampleRate).toBe(24000);
    expect(wav.channels[0].length).toBeGreaterThan(0);
  });

  it('compares, and report.md reproduces with the installed `parity` command', () => {
    const run = parity(['compare', '--text', 'hi', '--a', 'graph', '--b', 'graph', '--out', 'cmp']);
    expect(run.status).toBe(0);
    const md = readFileSync(join(work, 'cmp', 'report.md'), 'utf8');
    const reproduce = /### Reproduce\n\n```sh\n(.*)\n```/.exec(md)?.[1];
    // Paths absolute against the folder the command ran in, so the lines run from any folder.
    const here = realpathSync(work);
    expect(reproduce).toBe(`parity compare --text hi --a graph --b graph --seed 0 --out ${here}/cmp-rerun`);
    expect(md).toContain(`\`\`\`sh\nparity gate ${here}/cmp\n\`\`\``);
    // report.html inlines the report page, which only the package's dist/report-page can supply.
    const page = readFileSync('dist/report-page/report-page.js', 'utf8').slice(0, 200);
    expect(readFileSync(join(work, 'cmp', 'report.html'), 'utf8').includes(page), 'report.html inlines dist/report-page/report-page.js').toBe(true);
    // As a user pastes it, from another folder, through a shell where the install put `parity` on PATH.
    const rerun = spawnSync('sh', ['-c', reproduce!], { cwd: root, env: childEnv(), encoding: 'utf8', timeout: 60_000 });
    expect(rerun.status).toBe(0);
    expect(readFileSync(join(work, 'cmp-rerun', 'report.md'), 'utf8')).toContain(`parity gate ${here}/cmp-rerun`);
  });

  it('run by its path with its bin folder not on PATH, report.md names node and the installed launcher, and that runs', () => {
    const env = { ...childEnv(), PATH: process.env.PATH ?? '' };
    const run = spawnSync(join(prefix, 'bin', 'parity'), ['compare', '--text', 'hi', '--a', 'graph', '--b', 'graph', '--out', 'off-path'], { cwd: work, env, encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    const launcher = join(prefix, 'lib', 'node_modules', 'tts-parity-studio', 'bin', 'parity.js');
    const reproduce = /### Reproduce\n\n```sh\n(.*)\n```/.exec(readFileSync(join(work, 'off-path', 'report.md'), 'utf8'))?.[1];
    expect(reproduce).toBe(`node ${launcher} compare --text hi --a graph --b graph --seed 0 --out ${realpathSync(work)}/off-path-rerun`);
    // Through a shell that has no `parity` at all.
    const rerun = spawnSync('sh', ['-c', reproduce!], { cwd: work, env, encoding: 'utf8', timeout: 60_000 });
    expect(rerun.status, rerun.stderr).toBe(0);
  });

  it('serves the studio page and its script', async () => {
    const child = spawn('parity', ['serve', '--port', '0', '--data-dir', join(root, 'history')], { cwd: work, env: childEnv() });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        let err = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const found = /browser mode\): (http\S+)/.exec(out);
          if (found) resolve(found[1]);
        });
        child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
        child.on('exit', (code) => reject(new Error(`parity serve exited ${code}: ${err}`)));
      });
      const page = await fetch(url);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('<title>TTS Parity Studio</title>');
      const script = /src="\.\/(assets\/index-[^"]+\.js)"/.exec(html)![1];
      const cookie = page.headers.get('set-cookie')!.split(';')[0];
      const asset = await fetch(new URL(script, url), { headers: { cookie } });
      expect(asset.status).toBe(200);
      expect((await asset.text()).length).toBeGreaterThan(10_000);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
