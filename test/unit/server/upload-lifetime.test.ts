import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

async function uploadPair(uploads: Uploads) {
  const a = await uploads.receive(body(new Uint8Array([1, 2, 3])), 'take-a.wav');
  const b = await uploads.receive(body(new Uint8Array([4, 5])), 'take-b.wav');
  return { a: { upload: a.upload }, b: { upload: b.upload } };
}

describe('browser mode: an uploaded WAV handed to the host by its file', () => {
  it('is named by the page\'s file name, kept while its job runs, and deleted when that job finishes', async () => {
    const uploads = new Uploads(1024, parent);
    const { host, seen, finish } = standInHost(() => 'job-7');
    const studio = withUploadedFilesOnly(host, uploads);
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
    const uploads = new Uploads(1024, parent);
    const { host, seen } = standInHost((_request, finish) => {
      finish('job-1');
      return 'job-1';
    });
    await withUploadedFilesOnly(host, uploads).startImportWavs((await uploadPair(uploads)) as ImportWavsRequest);
    await new Promise((r) => setTimeout(r, 50));
    expect(existsSync((seen[0].a as { path: string }).path)).toBe(false);
    await uploads.close();
  });

  it('is deleted at once when the host refuses the import', async () => {
    const uploads = new Uploads(1024, parent);
    const { host, seen } = standInHost(() => {
      throw new InputError('take-b.wav: not a WAV', 'b');
    });
    await expect(withUploadedFilesOnly(host, uploads).startImportWavs((await uploadPair(uploads)) as ImportWavsRequest)).rejects.toThrow('take-b.wav: not a WAV');
    expect(existsSync((seen[0].a as { path: string }).path)).toBe(false);
    expect(existsSync((seen[0].b as { path: string }).path)).toBe(false);
    await uploads.close();
  });
});
