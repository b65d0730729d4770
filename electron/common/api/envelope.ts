import { z } from 'zod';
import { ERROR_REASONS, ParityError, type ParityErrorKind } from '../errors.js';
import type { Envelope } from './create-client.js';

const ERROR_KINDS = ['input', 'wav', 'bundle', 'profile', 'trace', 'engine', 'endpoint', 'cancelled', 'internal'] as const satisfies readonly ParityErrorKind[];
// Fails to compile when ParityErrorKind gains a kind this list lacks.
const _everyKind: Exclude<ParityErrorKind, (typeof ERROR_KINDS)[number]> extends never ? true : never = true;

/** The Envelope as it arrives from another process: checked before any transport hands it on. */
export const EnvelopeSchema: z.ZodType<Envelope> = z.union([
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({
    ok: z.literal(false),
    error: z.object({ kind: z.enum(ERROR_KINDS), message: z.string(), where: z.string().optional(), reason: z.enum(ERROR_REASONS).optional() }),
  }),
]);

/**
 * Checks a reply that crossed a process boundary; `from` names the transport and method for the error.
 * Throws an internal ParityError (never a bare ZodError) when the reply is not an Envelope.
 */
export function parseEnvelope(reply: unknown, from: string): Envelope {
  const parsed = EnvelopeSchema.safeParse(reply);
  if (parsed.success) return parsed.data;
  const detail = parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
  throw new ParityError('internal', `${from}: the reply is not an envelope {ok: true, value} or {ok: false, error: {kind, message}} (${detail})`);
}
