import { join, normalize, resolve, sep } from 'node:path';

/**
 * The file under `root` that a URL path names, for both ways the built renderer is served (app:// in
 * Electron, http:// in browser mode): '/' means index.html; undefined when the path cannot be
 * percent-decoded or, once decoded and normalised, is not strictly inside `root` (path traversal).
 */
export function staticFilePath(root: string, urlPath: string): string | undefined {
  let path: string;
  try {
    path = decodeURIComponent(urlPath === '/' ? '/index.html' : urlPath);
  } catch {
    return undefined;
  }
  const base = resolve(root); // no trailing separator, whatever the caller passed
  const file = normalize(join(base, path));
  return file.startsWith(base + sep) ? file : undefined;
}
