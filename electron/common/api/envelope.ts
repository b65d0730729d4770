import { z } from 'zod';
import { ErrorPayload, ParityError } from '../errors.js';
import { describeIssues } from '../zod-issues.js';
import type { Envelope } from './create-client.js';

/** The Envelope as it arrives from another process: checked before any transport hands it on. */
export const EnvelopeSchema: z.ZodType<Envelope> = z.union([
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({
    ok: z.literal(false),
    error: ErrorPayload,
  }),
]);

/**
 * Checks a reply that crossed a process boundary; `from` names the transport and method for the error.
 * Throws an internal ParityError (never a bare ZodError) when the reply is not an Envelope.
 */
export function parseEnvelope(reply: unknown, from: string): Envelope {
  const parsed = EnvelopeSchema.safeParse(reply);
  if (parsed.success) return parsed.data;
  const detail = describeIssues(parsed.error);
  throw new ParityError('internal', `${from}: the reply is not an envelope {ok: true, value} or {ok: false, error: {kind, message}} (${detail})`);
}
