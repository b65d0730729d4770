import type { ImportWavsRequest } from '../../../electron/common/api/comparison.js';
import type { FileBytes, UploadRef, WavInput } from '../../../electron/common/api/primitives.js';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import { ParityError } from '../../../electron/common/errors.js';
import { sourceOf } from './upload-sources.js';

/** Sends one file's bytes to the server and answers with the id to name it by. */
export type SendUpload = (file: FileBytes) => Promise<UploadRef>;

/**
 * Browser mode's StudioApi with WAV imports sent as streamed uploads (POST /upload, one request per
 * file) and named by their ids, instead of inside one WebSocket message: the server writes them to
 * disk as they arrive rather than holding (and copying) a message of the size of both files.
 */
export function withStreamedUploads(studio: StudioApi, send: SendUpload): StudioApi {
  const upload = async (input: WavInput): Promise<WavInput> => ('bytes' in input ? send(input) : input);
  const uploaded = async <R extends Pick<ImportWavsRequest, 'a' | 'b'>>(request: R): Promise<R> => {
    const [a, b] = await Promise.all([upload(request.a), upload(request.b)]);
    return { ...request, a, b };
  };
  return {
    ...studio,
    importWavs: async (request) => studio.importWavs(await uploaded(request)),
    startImportWavs: async (request) => studio.startImportWavs(await uploaded(request)),
  };
}

/** POST /upload on the server that served the page (its cookie carries the token); a refusal throws its one line. */
export function httpUpload(origin: string): SendUpload {
  return async (file) => {
    const response = await fetch(`${origin}/upload?name=${encodeURIComponent(file.name)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/octet-stream' },
      // The picked File when the bytes came from one: Chromium streams it from disk. An array body is
      // copied whole into the browser first, and held the first paint of the lanes back by seconds.
      body: sourceOf(file.bytes) ?? (file.bytes as Uint8Array<ArrayBuffer>),
      credentials: 'same-origin',
    });
    if (!response.ok) throw new ParityError('input', (await response.text()).trim().replace(/^refused: /, ''), file.name);
    return (await response.json()) as UploadRef;
  };
}
