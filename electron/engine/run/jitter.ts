/**
 * Fault nondeterministic@N (docs/faults.md): a deliberately nondeterministic profile. From talker step N
 * on, each entry of the step's input embedding is scaled by 1 + 2^-20·u with u uniform in [−1, 1) from
 * Math.random, NOT from the seeded generator, so two runs of the same request differ, by about what a
 * reduction summed in another order (split-K GEMM, atomics) moves float32 values: a few ulps (2^-20 is
 * 8 float32 ulps at 1.0).
 */
export function jitterInput(input: Float32Array): void {
  for (let i = 0; i < input.length; i++) input[i] *= 1 + 2 ** -20 * (2 * Math.random() - 1);
}
