// Executor::launch: the one place a kernel functor becomes a CUDA grid or a CPU loop.
#pragma once
#include <cuda_runtime.h>

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

}  // namespace parity
