import { METHOD_NAMES } from '../common/api/methods.js';
import type { StudioHandlers } from '../common/api/studio-api.js';

/**
 * Every StudioApi method of `studio`, called on `studio` itself, and its `on`, as a plain object that a
 * transport wrapper (browser mode's, the desktop shell's) replaces one method of (the host's own `this` stays the host).
 */
export function passThrough(studio: StudioHandlers): Record<string, unknown> {
  const handlers: Record<string, unknown> = {};
  for (const name of METHOD_NAMES) handlers[name] = (request: unknown) => (studio[name] as (r: unknown) => Promise<unknown>).call(studio, request);
  handlers.on = studio.on.bind(studio);
  return handlers;
}
