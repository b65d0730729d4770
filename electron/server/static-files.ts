import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

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
  let path: string;
  try {
    path = decodeURIComponent(urlPath === '/' ? '/index.html' : urlPath);
  } catch {
    return undefined;
  }
  const base = resolve(root); // no trailing separator, whatever the caller passed
  const file = normalize(join(base, path));
  if (!file.startsWith(base + sep)) return undefined;
  if (!existsSync(file) || !(await stat(file)).isFile()) return undefined;
  return { body: await readFile(file), type: TYPES[extname(file)] ?? 'application/octet-stream' };
}
