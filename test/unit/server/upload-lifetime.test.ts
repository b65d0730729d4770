import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { ImportWavsRequest, StudioEvents, StudioHandlers } from '../../../electron/common/api/index.js';
import { TypedEmitter } from '../../../electron/common/api/event-emitter.js';
import { InputError } from '../../../electron/common/errors.js';
import { withUploadedFilesOnly } from '../../../electron/server/file-inputs.js';
import { Uploads } from '../../../electron/server/uploads.js';

// Browser mode names an uploaded WAV to the host by its file (the worker reads it; no copy is held in the
// server), so the file must stay until the job that reads it finishes, and go then. The host here is a
// stand-in that records what it was given and finishes jobs when the test says: what is under test is
// the server's hand-over (electron/server/file-inputs.ts); the real host's reading of such files is
// checked in test/unit/server/streamed-upload.test.ts.

const parent = mkdtempSync(join(tmpdir(), 'upload-lifetime-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

const body = (bytes: Uint8Array) => Object.assign(Readable.from([Buffer.from(bytes)]), { headers: { 'content-length': String(bytes.byteLength) } }) as unknown as IncomingMessage;

function standInHost(onStart: (request: ImportWavsRequest, finish: (jobId: string) => void) => string) {
  const events = new TypedEmitter<StudioEvents>();
  const seen: ImportWavsRequest[] = [];
  const finish = (jobId: string) => events.emit('jobFinished', jobId, { state: 'done' });
  const host = {
    on: events.on.bind(events),
    startImportWavs: async (request: ImportWavsRequest) => {
      seen.push(request);
      return { jobId: onStart(request, finish) };
    },
  } as unknown as StudioHandlers;
  return { host, seen, finish };
}

const SESSION = 'page-0123456789abcdef';

async function uploadPair(uploads: Uploads) {
  uploads.openSession(SESSION);
  const a = await uploads.receive(body(new Uint8Array([1, 2, 3])), 'take-a.wav', SESSION);
  const b = await uploads.receive(body(new Uint8Array([4, 5])), 'take-b.wav', SESSION);
  return { a: { upload: a.upload }, b: { upload: b.upload } };
}

describe('browser mode: an uploaded WAV handed to the host by its file', () => {
  it('is named by the page\'s file name, kept while its job runs, and deleted when that job finishes', async () => {
    const uploads = new Uploads({ maxBytes: 1024 }, parent);
    const { host, seen, finish } = standInHost(() => 'job-7');
    const studio = withUploadedFilesOnly(host, uploads, SESSION);
    await studio.startImportWavs((await uploadPair(uploads)) as ImportWavsRequest);
    const [given] = seen;
    const a = given.a as { name: string; path: string };
    const b = given.b as { name: string; path: string };
    expect([a.name, b.name]).toEqual(['take-a.wav', 'take-b.wav']);
    expect(Array.from(readFileSync(a.path))).toEqual([1, 2, 3]);
    finish('job-6');
    await new Promise((r) => setTimeout(r, 50));
    expect([existsSync(a.path), existsSync(b.path)]).toEqual([true, true]);
    finish('job-7');
    await new Promise((r) => setTimeout(r, 50));
    expect([existsSync(a.path), existsSync(b.path)]).toEqual([false, false]);
    await uploads.close();
  });

  it('is deleted when its job finishes before the job id is answered', async () => {
    const uploads = new Uploads({ maxBytes: 1024 }, parent);
    const { host, seen } = standInHost((_request, finish) => {
      finish('job-1');
      return 'job-1';
    });
    await withUploadedFilesOnly(host, uploads, SESSION).startImportWavs((await uploadPair(uploads)) as ImportWavsRequest);
    await new Promise((r) => setTimeout(r, 50));
    expect(existsSync((seen[0].a as { path: string }).path)).toBe(false);
    await uploads.close();
  });

  it('is deleted at once when the host refuses the import', async () => {
    const uploads = new Uploads({ maxBytes: 1024 }, parent);
    const { host, seen } = standInHost(() => {
      throw new InputError('take-b.wav: not a WAV', 'b');
    });
    await expect(withUploadedFilesOnly(host, uploads, SESSION).startImportWavs((await uploadPair(uploads)) as ImportWavsRequest)).rejects.toThrow('take-b.wav: not a WAV');
    expect(existsSync((seen[0].a as { path: string }).path)).toBe(false);
    expect(existsSync((seen[0].b as { path: string }).path)).toBe(false);
    await uploads.close();
  });
});

describe('browser mode: uploads no import has used, bounded per connection', () => {
  const chunked = (bytes: Uint8Array) => Object.assign(Readable.from([Buffer.from(bytes)]), { headers: {} }) as unknown as IncomingMessage;
  const refusal = (p: Promise<unknown>) => p.then(() => 'accepted', (e: unknown) => `${(e as { status: number }).status} ${(e as Error).message}`);

  it('refuses past the count with one line (429), and takes another once an import used one', async () => {
    const uploads = new Uploads({ maxBytes: 1024, maxPendingUploads: 2 }, parent);
    uploads.openSession(SESSION);
    const first = await uploads.receive(body(new Uint8Array([1])), 'a.wav', SESSION);
    await uploads.receive(body(new Uint8Array([2])), 'b.wav', SESSION);
    expect(await refusal(uploads.receive(body(new Uint8Array([3])), 'c.wav', SESSION))).toBe(
      '429 c.wav: this page holds 2 uploads no import has used; browser mode keeps up to 2 per connection (import the files already sent, or reload the page to drop them)',
    );
    // Another connection has its own count.
    uploads.openSession('other-page-0123456789');
    expect(await refusal(uploads.receive(body(new Uint8Array([3])), 'c.wav', 'other-page-0123456789'))).toBe('accepted');
    uploads.take({ upload: first.upload }, 'a', SESSION);
    expect(await refusal(uploads.receive(body(new Uint8Array([3])), 'c.wav', SESSION))).toBe('accepted');
    await uploads.close();
  });

  it('refuses past the bytes (413), announced or counted as they arrive, keeping nothing of the refused one', async () => {
    const uploads = new Uploads({ maxBytes: 1024, maxPendingBytes: 5 }, parent);
    uploads.openSession(SESSION);
    await uploads.receive(body(new Uint8Array(3)), 'a.wav', SESSION);
    const line = '413 b.wav: this page\'s uploads no import has used would come to 6 bytes; browser mode keeps up to 5 bytes per connection (import the files already sent, or reload the page to drop them)';
    expect(await refusal(uploads.receive(body(new Uint8Array(3)), 'b.wav', SESSION))).toBe(line);
    expect(await refusal(uploads.receive(chunked(new Uint8Array(3)), 'b.wav', SESSION))).toBe(line);
    const folder = join(parent, readdirSync(parent).find((f) => f.startsWith('parity-uploads-'))!);
    expect(readdirSync(folder)).toHaveLength(1);
    // The refused bytes were given back: 2 more still fit.
    expect(await refusal(uploads.receive(chunked(new Uint8Array(2)), 'c.wav', SESSION))).toBe('accepted');
    await uploads.close();
  });

  it('deletes a connection\'s unused uploads when it closes, and refuses uploads naming no open connection', async () => {
    const uploads = new Uploads({ maxBytes: 1024 }, parent);
    uploads.openSession(SESSION);
    const { a, b } = await uploadPair(uploads);
    const used = uploads.take(a, 'a', SESSION);
    const unused = join(dirname(used.path), b.upload);
    expect(existsSync(unused)).toBe(true);
    await uploads.endSession(SESSION);
    expect(existsSync(unused)).toBe(false);
    // The one an import took is the import's to delete.
    expect(existsSync(used.path)).toBe(true);
    expect(() => uploads.take(b, 'b', SESSION)).toThrow(`b: no upload ${b.upload} from this page's connection on this server`);
    expect(await refusal(uploads.receive(body(new Uint8Array(1)), 'late.wav', SESSION))).toBe(
      `400 late.wav: ?session="${SESSION}" names no open studio connection on this server (an upload belongs to the page that sends it; reload the page)`,
    );
    expect(await refusal(uploads.receive(body(new Uint8Array(1)), 'none.wav', ''))).toMatch(/^400 none\.wav: \?session="" names no open studio connection/);
    await uploads.close();
  });
});
