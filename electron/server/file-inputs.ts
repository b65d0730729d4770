import { InputError } from '../common/errors.js';
import type { FileInput, ImportFile } from '../common/api/primitives.js';
import type { TraceInput } from '../common/api/comparison.js';
import type { StudioHandlers } from '../common/api/studio-api.js';
import { readTextChecked } from '../engine/fs/read-checked.js';
import { MAX_KEPT_TRACE_BYTES } from '../host/history-store.js';
import { passThrough } from '../host/pass-through.js';
import { Uploads, type Upload } from './uploads.js';

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const KEPT_TRACE = { bytes: MAX_KEPT_TRACE_BYTES, words: `the ${mb(MAX_KEPT_TRACE_BYTES)} the studio keeps of an imported trace: compare larger traces with parity compare-trace --out` };

/** Refuses a file named by its path on the server: the page sends the bytes of the file the user picked. */
function bytesOnly(input: FileInput | ImportFile | undefined, field: string): void {
  if (input !== undefined && 'path' in input) {
    throw new InputError(
      `${field}: "${input.path}" is a path on the server, which browser mode does not read (it would let the page read any file there); pick the file in the page, which sends its bytes`,
      field,
    );
  }
}

/**
 * The uploads one import names, taken from `uploads` (each upload serves one import) as it resolves
 * them; their sizes together may not pass the server's per-import total. `release` deletes them.
 */
class ImportUploads {
  readonly taken: Upload[] = [];

  constructor(
    private readonly uploads: Uploads,
    private readonly session: string | undefined,
  ) {}

  take(input: { upload: string }, field: string): Upload {
    const file = this.uploads.take(input, field, this.session);
    this.taken.push(file);
    const total = this.taken.reduce((sum, f) => sum + f.bytes, 0);
    if (total > this.uploads.limits.maxImportBytes) {
      throw new InputError(`${field}: the files of this import come to ${mb(total)} (${this.taken.map((f) => f.name).join(', ')}); browser mode takes up to ${mb(this.uploads.limits.maxImportBytes)} per import`, field);
    }
    return file;
  }

  /** A file of the import: an upload becomes the file the server wrote, under the name the page gave. */
  file(input: ImportFile, field: string): ImportFile {
    bytesOnly(input, field);
    if (!('upload' in input)) return input;
    const file = this.take(input, field);
    return { name: file.name, path: file.path };
  }

  /** A trace of the import: an upload is read here (the host takes traces as text). */
  async trace(input: TraceInput, field: string): Promise<TraceInput> {
    if (!('upload' in input)) return input;
    const file = this.take(input, field);
    return { name: file.name, text: await readTextChecked(file.path, { limit: KEPT_TRACE, what: 'the trace', label: file.name }) };
  }

  release(): Promise<void> {
    return Promise.all(this.taken.map((file) => this.uploads.discard(file))).then(() => undefined);
  }
}

/**
 * Browser mode's rule for imports: files come as bytes from the page (within one bounded WebSocket
 * message) or as files it uploaded to this server (`{upload: id}`, uploads.ts, resolved here to the
 * file the server wrote), never as server paths, so whoever holds the token cannot read the server's
 * files through an import. One wrapper serves one connection (`session`, the id its WebSocket opened
 * with; none: it may name no uploads), and its imports take only the uploads that connection sent. The desktop app (paths from a native dialog, the user's own files) does
 * not go through this.
 */
export function withUploadedFilesOnly(studio: StudioHandlers, uploads: Uploads, session: string | undefined): StudioHandlers {
  const handlers = passThrough(studio);
  /**
   * Resolves the request's uploads and calls the host with it: the engine worker reads WAVs from the
   * server's files, so no copy of them is held here. `finished` says when the files may go: after the
   * answer (importWavs, importTraces), or when the job it started finishes (startImportWavs); they
   * are deleted then, and at once if resolving or the call fails.
   */
  const withUploads = async <R, T>(resolve: (files: ImportUploads) => Promise<R>, call: (resolved: R) => Promise<T>, finished: (answer: T) => Promise<void>): Promise<T> => {
    const files = new ImportUploads(uploads, session);
    let answer: T;
    try {
      answer = await call(await resolve(files));
    } catch (error) {
      await files.release();
      throw error;
    }
    void finished(answer).finally(() => files.release());
    return answer;
  };
  const wavPair = <R extends { a: ImportFile; b: ImportFile }>(request: R) => async (files: ImportUploads) => ({ ...request, a: files.file(request.a, 'a'), b: files.file(request.b, 'b') });
  const importWavs: StudioHandlers['importWavs'] = (request) => withUploads(wavPair(request), (r) => studio.importWavs(r), async () => undefined);
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
    return withUploads(wavPair(request), (r) => studio.startImportWavs(r), jobFinished).catch((error: unknown) => {
      stop();
      throw error;
    });
  };
  const importTraces: StudioHandlers['importTraces'] = (request) =>
    withUploads(
      async (files) => {
        const optional = (field: 'wavA' | 'wavB' | 'modulesA' | 'modulesB') => {
          const input = request[field];
          return input === undefined ? {} : { [field]: files.file(input, field) };
        };
        const [a, b] = [await files.trace(request.a, 'a'), await files.trace(request.b, 'b')];
        return { ...request, a, b, ...optional('wavA'), ...optional('wavB'), ...optional('modulesA'), ...optional('modulesB') };
      },
      (r) => studio.importTraces(r),
      async () => undefined,
    );
  handlers.importWavs = importWavs;
  handlers.startImportWavs = startImportWavs;
  handlers.importTraces = importTraces;
  return handlers as unknown as StudioHandlers;
}
