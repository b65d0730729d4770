/**
 * Largest WebSocket message browser mode's server takes (ws maxPayload; the client checks it before
 * sending). Files of an import travel as streamed uploads (POST /upload), so a call holds only JSON
 * and small inline bytes; 4 MiB leaves room for a few seconds of WAV sent inline by a script while a
 * connection's worst case stays near 12 MB (a message costs ~3× its size while received and decoded:
 * issue 27's probe measured 0.9 GB of RSS for one of 300 MB).
 */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** The close code ws sends when a message is over maxPayload (RFC 6455 1009, "message too big"). */
export const MESSAGE_TOO_BIG = 1009;

export const MESSAGE_LIMIT_WORDS = `the ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB one WebSocket message may carry (send files by upload: POST /upload, docs/studio.md)`;
