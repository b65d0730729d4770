import { staticFilePath } from '../host/static-path.js';

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

/** The file of the built renderer an app:// URL names, or undefined when it points elsewhere. */
export function appUrlToFile(url: string, rendererDir: string): string | undefined {
  if (!isAppUrl(url)) return undefined;
  return staticFilePath(rendererDir, new URL(url).pathname);
}
