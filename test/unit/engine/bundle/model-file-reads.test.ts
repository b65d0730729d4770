import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle } from '../../../../electron/engine/bundle/load-bundle.js';
import { writeDemoBundle } from '../../../../electron/engine/demo/build-demo-bundle.js';

// Model files are read whole, so each must be a regular file inside the bundle: a link to /dev/zero
// grew past 1 GB and a FIFO would block forever; a link out of the folder is refused as "../" is.
let source = '';
const outside = mkdtempSync(join(tmpdir(), 'bundle-outside-'));

beforeAll(async () => {
  source = await mkdtemp(join(tmpdir(), 'bundle-reads-'));
  await writeDemoBundle(source);
});
afterAll(async () => {
  await rm(source, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

/** A copy of the demo bundle whose embed.onnx is replaced by what `plant` makes at the given path. */
async function bundleWithEmbed(plant: (path: string) => void): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'bundle-planted-'));
  execFileSync('cp', ['-r', `${source}/.`, dir]);
  rmSync(join(dir, 'embed.onnx'));
  plant(join(dir, 'embed.onnx'));
  return dir;
}

/** Stands for the case's bundle folder in the expected words. */
const dir0 = '<bundle>';

describe('loadBundle reads model files only when they are regular files inside the bundle', () => {
  it.each([
    ['a link to /dev/zero', (p: string) => symlinkSync('/dev/zero', p), `a link to /dev/zero, outside the bundle folder (${dir0})`],
    ['a FIFO', (p: string) => execFileSync('mkfifo', [p]), 'not a regular file (a FIFO (named pipe))'],
    ['a link to a file outside the bundle', (p: string) => {
      copyFileSync(join(source, 'embed.onnx'), join(outside, 'embed.onnx'));
      symlinkSync(join(outside, 'embed.onnx'), p);
    }, `a link to ${join(outside, 'embed.onnx')}, outside the bundle folder (${dir0})`],
  ])('%s is refused in one line naming the file', async (_what, plant, words) => {
    const dir = await bundleWithEmbed(plant);
    try {
      const before = process.memoryUsage().rss;
      await expect(loadBundle(dir)).rejects.toThrow(`${join(dir, 'embed.onnx')}: model file of embed: ${words.replace(dir0, dir)}`);
      expect(process.memoryUsage().rss - before).toBeLessThan(256 * 2 ** 20);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a link to a file inside the bundle still loads', async () => {
    const dir = await bundleWithEmbed((p) => {
      copyFileSync(join(source, 'embed.onnx'), join(p, '..', 'embed-real.onnx'));
      symlinkSync('embed-real.onnx', p);
    });
    try {
      await expect(loadBundle(dir)).resolves.toMatchObject({ dir: expect.any(String) });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
