import { readStatic, type StaticFile } from '../host/read-static.js';

/**
 * The renderer is served from `app://studio/` rather than file://, so the sender check has a real
 * origin to compare and the page cannot read other local files.
 */
export const APP_SCHEME = 'app';
const APP_HOST = 'studio';
const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

export function isAppUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST;
  } catch {
    return false;
  }
}

/**
 * The file of the built renderer an app:// URL names, read as browser mode serves it (host/read-static.ts):
 * 404 when the URL points elsewhere or names nothing there, 403 with one line for a file refused.
 */
export async function readAppFile(url: string, rendererDir: string): Promise<StaticFile> {
  if (!isAppUrl(url)) return { ok: false, status: 404, line: 'not found' };
  return readStatic(rendererDir, new URL(url).pathname);
}
