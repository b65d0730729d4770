import type { ImportWavsRequest, TraceInput } from '../../../electron/common/api/comparison.js';
import type { FileBytes, UploadRef, ImportFile } from '../../../electron/common/api/primitives.js';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import { ParityError } from '../../../electron/common/errors.js';
import { sourceOf } from './upload-sources.js';

/** A trace import as the page's StudioApi takes it (defaults not yet filled in). */
type TraceImport = Parameters<StudioApi['importTraces']>[0];

/** Sends one file's bytes to the server and answers with the id to name it by. */
export type SendUpload = (file: FileBytes) => Promise<UploadRef>;

/**
 * Browser mode's StudioApi with the files of every import (WAVs; traces, their WAVs and module sidecars)
 * sent as streamed uploads (POST /upload, one request per file) and named by their ids, instead of
 * inside one WebSocket message: the server writes them to disk as they arrive rather than holding (and
 * copying) a message of the size of all of them, and bounds its messages (MAX_MESSAGE_BYTES).
 */
export function withStreamedUploads(studio: StudioApi, send: SendUpload): StudioApi {
  const upload = async (input: ImportFile): Promise<ImportFile> => ('bytes' in input ? send(input) : input);
  const uploaded = async <R extends Pick<ImportWavsRequest, 'a' | 'b'>>(request: R): Promise<R> => {
    const [a, b] = await Promise.all([upload(request.a), upload(request.b)]);
    return { ...request, a, b };
  };
  const uploadTrace = async (input: TraceInput): Promise<TraceInput> => ('text' in input ? send({ name: input.name, bytes: new TextEncoder().encode(input.text) }) : input);
  const optional = async (input: ImportFile | undefined) => (input === undefined ? undefined : upload(input));
  const tracesUploaded = async (request: TraceImport): Promise<TraceImport> => {
    const [a, b, wavA, wavB, modulesA, modulesB] = await Promise.all([
      uploadTrace(request.a),
      uploadTrace(request.b),
      optional(request.wavA),
      optional(request.wavB),
      optional(request.modulesA),
      optional(request.modulesB),
    ]);
    return { ...request, a, b, wavA, wavB, modulesA, modulesB };
  };
  return {
    ...studio,
    importWavs: async (request) => studio.importWavs(await uploaded(request)),
    startImportWavs: async (request) => studio.startImportWavs(await uploaded(request)),
    importTraces: async (request) => studio.importTraces(await tracesUploaded(request)),
  };
}

/**
 * POST /upload on the server that served the page (its cookie carries the token), naming the page's
 * connection (`session`: its WebSocket's); a refusal throws its one line.
 */
export function httpUpload(origin: string, session: string): SendUpload {
  return async (file) => {
    const response = await fetch(`${origin}/upload?${new URLSearchParams({ name: file.name, session }).toString()}`, {
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
