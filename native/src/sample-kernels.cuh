// Sampled decoding on the device, inside the captured decode step: the Sampler of
// electron/common/sampling/sample-token.ts as two kernels per pick (no host sync, fixed shapes).
// Every choice the TypeScript makes (float64 values, the penalty, the ties rule, the heap orders in
// which top-k and top-p visit the ids, the order of every sum) is reproduced, so for the same seed
// the device picks the same code as the ORT backend; see docs/native-backend.md (Numerics).
#pragma once
#include <math.h>

#include "sample-math.cuh"

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

/**
 * Thread j: its penalised logit, that logit / temperature, and exp(scaled - max). Every thread finds
 * the argmax itself (V is small), so no reduction or shared memory is needed. skip: an id masked to
 * -inf (the talker's EOS), -1 for none. seen[id] != 0: the id was picked before in this codebook.
 */
struct SampleScoresK {
  static constexpr const char* name = "sample_scores";
  const float* logits;
  const int* seen;
  const SamplingParams* p;
  double *pen, *scaled, *e;
  int V, skip;
  PD double value(int k) const {
    double x = k == skip ? -INFINITY : (double)logits[k];
    if (p->penalty != 1.0 && seen[k]) x = x > 0 ? x / p->penalty : x * p->penalty;
    return x;
  }
  PD void operator()(int j) const {
    double vb = value(0);  // the largest value, found like the pick kernel finds its index
    for (int k = 1; k < V; k++) {
      double v = value(k);
      if (v != v) break;  // the pick kernel returns the first NaN's id: e is not used then
      if (v > vb) vb = v;
    }
    double x = value(j);
    double s = x * p->invT;
    pen[j] = x;
    scaled[j] = s;
    e[j] = jsExp(s - vb * p->invT);
  }
};

/**
 * One thread: the rest of Sampler.sample over the values SampleScoresK wrote. The draw is Philox at
 * counter (*step, codebook, 0, 0), *step being written on the device before each step, so every replay
 * of a captured step draws new numbers. Writes *code and marks it in seen (the history).
 */
struct SamplePickK {
  static constexpr const char* name = "sample_pick";
  const double *pen, *scaled, *e;
  const SamplingParams* p;
  const int* step;
  int* heap;  // [V] scratch
  int* kept;  // [V] scratch
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

  /** The k best ids in heap[0..k), a min-heap (sample-token.ts topK). */
  PD int topK(int k) const {
    for (int i = 0; i < k; i++) heap[i] = i;
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
    int best = 0;
    for (int i = 0; i < V; i++) {
      if (pen[i] != pen[i]) return i;
      if (pen[i] > pen[best]) best = i;
    }
    if (p->greedy) return best;
    int k = p->topK > 0 && p->topK < V ? p->topK : V;
    int m = k < V ? topK(k) : V;
    if (k == V) {
      for (int i = 0; i < V; i++) heap[i] = i;
    }
    if (p->topP < 1) m = topP(m, p->topP);
    for (int i = 0; i < V; i++) kept[i] = 0;
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

}  // namespace parity
