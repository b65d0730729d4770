import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { staticFilePath } from '../host/static-path.js';

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

/** Reads a file of the built renderer by URL path; undefined when absent or outside `root`. */
export async function readStatic(root: string, urlPath: string): Promise<{ body: Buffer; type: string } | undefined> {
  const file = staticFilePath(root, urlPath);
  if (!file || !existsSync(file) || !(await stat(file)).isFile()) return undefined;
  return { body: await readFile(file), type: TYPES[extname(file)] ?? 'application/octet-stream' };
}
