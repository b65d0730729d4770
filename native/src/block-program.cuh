// A one-block kernel written once for the device and the CPU emulation: a sequence of phases, each run
// by every thread of the block and followed by a barrier. The emulation runs a phase's threads one after
// another, so a phase may combine across threads only through the order-free integer adds below (a phase
// never reads what another thread writes in the same phase); then device and emulation compute the same.
#pragma once
#include <stdint.h>

#include "launch.cuh"

namespace parity {

/** Phases on the device: each thread runs the body for its own index, then __syncthreads. */
struct DeviceThreads {
  template <class F>
  PD void each(F f) const {
#ifdef __CUDA_ARCH__
    f((int)threadIdx.x);
    __syncthreads();
#endif
  }
};

/** Phases in the emulation: the body for thread 0, 1, ..., kReduceThreads - 1. */
struct EmulatedThreads {
  template <class F>
  PD void each(F f) const {
    for (int t = 0; t < kReduceThreads; t++) f(t);
  }
};

/** *a += v, atomic on the device (integer sums are exact, so the threads' order does not matter). */
PD inline void addTo(unsigned long long* a, unsigned long long v) {
#ifdef __CUDA_ARCH__
  atomicAdd(a, v);
#else
  *a += v;
#endif
}

/** *a = max(*a, v), atomic on the device. */
PD inline void maxTo(int* a, int v) {
#ifdef __CUDA_ARCH__
  atomicMax(a, v);
#else
  if (v > *a) *a = v;
#endif
}

/**
 * Inclusive prefix sums of x[0..kReduceThreads) (Hillis-Steele, log2 phases, ping-pong through tmp); returns
 * the buffer holding them (x itself: the phase count is even). Exact for integers below 2^64.
 */
template <class B>
PD unsigned long long* inclusiveScan(const B& b, unsigned long long* x, unsigned long long* tmp) {
  unsigned long long *in = x, *out = tmp;
  for (int d = 1; d < kReduceThreads; d <<= 1) {
    b.each([&](int t) { out[t] = in[t] + (t >= d ? in[t - d] : 0ull); });
    unsigned long long* swap = in;
    in = out;
    out = swap;
  }
  return in;
}

}  // namespace parity
