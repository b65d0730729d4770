// Sampled decoding on the device, inside the captured decode step: the Sampler of
// electron/common/sampling/sample-token.ts as three kernels per pick (best id by one block reduce, scores, pick; no host sync, fixed shapes).
// Every choice the TypeScript makes (float64 values, the penalty, the ties rule, the heap orders in
// which top-k and top-p visit the ids, the order of every sum) is reproduced, so for the same seed
// the device picks the same code as the ORT backend; see docs/native-backend.md (Numerics).
#pragma once
#include <math.h>

#include <cmath>
#include <string>
#include <vector>

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

/**
 * *best = the id sample-token.ts's first loop stops at: the first NaN's id if there is one, else the
 * first id of the largest value. One block (Executor::reduce) ranking by firstBest (pick-rank.cuh), as
 * the greedy ArgmaxK does over the unpenalised logits.
 */
struct SampleBestK {
  static constexpr const char* name = "sample_best";
  using Value = Ranked;
  const float* logits;
  const int* seen;
  const SamplingParams* p;
  int skip;
  int* best;
  PD Ranked identity() const { return Ranked{0.0, -1}; }
  PD Ranked load(int k) const { return Ranked{penalised(logits, seen, p, skip, k), k}; }
  PD Ranked combine(Ranked a, Ranked b) const { return firstBest(a, b); }
  PD void store(Ranked r) const { *best = r.i; }
};

/**
 * Thread j: its penalised logit, that logit / temperature, and exp(scaled - max), max being the
 * scaled value of *best (sample-token.ts: max = v[best]); when *best is a NaN the pick returns it and
 * e is not used. Also resets the pick's scratch: heap[j] = j (the id order top-k and the plain
 * nucleus start from) and kept[j] = 0, so the one-thread pick has no O(V) clearing passes.
 */
struct SampleScoresK {
  static constexpr const char* name = "sample_scores";
  const float* logits;
  const int* seen;
  const SamplingParams* p;
  const int* best;
  double *pen, *scaled, *e;
  int *heap, *kept;
  int skip;
  PD void operator()(int j) const {
    double x = penalised(logits, seen, p, skip, j);
    double s = x * p->invT;
    pen[j] = x;
    scaled[j] = s;
    e[j] = jsExp(s - penalised(logits, seen, p, skip, *best) * p->invT);
    heap[j] = j;
    kept[j] = 0;
  }
};

/**
 * One thread: the rest of Sampler.sample over what SampleBestK and SampleScoresK wrote. What is left
 * is sequential by definition: the top-k heap's scan, the top-p pops and the two sums run in the
 * TypeScript's orders (a parallel sum would round differently), and the inverse-CDF walk stops at the
 * first id past the target. The draw is Philox at counter (*step, codebook, 0, 0), *step being written
 * on the device before each step, so every replay of a captured step draws new numbers. Writes *code
 * and marks it in seen (the history).
 */
struct SamplePickK {
  static constexpr const char* name = "sample_pick";
  const double *pen, *scaled, *e;
  const SamplingParams* p;
  const int* step;
  const int* best;
  int* heap;  // [V] scratch, the identity on entry (SampleScoresK)
  int* kept;  // [V] scratch, zero on entry (SampleScoresK)
  int* seen;
  int* code;
  int V, codebook;

  PD bool better(int a, int b) const { return scaled[a] > scaled[b] || (scaled[a] == scaled[b] && a < b); }

  PD void siftDown(int i, int size, bool minHeap) const {
    for (;;) {
      int l = 2 * i + 1;
      if (l >= size) return;
      int r = l + 1, c = l;
      if (r < size && (minHeap ? better(heap[l], heap[r]) : better(heap[r], heap[l]))) c = r;
      if (!(minHeap ? better(heap[i], heap[c]) : better(heap[c], heap[i]))) return;
      int t = heap[i];
      heap[i] = heap[c];
      heap[c] = t;
      i = c;
    }
  }

  /** The k best ids in heap[0..k), a min-heap (sample-token.ts topK; heap[0..k) starts as 0..k-1). */
  PD int topK(int k) const {
    for (int i = (k >> 1) - 1; i >= 0; i--) siftDown(i, k, true);
    for (int i = k; i < V; i++) {
      if (better(i, heap[0])) {
        heap[0] = i;
        siftDown(0, k, true);
      }
    }
    return k;
  }

  /** The nucleus of heap[0..m), best first, popped from a max-heap (sample-token.ts topP). */
  PD int topP(int m, double topP) const {
    double total = 0;
    for (int j = 0; j < m; j++) total += e[heap[j]];
    for (int i = (m >> 1) - 1; i >= 0; i--) siftDown(i, m, false);
    int size = m;
    double cumulative = 0;
    while (size > 0) {
      int top = heap[0];
      heap[0] = heap[size - 1];
      heap[size - 1] = top;
      size--;
      if (size > 0) siftDown(0, size, false);
      cumulative += e[top];
      if (cumulative >= topP * total) break;
    }
    int n = m - size;
    for (int j = 0; j < n; j++) heap[j] = heap[size + j];
    return n;
  }

  PD int choose() const {
    int b = *best;
    if (pen[b] != pen[b] || p->greedy) return b;
    int k = p->topK > 0 && p->topK < V ? p->topK : V;
    int m = k < V ? topK(k) : V;  // k == V: all ids, heap already 0..V-1
    if (p->topP < 1) m = topP(m, p->topP);
    double total = 0;
    for (int j = 0; j < m; j++) {
      kept[heap[j]] = 1;
      total += e[heap[j]];
    }
    double target = philoxUniform(p->seedLo, p->seedHi, *step, codebook, 0) * total;
    double cumulative = 0;
    int last = -1;
    for (int i = 0; i < V; i++) {
      if (!kept[i]) continue;
      cumulative += e[i];
      last = i;
      if (cumulative > target) return i;
    }
    return last;
  }

  PD void operator()(int) const {
    int c = choose();
    *code = c;
    if (c >= 0 && c < V) seen[c] = 1;
  }
};

/**
 * One pick in one block (Executor::block): SampleBestK's reduce (the same stride-then-tree order), then
 * SampleScoresK over the ids with the scaled values, exp terms and kept flags in shared memory, then
 * SamplePickK on thread 0 reading them from there. The very functors of the three-kernel path in the same
 * order, so the same id for every row (check.cu and samplerPick compare the two); one launch instead of
 * three, and the sequential top-k / top-p / inverse-CDF walk reads on-chip memory instead of global.
 * Dynamic shared memory: sharedBytes(V); session.cu falls back to the three kernels where it is too much.
 */
struct SampleRowK {
  static constexpr const char* name = "sample_row";
  const float* logits;
  int* seen;
  const SamplingParams* p;
  const int* step;
  int skip;
  double* pen;  // [V] global scratch (pen[best] is read by the pick)
  int* heap;    // [V] global scratch
  int* best;    // [1] also written, for the trace of the pick
  int* code;
  int V, codebook;

  static size_t sharedBytes(int V) { return (size_t)V * (2 * sizeof(double) + sizeof(int)); }

  PD void pickWith(double* scaled, double* e, int* kept, const int* b) const {
    SamplePickK{pen, scaled, e, p, step, b, heap, kept, seen, code, V, codebook}(0);
  }
  PD SampleScoresK scores(double* scaled, double* e, int* kept, const int* b) const {
    return SampleScoresK{logits, seen, p, b, pen, scaled, e, heap, kept, skip};
  }

#ifdef __CUDACC__
  __device__ void run() const {
    extern __shared__ double shared[];
    double* scaled = shared;
    double* e = shared + V;
    int* kept = reinterpret_cast<int*>(shared + 2 * V);
    __shared__ Ranked acc[kReduceThreads];
    __shared__ int chosen;
    const SampleBestK bestK{logits, seen, p, skip, best};
    const int t = threadIdx.x;
    acc[t] = reduceStride(bestK, t, V);
    __syncthreads();
    for (int s = kReduceThreads / 2; s > 0; s >>= 1) {
      if (t < s) acc[t] = bestK.combine(acc[t], acc[t + s]);
      __syncthreads();
    }
    if (t == 0) {
      chosen = acc[0].i;
      *best = chosen;
    }
    __syncthreads();
    const SampleScoresK sc = scores(scaled, e, kept, &chosen);
    for (int j = t; j < V; j += blockDim.x) sc(j);
    __syncthreads();
    if (t == 0) pickWith(scaled, e, kept, &chosen);
  }
#endif

  void emulate() const {
    std::vector<Ranked> acc(kReduceThreads);
    const SampleBestK bestK{logits, seen, p, skip, best};
    for (int t = 0; t < kReduceThreads; t++) acc[t] = reduceStride(bestK, t, V);
    for (int s = kReduceThreads / 2; s > 0; s >>= 1) {
      for (int t = 0; t < s; t++) acc[t] = bestK.combine(acc[t], acc[t + s]);
    }
    int chosen = acc[0].i;
    *best = chosen;
    std::vector<double> scaled(V), e(V);
    std::vector<int> kept(V);
    const SampleScoresK sc = scores(scaled.data(), e.data(), kept.data(), &chosen);
    for (int j = 0; j < V; j++) sc(j);
    pickWith(scaled.data(), e.data(), kept.data(), &chosen);
  }
};

}  // namespace parity
