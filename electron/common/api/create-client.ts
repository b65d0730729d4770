import { errorFromPayload, ParityError, type ErrorPayload, type ParityErrorKind, type ParityErrorReason } from '../errors.js';
import { describeIssues } from '../zod-issues.js';
import type { Disposer } from './event-emitter.js';
import type { StudioEvents } from './events.js';
import { studioEventSchemas } from './events.js';
import { METHOD_NAMES, studioMethods, type MethodName } from './methods.js';
import type { StudioApi, StudioHandlers } from './studio-api.js';

/** A reply as every transport carries it: errors travel as data, so their kind survives the crossing. */
export type Envelope = { ok: true; value: unknown } | { ok: false; error: ErrorPayload };

export interface ClientChannel {
  call(method: MethodName, request: unknown): Promise<Envelope>;
  subscribe(listener: (name: string, args: unknown[]) => void): Disposer;
}

export interface ClientOptions {
  /** Told of every event that does not match its schema (it is not delivered); console.error by default. */
  onMalformedEvent?: (line: string) => void;
}

/**
 * Builds a StudioApi over any channel (after VS Code's `ProxyChannel.toService`): every result is parsed
 * with the method's response schema, every event with its tuple schema; a failed call throws a
 * ParityError with the host's kind, message, where and reason.
 */
export function createClient(channel: ClientChannel, { onMalformedEvent = (line) => console.error(line) }: ClientOptions = {}): StudioApi {
  const api: Record<string, unknown> = {};
  for (const name of METHOD_NAMES) {
    api[name] = async (request: unknown = {}) => {
      const reply = await channel.call(name, request);
      if (!reply.ok) throw errorFromPayload(reply.error);
      return studioMethods[name].response.parse(reply.value);
    };
  }
  api.on = <E extends keyof StudioEvents>(event: E, listener: (...args: StudioEvents[E]) => void): Disposer =>
    channel.subscribe((name, args) => {
      if (name !== event) return;
      const parsed = studioEventSchemas[event].safeParse(args);
      if (parsed.success) listener(...(parsed.data as StudioEvents[E]));
      else onMalformedEvent(`studio: a "${event}" event was dropped: it does not match its schema (${describeIssues(parsed.error)})`);
    });
  return api as unknown as StudioApi;
}

/** The direct transport (CLI, tests): same parsing on both sides, no wire. */
export function createDirectClient(host: StudioHandlers): StudioApi {
  return createClient({
    call: (method, request) => dispatch(host, method, request),
    subscribe: (listener) => {
      const offs = (Object.keys(studioEventSchemas) as (keyof StudioEvents)[]).map((name) =>
        host.on(name, (...args: unknown[]) => listener(name, args)),
      );
      return () => offs.forEach((off) => off());
    },
  });
}

/**
 * The host side of every transport: parse the request with the method's schema, call the host, and
 * wrap the outcome in an Envelope. Never throws.
 */
export async function dispatch(host: StudioHandlers, method: unknown, request: unknown): Promise<Envelope> {
  try {
    if (typeof method !== 'string' || !Object.hasOwn(studioMethods, method)) {
      return fail('input', `unknown StudioApi method "${String(method)}" (known: ${METHOD_NAMES.join(', ')})`);
    }
    const def = studioMethods[method as MethodName];
    const parsed = def.request.safeParse(request ?? {});
    if (!parsed.success) {
      const detail = describeIssues(parsed.error);
      const kind = parsed.error.issues.some((i) => i.message.startsWith('profile "')) ? 'profile' : 'input';
      return fail(kind, `${method}: ${detail}`);
    }
    const call = host[method as MethodName] as (r: unknown) => Promise<unknown>;
    return { ok: true, value: await call.call(host, parsed.data) };
  } catch (error) {
    if (error instanceof ParityError) return fail(error.kind, error.message, error.where, error.reason);
    return fail('internal', error instanceof Error ? error.message : String(error));
  }
}

function fail(kind: ParityErrorKind, message: string, where?: string, reason?: ParityErrorReason): Envelope {
  return { ok: false, error: { kind, message, ...(where !== undefined ? { where } : {}), ...(reason !== undefined ? { reason } : {}) } };
}
