/**
 * The cross-correlation lag search range, ± ms, used when a request gives none (CLI and studio alike).
 * A module of its own, importing nothing: the API schemas use it, and the sandboxed preload bundles
 * those schemas, which must not pull in the FFT.
 */
export const DEFAULT_MAX_LAG_MS = 50;
