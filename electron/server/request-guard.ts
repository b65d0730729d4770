import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { parseRequestTarget } from './request-target.js';

/**
 * Who may talk to browser mode: every request must carry the token (query `token`, the cookie set
 * when the page was opened with it, or `Authorization: Bearer`), name an allowed Host (no DNS
 * rebinding), and, when it has an Origin, come from this very server.
 */
export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

export function isLoopbackHost(host: string): boolean {
  return host === '127.0.0.1' || host === '::1' || host === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * The cookie that remembers this server's token. Browsers keep cookies per host name, not per port, so
 * the port alone is not enough: two SSH tunnels to two servers that both listen on 8080 reach the
 * browser as localhost:8080 and localhost:8081, and one cookie would overwrite the other ("wrong token").
 * A short hash of the token tells them apart (it stays the same when a server restarts with its --token).
 */
export function cookieName(port: number, token: string): string {
  return `parity_token_${port}_${createHash('sha256').update(token).digest('hex').slice(0, 12)}`;
}

export interface GuardConfig {
  token: string;
  port: number;
  /** The address bound; when not loopback (with --allow-remote) any Host naming that port is allowed. */
  bindHost: string;
}

export type Verdict =
  | { ok: true; via: 'query' | 'cookie' | 'header'; pathname: string; query: URLSearchParams }
  | { ok: false; status: 400 | 401 | 403; reason: string };

/**
 * Host and Origin first (plain header comparisons), then the request-target, read by a parser that
 * never throws (request-target.ts; 400 when it is not a path), then the token.
 */
export function checkRequest(req: IncomingMessage, config: GuardConfig): Verdict {
  const host = req.headers.host;
  if (!host || !allowedHost(host, config)) {
    return { ok: false, status: 403, reason: `Host "${host ?? ''}" is not this server (expected 127.0.0.1, localhost or [::1] with a port, e.g. 127.0.0.1:${config.port})` };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${host}`) {
    return { ok: false, status: 403, reason: `Origin "${origin}" is not this server (http://${host})` };
  }
  const target = parseRequestTarget(req.url);
  if (!target.ok) return { ok: false, status: 400, reason: target.reason };
  const candidates: [string | undefined, 'query' | 'cookie' | 'header'][] = [
    [target.query.get('token') ?? undefined, 'query'],
    [readCookie(req.headers.cookie, cookieName(config.port, config.token)), 'cookie'],
    [/^bearer +(.+)$/i.exec(req.headers.authorization ?? '')?.[1], 'header'],
  ];
  const given = candidates.filter(([value]) => value !== undefined);
  if (given.length === 0) return { ok: false, status: 401, reason: 'no token: open the URL that `parity serve` printed' };
  const match = given.find(([value]) => sameToken(value!, config.token));
  if (!match) return { ok: false, status: 401, reason: 'wrong token: open the URL that `parity serve` printed' };
  return { ok: true, via: match[1], pathname: target.pathname, query: target.query };
}

/**
 * A loopback name with any port (an SSH tunnel may map another local port onto ours; DNS rebinding
 * needs a foreign name, which stays refused), or, when bound beyond loopback, a name for that port.
 */
function allowedHost(header: string, { port, bindHost }: GuardConfig): boolean {
  const m = /^(\[[0-9a-fA-F:]+\]|[^:]+):(\d+)$/.exec(header);
  if (!m) return false;
  const name = m[1].replace(/^\[|\]$/g, '').toLowerCase();
  if (isLoopbackHost(name)) return true;
  if (Number(m[2]) !== port) return false;
  return !isLoopbackHost(bindHost) && (bindHost === '0.0.0.0' || bindHost === '::' || name === bindHost.toLowerCase());
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}
