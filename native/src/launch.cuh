// Executor::launch and Executor::reduce: the one place a kernel functor becomes a CUDA grid or a
// CPU loop.
#pragma once
#include <cuda_runtime.h>

#include <vector>

#include "executor.h"

#define PD __host__ __device__

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

/** Thread t's share of a reduce: k.load(i) for i = t, t + kReduceThreads, ... folded in that order. */
template <class K>
PD typename K::Value reduceStride(const K& k, int t, int n) {
  typename K::Value a = k.identity();
  for (int i = t; i < n; i += kReduceThreads) a = k.combine(a, k.load(i));
  return a;
}

template <class K>
__global__ void reduceKernel(K k, int n) {
  __shared__ typename K::Value acc[kReduceThreads];
  const int t = threadIdx.x;
  acc[t] = reduceStride(k, t, n);
  __syncthreads();
  for (int s = kReduceThreads / 2; s > 0; s >>= 1) {
    if (t < s) acc[t] = k.combine(acc[t], acc[t + s]);
    __syncthreads();
  }
  if (t == 0) k.store(acc[0]);
}

// Emulated in the GPU's order (per-thread strides, then the same tree), so the CPU runs the very
// combine sequence the device does.
template <class K>
void Executor::reduce(const K& k, int n) {
  if (n <= 0) return;
  launches_++;
  if (emulated()) {
    std::vector<typename K::Value> acc(kReduceThreads);
    for (int t = 0; t < kReduceThreads; t++) acc[t] = reduceStride(k, t, n);
    for (int s = kReduceThreads / 2; s > 0; s >>= 1) {
      for (int t = 0; t < s; t++) acc[t] = k.combine(acc[t], acc[t + s]);
    }
    k.store(acc[0]);
    return;
  }
  reduceKernel<K><<<1, kReduceThreads, 0, static_cast<cudaStream_t>(stream_)>>>(k, n);
  checkLaunch(K::name);
}

}  // namespace parity
