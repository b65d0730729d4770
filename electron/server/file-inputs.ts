import { InputError } from '../common/errors.js';
import type { FileInput } from '../common/api/primitives.js';
import type { StudioHandlers } from '../common/api/studio-api.js';
import { passThrough } from '../host/pass-through.js';

/** Refuses a file named by its path on the server: the page sends the bytes of the file the user picked. */
function bytesOnly(input: FileInput | undefined, field: string): void {
  if (input !== undefined && 'path' in input) {
    throw new InputError(
      `${field}: "${input.path}" is a path on the server, which browser mode does not read (it would let the page read any file there); pick the file in the page, which sends its bytes`,
      field,
    );
  }
}

/**
 * Browser mode's rule for imports: WAVs come as bytes from the page, never as server paths, so whoever
 * holds the token cannot read the server's files through an import. The desktop app (paths from a
 * native dialog, the user's own files) does not go through this.
 */
export function withUploadedFilesOnly(studio: StudioHandlers): StudioHandlers {
  const handlers = passThrough(studio);
  const importWavs: StudioHandlers['importWavs'] = async (request) => {
    bytesOnly(request.a, 'a');
    bytesOnly(request.b, 'b');
    return studio.importWavs(request);
  };
  const importTraces: StudioHandlers['importTraces'] = async (request) => {
    bytesOnly(request.wavA, 'wavA');
    bytesOnly(request.wavB, 'wavB');
    bytesOnly(request.modulesA, 'modulesA');
    bytesOnly(request.modulesB, 'modulesB');
    return studio.importTraces(request);
  };
  handlers.importWavs = importWavs;
  handlers.importTraces = importTraces;
  return handlers as unknown as StudioHandlers;
}
