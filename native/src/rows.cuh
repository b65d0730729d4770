// Warp-per-row kernels: one warp computes one output row, each lane over a strided share of the row (16-byte
// loads for the matrix-vector products), then the lanes' partials meet in a fixed xor butterfly. The emulation
// runs the same lane shares and the same butterfly, so it computes the device's floats exactly.
#pragma once
#include <cuda_runtime.h>

#include <type_traits>

#define PD __host__ __device__

namespace parity {

constexpr int kWarp = 32;

/** Two float sums carried together (the two dot products of a RoPE pair, or of gate and up). */
struct Float2 {
  float x, y;
};

/** How two lanes' partials meet in the butterfly: a sum (max and argmax kernels overload it for their types). */
PD inline float meet(float a, float b) { return a + b; }
PD inline Float2 meet(Float2 a, Float2 b) { return Float2{a.x + b.x, a.y + b.y}; }

/**
 * A row kernel whose every lane finishes (finishLane(row, lane, total)) instead of lane 0 alone (finish): the
 * xor butterfly leaves the same bits in every lane (each level adds two equal-within-pair values, and IEEE
 * addition is commutative), so the lanes can share out the row's outputs.
 */
template <class K, class = void>
struct FinishesOnEveryLane : std::false_type {};
template <class K>
struct FinishesOnEveryLane<K, std::void_t<decltype(&K::finishLane)>> : std::true_type {};

template <class K, class Sum>
PD void finishRow(const K& k, int row, int lane, Sum v) {
  // Only sums leave equal bits in every lane: max and argmax meets pick one argument (±0, NaN), so those
  // kernels finish on lane 0, as the emulation does.
  static_assert(!FinishesOnEveryLane<K>::value || std::is_same<Sum, float>::value || std::is_same<Sum, Float2>::value,
                "finishLane needs a float or Float2 sum");
  if constexpr (FinishesOnEveryLane<K>::value) k.finishLane(row, lane, v);
  else if (lane == 0) k.finish(row, v);
}

#ifdef __CUDACC__
__device__ inline float shuffleXor(float v, int lane) { return __shfl_xor_sync(0xffffffffu, v, lane); }
__device__ inline Float2 shuffleXor(Float2 v, int lane) { return Float2{shuffleXor(v.x, lane), shuffleXor(v.y, lane)}; }

/** Lane `lane` of the warp given row `row`: its partial, the butterfly (own value met with the partner's), the finish. */
template <class K>
__device__ void warpRow(const K& k, int row, int lane) {
  typename K::Sum v = k.partial(row, lane);
  for (int d = kWarp / 2; d > 0; d >>= 1) v = meet(v, shuffleXor(v, d));
  finishRow(k, row, lane, v);
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
      for (int l = 0; l < kWarp; l++) next[l] = meet(v[l], v[l ^ d]);
      for (int l = 0; l < kWarp; l++) v[l] = next[l];
    }
    for (int l = 0; l < kWarp; l++) finishRow(k, row, l, v[l]);
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
