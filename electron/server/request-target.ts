/**
 * The request-target of an HTTP request (RFC 9112 §3.2), read without ever throwing: browser mode takes
 * only the origin form (`/path?query`). Anything else (an authority form `//host`, an absolute or
 * asterisk form, characters outside visible ASCII, a bad percent escape, or a target WHATWG URL parsing
 * refuses, e.g. `//[`) is `{ok: false}` with the reason, which the server answers with 400 and one log
 * line instead of letting the parser's TypeError end the process.
 */
export type RequestTarget = { ok: true; pathname: string; query: URLSearchParams } | { ok: false; reason: string };

/** Longer targets are refused before any parsing (Node's own header limit is 16 KB in all). */
export const MAX_TARGET_CHARS = 8192;

const BASE = 'http://parity.invalid';

export function parseRequestTarget(raw: string | undefined): RequestTarget {
  if (raw === undefined || raw.length === 0) return { ok: false, reason: 'no request-target' };
  if (raw.length > MAX_TARGET_CHARS) return { ok: false, reason: `request-target of ${raw.length} characters (at most ${MAX_TARGET_CHARS})` };
  if (!raw.startsWith('/') || raw.startsWith('//')) return { ok: false, reason: 'request-target is not a path (expected /path?query)' };
  if (!/^[\x21-\x7e]+$/.test(raw)) return { ok: false, reason: 'request-target holds a character outside visible ASCII' };
  if (raw.includes('#')) return { ok: false, reason: 'request-target holds a fragment (#)' };
  if (/%(?![0-9A-Fa-f]{2})/.test(raw)) return { ok: false, reason: 'request-target holds a % not followed by two hex digits' };
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return { ok: false, reason: 'request-target is not a valid URL path' };
  }
  // A path can never change the authority; were it to, the target was not what it looked like.
  if (url.origin !== BASE) return { ok: false, reason: 'request-target names another authority' };
  return { ok: true, pathname: url.pathname, query: url.searchParams };
}

/** A target as one log line may quote it: at most 80 characters, control and non-ASCII escaped. */
export function quoteTarget(raw: string | undefined): string {
  return JSON.stringify((raw ?? '').slice(0, 80)).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
