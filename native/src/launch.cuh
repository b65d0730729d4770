// Executor::launch, rows, block and fused: the one place a kernel functor becomes a CUDA grid or a CPU loop.
#pragma once
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "executor.h"
#include "rows.cuh"


namespace parity {

template <class K>
__global__ void runKernel(K k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) k(i);
}

template <class K>
void Executor::launch(const K& k, int n) {
  if (n <= 0) return;
  launches_++;
  if (emulated()) {
    for (int i = 0; i < n; i++) k(i);
    return;
  }
  const int block = 128;
  runKernel<K><<<(n + block - 1) / block, block, 0, static_cast<cudaStream_t>(stream_)>>>(k, n);
  checkLaunch(K::name);
}

/** Thread t's share of a block-wide fold: k.load(i) for i = t, t + kReduceThreads, ... folded in that order. */
template <class K>
PD typename K::Value reduceStride(const K& k, int t, int n) {
  typename K::Value a = k.identity();
  for (int i = t; i < n; i += kReduceThreads) a = k.combine(a, k.load(i));
  return a;
}

/** A phase of a fused kernel, one element per index: k(i) for i in [0, n) (n = 0: the phase is skipped). */
template <class K>
struct Phase {
  K k;
  int n;
#ifdef __CUDACC__
  __device__ void run() const {
    for (int i = threadIdx.x; i < n; i += blockDim.x) k(i);
  }
#endif
  void emulate() const {
    for (int i = 0; i < n; i++) k(i);
  }
};

/** A phase of a fused kernel, one warp per row (rows.cuh): rows [0, n). */
template <class K>
struct RowPhase {
  K k;
  int n;
#ifdef __CUDACC__
  __device__ void run() const {
    for (int s = threadIdx.x; s < n * kWarp; s += blockDim.x) warpRow(k, s / kWarp, s % kWarp);
  }
#endif
  void emulate() const { emulateRows(k, n); }
};

/**
 * Phases run one after another by one block, a barrier between them: the same element bodies, the same
 * dependencies as one launch per phase (a phase reads only what earlier phases wrote), one kernel.
 * Emulated phase by phase, so its results equal the separate launches' bit for bit.
 */
template <class... Ps>
struct Fused;

template <>
struct Fused<> {
  __device__ void run() const {}
  void emulate() const {}
};

template <class P, class... Rest>
struct Fused<P, Rest...> {
  P p;
  Fused<Rest...> rest;
  __device__ void run() const {
    p.run();
    __syncthreads();
    rest.run();
  }
  void emulate() const {
    p.emulate();
    rest.emulate();
  }
};

inline Fused<> fuse() { return {}; }

template <class P, class... Rest>
Fused<P, Rest...> fuse(P p, Rest... rest) {
  return {p, fuse(rest...)};
}

template <class K>
__global__ void rowsKernel(K k, int n) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s / kWarp < n) warpRow(k, s / kWarp, s % kWarp);  // whole warps: n * kWarp threads, blocks of whole warps
}

template <class K>
void Executor::rows(const K& k, int n) {
  if (n <= 0) return;
  launches_++;
  if (emulated()) {
    emulateRows(k, n);
    return;
  }
  const int block = 128;
  rowsKernel<K><<<(n * kWarp + block - 1) / block, block, 0, static_cast<cudaStream_t>(stream_)>>>(k, n);
  checkLaunch(K::name);
}

template <class K>
__global__ void __launch_bounds__(kReduceThreads) blockKernel(K k) {
  k.run();
}

template <class K>
void Executor::block(const K& k, size_t sharedBytes) {
  launches_++;
  if (emulated()) {
    k.emulate();
    return;
  }
  if (sharedBytes > 0) {
    // The default 48 KiB holds the static and the dynamic shared memory together, so opt in to the dynamic
    // size once per size (the first call is outside capture: the eager prefill).
    static size_t allowed = 0;
    if (sharedBytes > allowed) {
      cudaError_t e = cudaFuncSetAttribute(reinterpret_cast<const void*>(&blockKernel<K>), cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sharedBytes);
      if (e != cudaSuccess) throw NativeError(std::string(K::name) + ": cudaFuncSetAttribute(MaxDynamicSharedMemorySize, " + std::to_string(sharedBytes) + "): " + cudaGetErrorString(e));
      allowed = sharedBytes;
    }
  }
  blockKernel<K><<<1, kReduceThreads, sharedBytes, static_cast<cudaStream_t>(stream_)>>>(k);
  checkLaunch(K::name);
}

// __launch_bounds__: the compiler keeps the registers within what a block of this size may use.
template <class F>
__global__ void __launch_bounds__(kFusedThreads) fusedKernel(F f) {
  f.run();
}

template <class F>
void Executor::fused(const F& f, const char* name) {
  launches_++;
  if (emulated()) {
    f.emulate();
    return;
  }
  fusedKernel<F><<<1, kFusedThreads, 0, static_cast<cudaStream_t>(stream_)>>>(f);
  checkLaunch(name);
}

}  // namespace parity
