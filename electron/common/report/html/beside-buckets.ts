/**
 * Max/min pairs per track that report.html embeds when its audio is past the embedding limit: enough for a
 * 4k-wide screen at full view. A track of at most this many samples is embedded as its samples.
 */
export const BESIDE_BUCKETS = 4096;
