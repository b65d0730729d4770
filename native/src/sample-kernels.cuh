// Sampled decoding on the device, inside the captured decode step: the Sampler of
// electron/common/sampling/sample-token.ts as one block per pick, without sorting or a heap (radix select
// or, for at most 256 candidates, ranking by counting, of the top-k and top-p cuts; integer probability
// masses; no host sync, fixed shapes). The values, the
// penalty, the ties rule, exp and the Philox draw are the TypeScript's; only the sums are exact integers
// instead of float64 sums in heap order. See docs/native-backend.md (Sampling: what "the same draw" means).
#pragma once
#include <limits.h>
#include <math.h>
#include <string.h>

#include <cmath>
#include <string>
#include <vector>

#include "block-program.cuh"
#include "pick-rank.cuh"
#include "sample-math.cuh"
#include "session.h"

namespace parity {

/** Device-resident settings, written once per synthesis (kernels read them at replay time). */
struct SamplingParams {
  int greedy;      // 1: argmax of the penalised logits (repetition penalty != 1); 0: sample
  int topK;        // 0 = off
  double invT;     // 1 / temperature, as sample-token.ts computes it
  double topP;     // 1 = off
  double penalty;  // 1 = off
  uint32_t seedLo, seedHi;
};

/** The device form of `s`, refused with the ORT sampler's words (sample-token.ts checkSample) when bad. */
inline SamplingParams samplingParams(const SamplingSettings& s) {
  auto bad = [](const std::string& what) { throw NativeError("sampling: " + what); };
  if (s.sample && !(s.temperature > 0 && std::isfinite(s.temperature))) bad("temperature must be a finite number > 0, found " + std::to_string(s.temperature));
  if (s.topK < 0) bad("topK must be an integer >= 0, found " + std::to_string(s.topK));
  if (s.sample && !(s.topP > 0 && s.topP <= 1)) bad("topP must be in (0, 1], found " + std::to_string(s.topP));
  if (s.repetitionPenalty != 1 && !(s.repetitionPenalty > 0)) bad("repetitionPenalty must be > 0, found " + std::to_string(s.repetitionPenalty));
  if (s.seed >= (1ull << 53)) bad("seed must be < 2^53");
  SamplingParams p{};
  p.greedy = s.sample ? 0 : 1;
  p.topK = s.topK;
  p.invT = 1.0 / s.temperature;
  p.topP = s.topP;
  p.penalty = s.repetitionPenalty;
  p.seedLo = (uint32_t)(s.seed & 0xffffffffu);
  p.seedHi = (uint32_t)(s.seed >> 32);
  return p;
}

/** Logit k after the EOS mask (skip: that id is -inf, -1 for none) and the repetition penalty (seen[k]). */
PD inline double penalised(const float* logits, const int* seen, const SamplingParams* p, int skip, int k) {
  double x = maskedLogit(logits, skip, k);
  if (p->penalty != 1.0 && seen[k]) x = x > 0 ? x / p->penalty : x * p->penalty;
  return x;
}


/** The ranking of sample-token.ts's first loop over the penalised logits (a reduce by firstBest). */
struct PenalisedRanking {
  using Value = Ranked;
  const float* logits;
  const int* seen;
  const SamplingParams* p;
  int skip;
  PD Ranked identity() const { return Ranked{0.0, -1}; }
  PD Ranked load(int k) const { return Ranked{penalised(logits, seen, p, skip, k), k}; }
  PD Ranked combine(Ranked a, Ranked b) const { return firstBest(a, b); }
};

/** An unsigned key that orders scaled logits as JavaScript's > does (larger value, larger key; -0 = +0). NaN never gets here. */
PD inline uint64_t orderKey(double s) {
  if (s == 0) s = 0;
  uint64_t b;
  memcpy(&b, &s, 8);
  return (b >> 63) ? ~b : b | (1ull << 63);
}

/**
 * 2^S with S = 53 - ceil(log2 V): an id's probability mass is rint(exp(scaled - max) * 2^S), so the best id
 * weighs 2^S and any sum of V masses is an integer <= 2^53, exact in a double.
 */
PD inline double massScale(int V) {
  int bits = 0;
  while ((1 << bits) < V) bits++;
  return (double)(1ull << (53 - bits));
}

/** The ids ranked no worse than (key, id): a larger key, or the same key and an id <= id. */
struct Cut {
  unsigned long long key;
  int id;
  PD bool keeps(unsigned long long k, int j) const { return k > key || (k == key && j <= id); }
};

/** Where a radix select stands: the key bits fixed so far, the weight ranked above them, the crossing bin's size. */
struct RadixState {
  unsigned long long prefix, above, inBin, weightInBin;
};

/** The block's shared state of one pick (the per-id keys and masses live beside it, see SamplePickK). */
struct PickShared {
  WarpSlots<Ranked> best;
  WarpSlots<unsigned long long> totals;
  unsigned long long sum[kReduceThreads], upTo[kReduceThreads];
  unsigned long long stage[kReduceThreads];  // addInBin's
  unsigned count[kReduceThreads];
  unsigned long long listedKey[kReduceThreads];
  int listed[kReduceThreads], ranked[kReduceThreads];  // a few candidates (ids, their keys): in any order; best first
  unsigned listedCount;
  RadixState state;
  Cut cut;
  int last;
};

/**
 * One sampled pick in one block (Executor::block), the same program on the device and in the emulation
 * (block-program.cuh):
 * 1. the best id (reduce by firstBest): the pick when it is a NaN or the settings are greedy (a penalty);
 * 2. per id its order key and its integer mass;
 * 3. top-k: the k-th id in the order (value desc, id asc), ties at the cut resolved by id: where V <= 256
 *    every id ranked by counting, else a radix select (8-bit digits of the key, from the top);
 * 4. top-p: the shortest best-first prefix of the top-k ids whose mass reaches p * (their total): where they
 *    are at most 256, ranked by counting and cut by a scan of their masses in rank order, else the radix
 *    select weighted by mass;
 * 5. the draw: target = u * (kept total), the first kept id in id order whose cumulative mass exceeds it
 *    (prefix sums over contiguous id chunks), else the last kept id.
 * Every sum is an integer, so no step depends on the threads' order. Writes *code and marks it in seen.
 */
struct SamplePickK {
  static constexpr const char* name = "sample_pick";
  static_assert(kReduceThreads == 256, "one radix bin per thread");
  const float* logits;
  int* seen;
  const SamplingParams* p;
  const int* step;
  int skip;
  unsigned long long* scratch;  // [2V] keys and masses in global memory, or null: in dynamic shared memory
  int* code;
  int V, codebook;

  static size_t sharedBytes(int V) { return (size_t)V * 2 * sizeof(unsigned long long); }

  PD int chunkSize() const { return (V + kReduceThreads - 1) / kReduceThreads; }

  PD void finish(int c) const {
    *code = c;
    if (c >= 0 && c < V) seen[c] = 1;
  }

  template <class B>
  PD void program(const B& b, PickShared& sh, unsigned long long* key, unsigned long long* mass) const {
    const PenalisedRanking rank{logits, seen, p, skip};
    const int best = b.reduce([&](int t) { return reduceStride(rank, t, V); }, [](Ranked x, Ranked y) { return firstBest(x, y); }, sh.best).i;
    const double top = penalised(logits, seen, p, skip, best);
    if (top != top || p->greedy) {
      b.each([&](int t) {
        if (t == 0) finish(best);
      });
      return;
    }
    const double maxScaled = top * p->invT, scale = massScale(V);
    // An infinite largest value (all -inf, a +inf, or a temperature that overflows it): exp(s - max) is NaN
    // for some id, so sample-token.ts's sums are NaN; its top-p keeps every top-k id and its draw walks past
    // them all. No masses then: the pick is the largest top-k id.
    const bool noMasses = maxScaled == INFINITY || maxScaled == -INFINITY;
    b.each([&](int t) {
      for (int j = t; j < V; j += kReduceThreads) {
        const double s = penalised(logits, seen, p, skip, j) * p->invT;
        key[j] = orderKey(s);
        mass[j] = noMasses ? 0ull : (unsigned long long)rint(jsExp(s - maxScaled) * scale);
      }
      sh.sum[t] = 0;
      sh.count[t] = 0;
      if (t == 0) {
        sh.last = -1;
        sh.listedCount = 0;
      }
    });
    const Cut all{0, INT_MAX};
    const int k = p->topK > 0 && p->topK < V ? p->topK : V;
    Cut inK = all, inP = all;
    const bool fewIds = V <= kReduceThreads;  // one thread per id: rank them all once, both cuts read the ranking
    if (fewIds && (k < V || p->topP < 1)) rankCandidates(b, sh, key, all);
    if (k < V) inK = fewIds ? Cut{key[sh.ranked[k - 1]], sh.ranked[k - 1]} : select(b, sh, key, mass, all, false, (double)k);
    if (noMasses) {
      largestKept(b, sh, key, inK);
      return;
    }
    if (p->topP < 1) {
      if (!fewIds && k <= kReduceThreads) rankCandidates(b, sh, key, inK);
      inP = k <= kReduceThreads ? prefixCut(b, sh, key, mass, k, p->topP) : select(b, sh, key, mass, inK, true, p->topP);
    }
    draw(b, sh, key, mass, inK, inP);
  }

  /** Writes the largest id `cand` keeps (sh.last is -1 on entry). */
  template <class B>
  PD void largestKept(const B& b, PickShared& sh, const unsigned long long* key, Cut cand) const {
    b.each([&](int t) {
      int last = -1;
      for (int j = t; j < V; j += kReduceThreads) {
        if (cand.keeps(key[j], j)) last = j;
      }
      if (last >= 0) maxTo(&sh.last, last);
    });
    b.each([&](int t) {
      if (t == 0) finish(sh.last);
    });
  }

  /**
   * The shortest best-first prefix of the ids `cand` keeps whose weight reaches the target, as a Cut: by
   * count, target = goal (0 < goal <= their number); by mass, target = goal * (their total mass), 0 < goal <= 1
   * (the first pass sums every candidate). Needs sh.sum and sh.count zero (as it leaves them). Every weight
   * below 2^53, so each comparison with the target is exact.
   */
  template <class B>
  PD Cut select(const B& b, PickShared& sh, const unsigned long long* key, const unsigned long long* mass, Cut cand, bool byMass,
                double goal) const {
    RadixState s{0, 0, 0, 0};
    double target = goal;
    unsigned long long fixed = 0;  // the key bits already decided
    for (int shift = 56; shift >= 0; shift -= 8) {
      b.each([&](int t) {
        for (int j0 = 0; j0 < V; j0 += kReduceThreads) {  // whole warps per step: addInBin's rule
          const int j = j0 + t;
          const bool in = j < V && cand.keeps(key[j], j) && (key[j] & fixed) == s.prefix;
          const int bin = in ? 255 - (int)((key[j] >> shift) & 255) : -1;  // bin 0: the largest digit
          addInBin(sh.count, byMass ? sh.sum : nullptr, bin, in ? mass[j] : 0, sh.stage + (t & ~31));
        }
      });
      b.scan([&](int t) { return byMass ? sh.sum[t] : (unsigned long long)sh.count[t]; }, sh.upTo, sh.totals);
      if (byMass && fixed == 0) target = goal * (double)sh.upTo[kReduceThreads - 1];
      b.each([&](int t) {
        const unsigned long long before = t ? sh.upTo[t - 1] : 0;
        if ((double)(s.above + before) < target && (double)(s.above + sh.upTo[t]) >= target) {
          sh.state = RadixState{s.prefix | ((unsigned long long)(255 - t) << shift), s.above + before, sh.count[t], sh.upTo[t] - before};
        }
        sh.sum[t] = 0;
        sh.count[t] = 0;
      });
      s = sh.state;
      fixed |= 255ull << shift;
      // The crossing bin is the cut's last candidate or all of it: keep every key from the bin's prefix up (the
      // candidates' test drops the rest).
      if (s.inBin == 1 || (!byMass && (double)(s.above + s.weightInBin) == target)) return Cut{s.prefix, INT_MAX};
    }
    // Every key bit fixed: the crossing bin is one key, its ids tie (equal mass); keep the fewest that reach target.
    const unsigned long long w = s.weightInBin / s.inBin;
    unsigned long long r = (unsigned long long)ceil((target - (double)s.above) / (double)w);
    if (r < 1) r = 1;
    while (r > 1 && (double)(s.above + (r - 1) * w) >= target) r--;
    while ((double)(s.above + r * w) < target) r++;
    if (r >= s.inBin) return Cut{s.prefix, INT_MAX};
    return nthTied(b, sh, key, cand, s.prefix, r);
  }

  /**
   * sh.ranked[0..n) = the n <= kReduceThreads ids `cand` keeps, best first (value desc, id asc): listed in
   * any order (slots claimed by an atomic add), each id's rank is the number of candidates ranked before it.
   */
  template <class B>
  PD void rankCandidates(const B& b, PickShared& sh, const unsigned long long* key, Cut cand) const {
    const int chunk = chunkSize();
    b.each([&](int t) {
      int n = 0;
      for (int j = t * chunk; j < V && j < (t + 1) * chunk; j++) n += cand.keeps(key[j], j);
      int at = (int)claim(&sh.listedCount, (unsigned)n);
      for (int j = t * chunk; j < V && j < (t + 1) * chunk; j++) {
        if (!cand.keeps(key[j], j)) continue;
        sh.listed[at] = j;
        sh.listedKey[at++] = key[j];
      }
    });
    const int n = (int)sh.listedCount;
    b.each([&](int t) {
      if (t >= n) return;
      const int j = sh.listed[t];
      const Cut before{key[j], j - 1};  // the candidates ranked before j: a larger key, or its key and a lower id
      int r = 0;
      for (int q = 0; q < n; q++) r += before.keeps(sh.listedKey[q], sh.listed[q]);
      sh.ranked[r] = j;
    });
  }

  /**
   * The shortest prefix of sh.ranked[0..n) whose mass reaches p * (their total mass), as a Cut: what select
   * finds by mass over the same candidates, 0 < p <= 1.
   */
  template <class B>
  PD Cut prefixCut(const B& b, PickShared& sh, const unsigned long long* key, const unsigned long long* mass, int n, double p) const {
    b.scan([&](int t) { return t < n ? mass[sh.ranked[t]] : 0ull; }, sh.upTo, sh.totals);
    const double target = p * (double)sh.upTo[kReduceThreads - 1];
    b.each([&](int t) {
      const unsigned long long before = t ? sh.upTo[t - 1] : 0;
      if (t < n && (double)before < target && (double)sh.upTo[t] >= target) sh.cut = Cut{key[sh.ranked[t]], sh.ranked[t]};
    });
    return sh.cut;
  }

  /** Cut{k, the r-th smallest id among the candidates with key k}: ties go to the lower ids. */
  template <class B>
  PD Cut nthTied(const B& b, PickShared& sh, const unsigned long long* key, Cut cand, unsigned long long k, unsigned long long r) const {
    const int chunk = chunkSize();
    b.scan([&](int t) {
      unsigned long long n = 0;
      for (int j = t * chunk; j < V && j < (t + 1) * chunk; j++) n += key[j] == k && cand.keeps(key[j], j);
      return n;
    }, sh.upTo, sh.totals);
    b.each([&](int t) {
      unsigned long long n = t ? sh.upTo[t - 1] : 0;
      if (!(n < r && r <= sh.upTo[t])) return;
      for (int j = t * chunk; j < V && j < (t + 1) * chunk; j++) {
        if (key[j] == k && cand.keeps(key[j], j) && ++n == r) {
          sh.cut = Cut{k, j};
          return;
        }
      }
    });
    return sh.cut;
  }

  /** The inverse-CDF draw over the ids both cuts keep, in id order (sample-token.ts's walk). */
  template <class B>
  PD void draw(const B& b, PickShared& sh, const unsigned long long* key, const unsigned long long* mass, Cut inK, Cut inP) const {
    const int chunk = chunkSize();
    b.scan([&](int t) {
      unsigned long long m = 0;
      int last = -1;
      for (int j = t * chunk; j < V && j < (t + 1) * chunk; j++) {
        if (inK.keeps(key[j], j) && inP.keeps(key[j], j)) {
          m += mass[j];
          last = j;
        }
      }
      if (last >= 0) maxTo(&sh.last, last);
      return m;
    }, sh.upTo, sh.totals);
    const unsigned long long total = sh.upTo[kReduceThreads - 1];
    const double target = philoxUniform(p->seedLo, p->seedHi, *step, codebook, 0) * (double)total;
    b.each([&](int t) {
      if (!((double)total > target)) {
        if (t == 0) finish(sh.last);
        return;
      }
      unsigned long long cumulative = t ? sh.upTo[t - 1] : 0;
      if (!((double)cumulative <= target && (double)sh.upTo[t] > target)) return;  // one thread's chunk holds the draw
      for (int j = t * chunk; j < V && j < (t + 1) * chunk; j++) {
        if (!(inK.keeps(key[j], j) && inP.keeps(key[j], j))) continue;
        cumulative += mass[j];
        if ((double)cumulative > target) {
          finish(j);
          return;
        }
      }
    });
  }

#ifdef __CUDACC__
  __device__ void run() const {
    __shared__ PickShared sh;
    extern __shared__ unsigned long long perId[];
    unsigned long long* base = scratch ? scratch : perId;
    program(DeviceThreads{}, sh, base, base + V);
  }
#endif

  void emulate() const {
    PickShared sh{};
    std::vector<unsigned long long> local(scratch ? 0 : 2 * (size_t)V);
    unsigned long long* base = scratch ? scratch : local.data();
    program(EmulatedThreads{}, sh, base, base + V);
  }
};

}  // namespace parity
