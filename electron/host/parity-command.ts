import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ParityCommand } from '../common/report/comparison-markdown.js';

/** This package's bin/parity.js: from dist/electron/host/ or, from source (tests), electron/host/. */
function ownLauncher(): string {
  const here = import.meta.url;
  return fileURLToPath(here.endsWith('.ts') ? new URL('../../bin/parity.js', here) : new URL('../../../bin/parity.js', here));
}

/**
 * How a report's Reproduce lines start a `parity` command where the report is made. A launcher inside a
 * node_modules folder belongs to an installed package (`npm install -g` links it onto PATH as `parity`);
 * anywhere else it is a checkout, where only `node <absolute path>/bin/parity.js` works from any folder
 * (`npx parity` does nothing outside the checkout).
 */
export function parityCommand(launcher: string = ownLauncher()): ParityCommand {
  return launcher.split(sep).includes('node_modules') ? ['parity'] : ['node', launcher];
}
