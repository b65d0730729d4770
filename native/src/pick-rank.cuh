// The one ranking every code pick uses, greedy (ArgmaxK) and sampled (SamplePickK's best id): the id that
// sample-token.ts's first loop ends on over the row the engine hands it (EOS set to -Infinity).
#pragma once
#include <math.h>

#include "launch.cuh"

namespace parity {

/** Logit k as the engine's Sampler sees it: the masked id (EOS; -1 = none) is -inf, never skipped. */
PD inline double maskedLogit(const float* logits, int skip, int k) { return k == skip ? -INFINITY : (double)logits[k]; }

/** An id and its value; i = -1 is the empty candidate (a reduce thread with no ids). */
struct Ranked {
  double v;
  int i;
};

/**
 * The better of two candidates: a NaN first, then the larger value, then the lower id; +0 and -0 are
 * equal (JavaScript's >). A strict total order on ids, so a reduce by it gives the first NaN's id,
 * else the first id of the largest value, in any combine order.
 */
PD inline Ranked firstBest(Ranked a, Ranked b) {
  if (a.i < 0) return b;
  if (b.i < 0) return a;
  bool an = a.v != a.v, bn = b.v != b.v;
  if (an != bn) return an ? a : b;
  if (!an && a.v != b.v) return a.v > b.v ? a : b;
  return a.i < b.i ? a : b;
}

/** Two lanes' best candidates meet by firstBest (a selection, so every combine order gives the same id). */
PD inline Ranked meet(Ranked a, Ranked b) { return firstBest(a, b); }
#ifdef __CUDACC__
__device__ inline Ranked shuffleXor(Ranked r, int lane) {
  return Ranked{__shfl_xor_sync(0xffffffffu, r.v, lane), __shfl_xor_sync(0xffffffffu, r.i, lane)};
}
#endif

/**
 * Greedy pick (repetition penalty 1), one warp (Executor::rows with one row, or a fused kernel's RowPhase):
 * *code = the first NaN's id, else the first id of the largest logit, `skip` (EOS) counted as -inf —
 * Sampler.sample in greedy mode.
 */
struct ArgmaxK {
  static constexpr const char* name = "argmax";
  using Sum = Ranked;
  const float* logits;
  int skip;
  int* code;
  int V;
  PD Ranked partial(int, int lane) const {
    Ranked best{0.0, -1};
    for (int k = lane; k < V; k += kWarp) best = firstBest(best, Ranked{maskedLogit(logits, skip, k), k});
    return best;
  }
  PD void finish(int, Ranked r) const { *code = r.i; }
};

}  // namespace parity
