/**
 * The prompts of rows 1..N−1 of a batch=N run (docs/profiles.md "Batch invariance"): fixed, of
 * different lengths (4 to 42 characters: shorter and longer prefills than most prompts, so rows are
 * padded both ways), ASCII so that every byte-level bundle takes them. Row r gets BATCH_TEXTS[(r − 1) mod 7].
 */
export const BATCH_TEXTS: readonly string[] = [
  'Yes.',
  'A second row of the batch, longer.',
  'Three.',
  'The fourth prompt is the longest one here.',
  'Row five, mid length.',
  'Six: short.',
  'Seven rows of other prompts fill a batch.',
];

export const batchText = (row: number): string => BATCH_TEXTS[(row - 1) % BATCH_TEXTS.length];
