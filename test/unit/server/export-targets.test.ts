import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { createDirectClient } from '../../../electron/common/api/create-client.js';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import { ParityError } from '../../../electron/common/errors.js';
import { encodeWav } from '../../../electron/common/wav/encode-wav.js';
import { StudioHost } from '../../../electron/host/studio-host.js';
import { startStudioServer, type RunningServer } from '../../../electron/server/studio-server.js';
import { ensureBuilt } from '../host/ensure-built.js';
import { connectBrowserClient } from './browser-client.js';

// Browser mode: the page names the export folder, so the server accepts only folders inside
// <data dir>/exports; the desktop app (the host called directly, as main/ipc.ts does) keeps any folder.
const root = mkdtempSync(join(tmpdir(), 'export-targets-'));
const exportsDir = join(root, 'data', 'exports');
let server: RunningServer;
let host: StudioHost;
let ws: WebSocket;
let browser: StudioApi;
let id: string;

beforeAll(async () => {
  ensureBuilt();
  host = new StudioHost({ dataDir: join(root, 'data') });
  server = await startStudioServer({ studio: host, staticDir: join(root, 'renderer'), port: 0 });
  ({ ws, studio: browser } = await connectBrowserClient(server));
  const tone = (f: number) => Float32Array.from({ length: 4800 }, (_, i) => 0.3 * Math.sin((2 * Math.PI * f * i) / 24000));
  const wav = (name: string, f: number) => ({ name, bytes: encodeWav([tone(f)], 24000, 'pcm16') });
  id = (await browser.importWavs({ a: wav('a.wav', 220), b: wav('b.wav', 230) })).historyId;
}, 60_000);
afterAll(async () => {
  ws?.close();
  await server?.close();
  await host?.dispose();
  rmSync(root, { recursive: true, force: true });
});

async function refusal(dir: string): Promise<ParityError> {
  const error = await browser.exportFixture({ id, dir }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ParityError);
  return error as ParityError;
}

describe('browser mode: Export fixture writes only inside <data dir>/exports', () => {
  it('refuses a folder outside, naming the exports folder and the rule, and writes nothing', async () => {
    const outside = join(root, 'elsewhere');
    const error = await refusal(outside);
    expect(error.kind).toBe('input');
    expect(error.message).toBe(
      `export to ${outside} refused: in browser mode fixtures are written only inside the server's exports folder ${exportsDir} ` +
        `(a folder below it, such as ${join(exportsDir, id)}); take a copy elsewhere with Download .zip`,
    );
    expect(existsSync(outside)).toBe(false);
  });

  it('refuses the exports folder itself, a way out by "..", a relative path and a link inside that points outside', async () => {
    mkdirSync(exportsDir, { recursive: true });
    const away = mkdtempSync(join(tmpdir(), 'export-targets-away-'));
    symlinkSync(away, join(exportsDir, 'link'));
    for (const dir of [exportsDir, `${exportsDir}/`, join(exportsDir, '..', 'escape'), `${exportsDir}/x/../../escape`, 'relative-fixture', join(exportsDir, 'link', 'fx')]) {
      const error = await refusal(dir);
      expect(error.message, dir).toMatch(new RegExp(`^export to ${dir.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} refused: in browser mode`));
    }
    expect(readdirSync(away)).toEqual([]);
    expect(existsSync(join(root, 'data', 'escape'))).toBe(false);
    expect(existsSync('relative-fixture')).toBe(false);
    rmSync(away, { recursive: true });
  });

  it('writes a folder inside: the proposed one, and one of another name or depth', async () => {
    const proposed = (await browser.exportLocation({ id })).dir;
    for (const dir of [proposed, join(exportsDir, 'my name'), join(exportsDir, 'team', 'case-1')]) {
      const exported = await browser.exportFixture({ id, dir });
      expect(exported.dir).toBe(dir);
      expect(readdirSync(dir).sort()).toEqual(['a.wav', 'b.wav', 'diff.wav', 'overlay.png', 'report.html', 'report.json', 'report.md', 'spectrogram-diff.png']);
    }
    // The overwrite guard still applies inside.
    expect((await refusal(proposed)).message).toMatch(/already exists/);
  }, 60_000);

  it('leaves the desktop app free: the host itself exports anywhere', async () => {
    const chosen = join(root, 'chosen-in-a-dialog');
    await createDirectClient(host).exportFixture({ id, dir: chosen });
    expect(readdirSync(chosen)).toContain('report.json');
  });
});

describe('browser mode: imports take the bytes the page sends, never a path on the server', () => {
  it('refuses a server path in importWavs and importTraces, naming the field and the path; the desktop app may pass paths', async () => {
    const onServer = join(root, 'on-server.wav');
    writeFileSync(onServer, encodeWav([new Float32Array(4800).fill(0.1)], 24000, 'pcm16'));
    const bytes = { name: 'b.wav', bytes: encodeWav([new Float32Array(4800).fill(0.2)], 24000, 'pcm16') };
    const wavs = await browser.importWavs({ a: { path: onServer }, b: bytes }).catch((e: unknown) => e);
    expect(wavs).toBeInstanceOf(ParityError);
    expect((wavs as ParityError).message).toBe(
      `a: "${onServer}" is a path on the server, which browser mode does not read (it would let the page read any file there); pick the file in the page, which sends its bytes`,
    );
    const trace = '{"schema":"tts-parity-trace/1","engine":"hand","q":1,"frameRate":12.5,"sampleRate":24000}\n';
    const traces = await browser.importTraces({ a: { name: 'a.jsonl', text: trace }, b: { name: 'b.jsonl', text: trace }, wavA: bytes, wavB: { path: onServer } }).catch((e: unknown) => e);
    expect((traces as ParityError).message).toMatch(/^wavB: ".*on-server\.wav" is a path on the server/);
    // The desktop app calls the host directly (main/ipc.ts), with paths from a native dialog.
    const desktop = await createDirectClient(host).importWavs({ a: { path: onServer }, b: bytes });
    expect(desktop.report.metrics?.bitIdentical).toBe(false);
  });
});
