import { existsSync } from 'node:fs';
import { extname } from 'node:path';
import { ParityError } from '../common/errors.js';
import { readChecked, type SizeLimit } from '../engine/fs/read-checked.js';
import { staticFilePath } from './static-path.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
};

/** The built renderer is a few MB (its largest file, a source map, under 3 MB); a larger file is not one of it. */
export const MAX_STATIC_FILE: SizeLimit = { bytes: 64 * 1024 * 1024, words: 'the 64 MiB a file of the built renderer may have' };

export type StaticFile = { ok: true; body: Uint8Array; type: string } | { ok: false; status: 403 | 404; line: string };

/**
 * A file of the built renderer by URL path, for both ways it is served (browser mode's HTTP server, the
 * desktop app's app:// protocol), read through the one reading path (engine/fs/read-checked.ts):
 * 404 when the path names nothing inside `root`; 403 with one line (naming the URL path, never quoting
 * the file) for a FIFO, a device, a folder, a link leading out of `root`, or a file past MAX_STATIC_FILE.
 */
export async function readStatic(root: string, urlPath: string): Promise<StaticFile> {
  const file = staticFilePath(root, urlPath);
  if (!file || !existsSync(file)) return { ok: false, status: 404, line: 'not found' };
  try {
    const body = await readChecked(file, { limit: MAX_STATIC_FILE, inside: { dir: root, words: 'the built renderer folder' }, label: urlPath });
    return { ok: true, body, type: TYPES[extname(file)] ?? 'application/octet-stream' };
  } catch (error) {
    if (!(error instanceof ParityError)) throw error;
    return { ok: false, status: 403, line: `refused: ${error.message}` };
  }
}
