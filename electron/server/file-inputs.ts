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
   * Takes each upload of the request (each upload serves one import) and names it to the host by its
   * file, under the name the page gave: the engine worker reads it from there, so no copy of it is held
   * in memory here. `call` says when the files may go: after its answer (importWavs), or when the job
   * it started finishes (startImportWavs); they are deleted then, and at once if `call` fails.
   */
  const withUploads = async <T>(request: ImportWavsRequest, call: (resolved: ImportWavsRequest) => Promise<T>, finished: (answer: T) => Promise<void>): Promise<T> => {
    bytesOnly(request.a, 'a');
    bytesOnly(request.b, 'b');
    const taken: Upload[] = [];
    const resolve = (input: WavInput, field: string): WavInput => {
      if (!('upload' in input)) return input;
      const file = uploads.take(input, field);
      taken.push(file);
      return { name: file.name, path: file.path };
    };
    const release = () => Promise.all(taken.map((file) => uploads.discard(file)));
    let answer: T;
    try {
      answer = await call({ ...request, a: resolve(request.a, 'a'), b: resolve(request.b, 'b') });
    } catch (error) {
      await release();
      throw error;
    }
    void finished(answer).finally(release);
    return answer;
  };
  const importWavs: StudioHandlers['importWavs'] = (request) => withUploads(request, (r) => studio.importWavs(r), async () => undefined);
  const startImportWavs: StudioHandlers['startImportWavs'] = async (request) => {
    // Listening before the job starts: it may finish before its id is known here.
    const done = new Set<string>();
    let waiting: { jobId: string; resolve: () => void } | undefined;
    const stop = studio.on('jobFinished', (jobId) => {
      if (waiting?.jobId === jobId) waiting.resolve();
      else done.add(jobId);
    });
    const jobFinished = ({ jobId }: { jobId: string }) =>
      new Promise<void>((resolve) => {
        if (done.has(jobId)) resolve();
        else waiting = { jobId, resolve };
      }).finally(stop);
    return withUploads(request, (r) => studio.startImportWavs(r), jobFinished).catch((error: unknown) => {
      stop();
      throw error;
    });
  };
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
