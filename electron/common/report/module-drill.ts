import { z } from 'zod';
import { TensorComparison } from './drill.js';

/**
 * `moduleDrill` section of a trace comparison report (`parity compare-trace` with module sidecars on
 * both sides, docs/python-modules.md): inside the first divergent step, the first recorded module output
 * in A's execution order that differs beyond tolerance or holds a NaN. Outputs are paired by
 * (step, module name, occurrence): the k-th call of a module in the step on A with the k-th on B.
 */
export const ModuleFinding = z.object({
  /** Module name as recorded (`named_modules()` name; `name#i` for element i of a tuple output). */
  name: z.string(),
  /** Which call of this module in the step (0-based), when a step calls it more than once. */
  occurrence: z.number().int().nonnegative(),
  /** Its place in each side's execution order within the step (0-based). */
  seq: z.object({ a: z.number().int().nonnegative(), b: z.number().int().nonnegative() }),
  ...TensorComparison.shape,
});
export type ModuleFinding = z.infer<typeof ModuleFinding>;

export const ModuleDrillReport = z.object({
  /**
   * no-divergence: the localiser found no divergent step; found: a module output differs or holds a
   * NaN; nothing-differs: every paired output matches within tolerance; not-recorded: a sidecar holds
   * no module output at that step (`recordedSteps` says which it holds).
   */
  status: z.enum(['no-divergence', 'found', 'nothing-differs', 'not-recorded']),
  step: z.number().int().positive().nullable(),
  /** The sidecar files compared, as named to the tool. */
  sidecars: z.object({ a: z.string(), b: z.string() }),
  /** An element matches when |a − b| ≤ abs + rel·max(|a|, |b|); NaN matches nothing. */
  tolerance: z.object({ abs: z.number().nonnegative(), rel: z.number().nonnegative() }),
  module: ModuleFinding.nullable(),
  /** Outputs paired and compared (up to the finding), and those skipped because their shapes differ. */
  compared: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  /** The skipped outputs: `name (A [shape], B [shape])`. */
  shapesDiffer: z.array(z.string()).optional(),
  /** Outputs of A (up to the finding) with no (name, occurrence) on B. */
  unmatched: z.number().int().nonnegative(),
  /** Steps each sidecar holds, as ranges ("1-4, 6"), when the step was not recorded. */
  recordedSteps: z.object({ a: z.string(), b: z.string() }).optional(),
  /** One line: where the difference starts. */
  summary: z.string(),
});
export type ModuleDrillReport = z.infer<typeof ModuleDrillReport>;
