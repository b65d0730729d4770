import { isEndpointSide } from '../../../electron/common/profile/endpoint-side.js';

const KEY = 'parity.savedEndpoints';
const MAX = 12;

interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** The page's localStorage; undefined where there is none (tests in Node) or it is refused (privacy settings). */
function storage(): KeyValueStore | undefined {
  try {
    return (globalThis as { localStorage?: KeyValueStore }).localStorage;
  } catch {
    return undefined;
  }
}

/** The endpoint sides of earlier comparisons that ran, newest first: offered in the A/B fields. */
export function savedEndpoints(): string[] {
  try {
    const list = JSON.parse(storage()?.getItem(KEY) ?? '[]') as unknown;
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string' && isEndpointSide(x)).slice(0, MAX) : [];
  } catch {
    return [];
  }
}

/** Keeps the endpoint sides of a comparison that completed (a side that failed is never saved). */
export function rememberEndpoints(sides: string[]): void {
  const endpoints = sides.filter(isEndpointSide);
  if (endpoints.length === 0) return;
  const list = [...new Set([...endpoints, ...savedEndpoints()])].slice(0, MAX);
  storage()?.setItem(KEY, JSON.stringify(list));
}
