#!/usr/bin/env node
// Launcher for the `parity` command: runs the compiled CLI (built by `npm ci` through `prepare`).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const entry = fileURLToPath(new URL('../dist/electron/cli/main.js', import.meta.url));
if (!existsSync(entry)) {
  process.stderr.write('parity: the CLI is not built (dist/ is missing); run `npm run build` first.\n');
  process.exit(2);
}
await import(pathToFileURL(entry).href);
