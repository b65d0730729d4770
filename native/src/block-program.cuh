// A one-block kernel written once for the device and the CPU emulation: a sequence of phases, each run
// by every thread of the block and followed by a barrier. The emulation runs a phase's threads one after
// another, so a phase may combine across threads only through the integer adds below, whose order does not
// change what the program computes (a phase never reads what another thread writes in the same phase); then
// device and emulation compute the same.
// The collectives (scan, reduce) are phases too: the device combines through warp shuffles, the emulation
// in thread order, and both give the same because integer sums are exact and a reduce's combine is a
// strict total order's max.
#pragma once
#include <stdint.h>
#include <string.h>

#include "launch.cuh"

namespace parity {

constexpr int kBlockWarps = kReduceThreads / 32;

/** Shared memory of the collectives: one slot per warp. */
template <class T>
struct WarpSlots {
  T slot[kBlockWarps];
};

#ifdef __CUDA_ARCH__
/** v from the lane (this lane ^ mask), for any value made of 32-bit words. */
template <class T>
__device__ T shuffleXor(T v, int mask) {
  static_assert(sizeof(T) % 4 == 0, "whole 32-bit words");
  unsigned w[sizeof(T) / 4];
  memcpy(w, &v, sizeof v);
  for (unsigned& x : w) x = __shfl_xor_sync(0xffffffffu, x, mask);
  memcpy(&v, w, sizeof v);
  return v;
}
#endif

/** Phases on the device: each thread runs the body for its own index, then __syncthreads. */
struct DeviceThreads {
  template <class F>
  PD void each(F f) const {
#ifdef __CUDA_ARCH__
    f((int)threadIdx.x);
    __syncthreads();
#endif
  }

  /** out[t] = value(0) + ... + value(t) for every thread t (a warp's scan by shuffles, then the warps' totals): 2 barriers. */
  template <class F>
  PD void scan(F value, unsigned long long* out, WarpSlots<unsigned long long>& totals) const {
#ifdef __CUDA_ARCH__
    const int t = (int)threadIdx.x, lane = t & 31, warp = t >> 5;
    unsigned long long v = value(t);
    for (int d = 1; d < 32; d <<= 1) {
      const unsigned long long u = __shfl_up_sync(0xffffffffu, v, d);
      if (lane >= d) v += u;
    }
    if (lane == 31) totals.slot[warp] = v;
    __syncthreads();
    for (int w = 0; w < warp; w++) v += totals.slot[w];
    out[t] = v;
    __syncthreads();
#endif
  }

  /** The combine of value(t) over every thread t, returned to all; combine must be a strict total order's max. */
  template <class T, class F, class C>
  PD T reduce(F value, C combine, WarpSlots<T>& partial) const {
#ifdef __CUDA_ARCH__
    const int t = (int)threadIdx.x;
    T v = value(t);
    for (int m = 16; m > 0; m >>= 1) v = combine(v, shuffleXor(v, m));
    if ((t & 31) == 0) partial.slot[t >> 5] = v;
    __syncthreads();
    T all = partial.slot[0];
    for (int w = 1; w < kBlockWarps; w++) all = combine(all, partial.slot[w]);
    __syncthreads();
    return all;
#else
    return value(0);  // not reached: the host runs EmulatedThreads
#endif
  }
};

/** Phases in the emulation: the body for thread 0, 1, ..., kReduceThreads - 1. */
struct EmulatedThreads {
  template <class F>
  PD void each(F f) const {
    for (int t = 0; t < kReduceThreads; t++) f(t);
  }

  template <class F>
  PD void scan(F value, unsigned long long* out, WarpSlots<unsigned long long>&) const {
    unsigned long long sum = 0;
    for (int t = 0; t < kReduceThreads; t++) out[t] = sum += value(t);
  }

  template <class T, class F, class C>
  PD T reduce(F value, C combine, WarpSlots<T>&) const {
    T all = value(0);
    for (int t = 1; t < kReduceThreads; t++) all = combine(all, value(t));
    return all;
  }
};

/**
 * The first of n slots taken from *next (*next += n; returns its old value): on the device every lane of the
 * warp must call it together, and the warp takes its lanes' slots in one atomic. Which thread gets which slots
 * depends on the order the warps arrive in, so use it only where the slots' order does not matter.
 */
PD inline unsigned claim(unsigned* next, unsigned n) {
#ifdef __CUDA_ARCH__
  const int lane = (int)(threadIdx.x & 31);
  unsigned upTo = n;  // the warp's inclusive prefix sum of n
  for (int d = 1; d < 32; d <<= 1) {
    const unsigned u = __shfl_up_sync(0xffffffffu, upTo, d);
    if (lane >= d) upTo += u;
  }
  unsigned first = 0;
  if (lane == 31 && upTo > 0) first = atomicAdd(next, upTo);
  return __shfl_sync(0xffffffffu, first, 31) + upTo - n;
#else
  const unsigned first = *next;
  *next += n;
  return first;
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
 * counts[bin] += 1 and, with sums, sums[bin] += w (bin -1: nothing). On the device every lane of the warp must
 * call it together: the lanes with one bin add their number and their weights (through stage, 32 slots per
 * warp) in one atomic each, so thousands of ids in one bin do not queue on one address.
 */
PD inline void addInBin(unsigned* counts, unsigned long long* sums, int bin, unsigned long long w, unsigned long long* stage) {
#ifdef __CUDA_ARCH__
  if (!__any_sync(0xffffffffu, bin >= 0)) return;
  const unsigned peers = __match_any_sync(0xffffffffu, bin);
  const int lane = (int)(threadIdx.x & 31);
  if (sums) {
    stage[lane] = w;
    __syncwarp();
  }
  if (bin >= 0 && lane == __ffs(peers) - 1) {
    atomicAdd(&counts[bin], (unsigned)__popc(peers));
    if (sums) {
      unsigned long long sum = 0;
      for (unsigned m = peers; m; m &= m - 1) sum += stage[__ffs(m) - 1];
      atomicAdd(&sums[bin], sum);
    }
  }
  if (sums) __syncwarp();  // the next call writes stage again
#else
  if (bin < 0) return;
  counts[bin]++;
  if (sums) sums[bin] += w;
#endif
}

}  // namespace parity
