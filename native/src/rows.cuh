// Warp-per-row matrix-vector products: one warp computes one output row's dot products, each lane over a
// strided share of the row with 16-byte loads, then the lanes' partial sums meet in a fixed butterfly. The
// emulation runs the same lane shares and the same butterfly, so it computes the device's floats exactly.
#pragma once
#include <cuda_runtime.h>

#define PD __host__ __device__

namespace parity {

constexpr int kWarp = 32;

/** Two float sums carried together (the two dot products of a RoPE pair, or of gate and up). */
struct Float2 {
  float x, y;
};
PD inline Float2 operator+(Float2 a, Float2 b) { return Float2{a.x + b.x, a.y + b.y}; }

#ifdef __CUDACC__
__device__ inline float shuffleXor(float v, int lane) { return __shfl_xor_sync(0xffffffffu, v, lane); }
__device__ inline Float2 shuffleXor(Float2 v, int lane) { return Float2{shuffleXor(v.x, lane), shuffleXor(v.y, lane)}; }

/** Lane `lane` of the warp given row `row`: its partial, the butterfly (own value + partner's), lane 0 finishes. */
template <class K>
__device__ void warpRow(const K& k, int row, int lane) {
  typename K::Sum v = k.partial(row, lane);
  for (int d = kWarp / 2; d > 0; d >>= 1) v = v + shuffleXor(v, d);
  if (lane == 0) k.finish(row, v);
}
#endif

/** warpRow for rows [0, n) on the CPU: every lane's partial, then the butterfly level by level. */
template <class K>
void emulateRows(const K& k, int n) {
  using Sum = typename K::Sum;
  for (int row = 0; row < n; row++) {
    Sum v[kWarp], next[kWarp];
    for (int l = 0; l < kWarp; l++) v[l] = k.partial(row, l);
    for (int d = kWarp / 2; d > 0; d >>= 1) {
      for (int l = 0; l < kWarp; l++) next[l] = v[l] + v[l ^ d];
      for (int l = 0; l < kWarp; l++) v[l] = next[l];
    }
    k.finish(row, v[0]);
  }
}

/**
 * Lane `lane`'s share of a · w over K (K a multiple of 4, both 16-byte aligned): elements 4·lane .. 4·lane + 3,
 * then 128 further on, and so on, summed in that order without FMA.
 */
PD inline float laneDot(const float* a, const float* w, int K, int lane) {
  float acc = 0.f;
  for (int k = 4 * lane; k < K; k += 4 * kWarp) {
    const float4 x = *reinterpret_cast<const float4*>(a + k), y = *reinterpret_cast<const float4*>(w + k);
    acc += x.x * y.x;
    acc += x.y * y.y;
    acc += x.z * y.z;
    acc += x.w * y.w;
  }
  return acc;
}

}  // namespace parity
