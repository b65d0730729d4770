import { z } from 'zod';

/**
 * Typed errors that name what was wrong and where. Every transport (CLI, IPC, WebSocket) turns a
 * ParityError into the same JSON shape via `toErrorPayload`; the CLI maps `exitCode` to its exit status.
 */
export const ERROR_KINDS = ['input', 'wav', 'bundle', 'profile', 'trace', 'engine', 'endpoint', 'cancelled', 'internal'] as const;
export type ParityErrorKind = (typeof ERROR_KINDS)[number];

/**
 * A machine-readable cause for the few refusals a client acts on, so it never matches message text
 * (which is written for people and may change). `exists`: the target is already there and is replaced
 * only when the caller allows it (an export folder; the studio then asks before replacing).
 */
export const ERROR_REASONS = ['exists'] as const;
export type ParityErrorReason = (typeof ERROR_REASONS)[number];

export class ParityError extends Error {
  readonly kind: ParityErrorKind;
  /** Where the problem is: a file path, a tensor name, a profile string, a line number. */
  readonly where?: string;
  /** Set only where a client acts on the cause (see ERROR_REASONS); most errors have none. */
  readonly reason?: ParityErrorReason;

  constructor(kind: ParityErrorKind, message: string, where?: string, reason?: ParityErrorReason) {
    super(message);
    this.name = 'ParityError';
    this.kind = kind;
    this.where = where;
    if (reason !== undefined) this.reason = reason;
  }

  /** 2 for anything the user can fix (bad input or usage); 1 is reserved for a failed gate. */
  get exitCode(): number {
    return this.kind === 'internal' || this.kind === 'engine' ? 3 : 2;
  }
}

export class InputError extends ParityError {
  constructor(message: string, where?: string, reason?: ParityErrorReason) {
    super('input', message, where, reason);
    this.name = 'InputError';
  }
}

export class WavError extends ParityError {
  constructor(file: string, problem: string) {
    super('wav', `${file}: ${problem}`, file);
    this.name = 'WavError';
  }
}

export class BundleError extends ParityError {
  constructor(message: string, where?: string) {
    super('bundle', message, where);
    this.name = 'BundleError';
  }
}

export class ProfileError extends ParityError {
  constructor(message: string, where?: string) {
    super('profile', message, where);
    this.name = 'ProfileError';
  }
}

/** A speech endpoint failed: down, timed out, an HTTP error, or a response that is not audio parity reads. */
export class EndpointError extends ParityError {
  constructor(endpoint: string, problem: string) {
    super('endpoint', `${endpoint}: ${problem}`, endpoint);
    this.name = 'EndpointError';
  }
}

export class CancelledError extends ParityError {
  constructor(message = 'cancelled') {
    super('cancelled', message);
    this.name = 'CancelledError';
  }
}

/** A ParityError as data: the one shape every crossing (worker, IPC, WebSocket, job events) carries. */
export const ErrorPayload = z.object({
  kind: z.enum(ERROR_KINDS),
  message: z.string(),
  where: z.string().optional(),
  reason: z.enum(ERROR_REASONS).optional(),
});
export type ErrorPayload = z.infer<typeof ErrorPayload>;

export function toErrorPayload(error: unknown): ErrorPayload {
  if (error instanceof ParityError) {
    return { kind: error.kind, message: error.message, where: error.where, ...(error.reason !== undefined ? { reason: error.reason } : {}) };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'internal', message };
}

/** The error a payload describes, as the side that threw it would have raised it. */
export function errorFromPayload(payload: ErrorPayload): ParityError {
  if (payload.kind === 'cancelled') return new CancelledError(payload.message);
  return new ParityError(payload.kind, payload.message, payload.where, payload.reason);
}
