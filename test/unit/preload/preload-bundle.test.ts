import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// A sandboxed Electron preload can require nothing but 'electron' (electron-vite docs, "Limitations of
// Sandboxing"): the bundle must be one file. A schema module that imports heavier code (the FFT, say)
// makes Vite emit shared chunks the sandbox cannot load, which no other test would notice.
const out = mkdtempSync(join(tmpdir(), 'preload-bundle-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('the preload bundle (vite build --mode preload)', () => {
  it('is one CommonJS file that requires only electron', () => {
    execFileSync('npx', ['vite', 'build', '--mode', 'preload', '--outDir', out, '--emptyOutDir'], { stdio: 'pipe' });
    expect(readdirSync(out)).toEqual(['preload.cjs']);
    const requires = [...readFileSync(join(out, 'preload.cjs'), 'utf8').matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1]);
    expect([...new Set(requires)]).toEqual(['electron']);
  }, 60_000);
});
