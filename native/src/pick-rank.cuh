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

/**
 * Greedy pick (repetition penalty 1), one block (Executor::reduce): *code = the first NaN's id, else
 * the first id of the largest logit, `skip` (EOS) counted as -inf — Sampler.sample in greedy mode.
 */
struct ArgmaxK {
  static constexpr const char* name = "argmax";
  using Value = Ranked;
  const float* logits;
  int skip;
  int* code;
  PD Ranked identity() const { return Ranked{0.0, -1}; }
  PD Ranked load(int k) const { return Ranked{maskedLogit(logits, skip, k), k}; }
  PD Ranked combine(Ranked a, Ranked b) const { return firstBest(a, b); }
  PD void store(Ranked r) const { *code = r.i; }
};

}  // namespace parity
