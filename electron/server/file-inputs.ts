import { readFile } from 'node:fs/promises';
import { InputError } from '../common/errors.js';
import type { FileInput, WavInput } from '../common/api/primitives.js';
import type { ImportWavsRequest } from '../common/api/comparison.js';
import type { StudioHandlers } from '../common/api/studio-api.js';
import { passThrough } from '../host/pass-through.js';
import { Uploads, type Upload } from './uploads.js';

/** Refuses a file named by its path on the server: the page sends the bytes of the file the user picked. */
function bytesOnly(input: FileInput | WavInput | undefined, field: string): void {
  if (input !== undefined && 'path' in input) {
    throw new InputError(
      `${field}: "${input.path}" is a path on the server, which browser mode does not read (it would let the page read any file there); pick the file in the page, which sends its bytes`,
      field,
    );
  }
}

/**
 * Browser mode's rule for imports: WAVs come as bytes from the page or as files it uploaded to this
 * server (`{upload: id}`, uploads.ts, resolved here to the file the server wrote), never as server
 * paths, so whoever holds the token cannot read the server's files through an import. The desktop app
 * (paths from a native dialog, the user's own files) does not go through this.
 */
export function withUploadedFilesOnly(studio: StudioHandlers, uploads: Uploads = new Uploads()): StudioHandlers {
  const handlers = passThrough(studio);
  /**
   * Runs `call` with each upload of the request read back as the bytes of the file the page named (one
   * copy in memory, as a WebSocket message would have been before it was parsed); each upload serves
   * one import and is deleted once read.
   */
  const withUploads = async <T>(request: ImportWavsRequest, call: (resolved: ImportWavsRequest) => Promise<T>): Promise<T> => {
    bytesOnly(request.a, 'a');
    bytesOnly(request.b, 'b');
    const taken: Upload[] = [];
    const resolve = async (input: WavInput, field: string): Promise<WavInput> => {
      if (!('upload' in input)) return input;
      const file = uploads.take(input, field);
      taken.push(file);
      return { name: file.name, bytes: new Uint8Array(await readFile(file.path)) };
    };
    try {
      const a = await resolve(request.a, 'a');
      const b = await resolve(request.b, 'b');
      await Promise.all(taken.splice(0).map((file) => uploads.discard(file)));
      return await call({ ...request, a, b });
    } finally {
      await Promise.all(taken.map((file) => uploads.discard(file)));
    }
  };
  const importWavs: StudioHandlers['importWavs'] = (request) => withUploads(request, (r) => studio.importWavs(r));
  // The host reads both files before it answers with the job id, so the uploads can go then.
  const startImportWavs: StudioHandlers['startImportWavs'] = (request) => withUploads(request, (r) => studio.startImportWavs(r));
  const importTraces: StudioHandlers['importTraces'] = async (request) => {
    bytesOnly(request.wavA, 'wavA');
    bytesOnly(request.wavB, 'wavB');
    bytesOnly(request.modulesA, 'modulesA');
    bytesOnly(request.modulesB, 'modulesB');
    return studio.importTraces(request);
  };
  handlers.importWavs = importWavs;
  handlers.startImportWavs = startImportWavs;
  handlers.importTraces = importTraces;
  return handlers as unknown as StudioHandlers;
}
