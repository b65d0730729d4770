import { fileURLToPath } from 'node:url';

/** dist/ of this build: main.js runs from dist/electron/main/; from source (tests) it is the repo's dist/. */
export function distDir(here = import.meta.url): string {
  return fileURLToPath(here.endsWith('.ts') ? new URL('../../dist/', here) : new URL('../../', here));
}
