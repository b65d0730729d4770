import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ParityError } from '../common/errors.js';

/**
 * The built engine worker. From dist/ it sits beside this file; when the host runs from source (tsx,
 * vitest) it is the tsc output in dist/, because Node 20 cannot start a .ts worker.
 */
export function engineWorkerUrl(): URL {
  const here = import.meta.url;
  const url = here.endsWith('.ts') ? new URL('../../dist/electron/host/engine-worker.js', here) : new URL('./engine-worker.js', here);
  if (!existsSync(fileURLToPath(url))) {
    throw new ParityError('internal', `the engine worker is not built: ${fileURLToPath(url)} is missing; run \`npm run build\``);
  }
  return url;
}
