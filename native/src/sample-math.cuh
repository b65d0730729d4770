// The arithmetic the ORT backend's sampler uses (electron/common/sampling/), reproduced bit for bit:
// Philox4x32-10, the 53-bit uniform of uniform.ts, and exp() as V8's Math.exp computes it.
#pragma once
#include <stdint.h>
#include <math.h>
#include <string.h>

#include "launch.cuh"

namespace parity {

/** Philox4x32-10 (Salmon et al., SC 2011) as philox.ts: counter (c0..c3), key (k0, k1) -> out[4]. */
PD inline void philox4x32(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3, uint32_t k0, uint32_t k1, uint32_t out[4]) {
  const uint32_t M0 = 0xd2511f53u, M1 = 0xcd9e8d57u, W0 = 0x9e3779b9u, W1 = 0xbb67ae85u;
  uint32_t x0 = c0, x1 = c1, x2 = c2, x3 = c3;
  for (int round = 0; round < 10; round++) {
    if (round > 0) {
      k0 += W0;
      k1 += W1;
    }
    uint64_t p0 = (uint64_t)M0 * x0, p1 = (uint64_t)M1 * x2;
    uint32_t hi0 = (uint32_t)(p0 >> 32), lo0 = (uint32_t)p0, hi1 = (uint32_t)(p1 >> 32), lo1 = (uint32_t)p1;
    x0 = hi1 ^ x1 ^ k0;
    x1 = lo1;
    x2 = hi0 ^ x3 ^ k1;
    x3 = lo0;
  }
  out[0] = x0;
  out[1] = x1;
  out[2] = x2;
  out[3] = x3;
}

/** uniform.ts: u in [0, 1) from counter (step, codebook, draw, 0) and key (seed low, seed high 32 bits). */
PD inline double philoxUniform(uint32_t seedLo, uint32_t seedHi, int step, int codebook, int draw) {
  uint32_t w[4];
  philox4x32((uint32_t)step, (uint32_t)codebook, (uint32_t)draw, 0u, seedLo, seedHi, w);
  return ((double)(w[0] >> 5) * 67108864.0 + (double)(w[1] >> 6)) / 9007199254740992.0;
}

PD inline uint32_t highWord(double x) {
  uint64_t b;
  memcpy(&b, &x, 8);
  return (uint32_t)(b >> 32);
}

PD inline uint32_t lowWord(double x) {
  uint64_t b;
  memcpy(&b, &x, 8);
  return (uint32_t)b;
}

PD inline double fromWords(uint32_t hi, uint32_t lo) {
  uint64_t b = ((uint64_t)hi << 32) | lo;
  double x;
  memcpy(&x, &b, 8);
  return x;
}

/**
 * exp(x) as fdlibm's e_exp.c in V8's port (src/base/ieee754.cc), which Math.exp calls: the sampler's
 * probabilities are sums of these, so the device must round each one exactly as JavaScript does
 * (glibc's and CUDA's exp differ from it in the last bit for some x). Needs --fmad=false / no FMA.
 */
PD inline double jsExp(double x) {
  const double one = 1.0, halF[2] = {0.5, -0.5};
  const double o_threshold = 7.09782712893383973096e+02, u_threshold = -7.45133219101941108420e+02;
  const double ln2HI[2] = {6.93147180369123816490e-01, -6.93147180369123816490e-01};
  const double ln2LO[2] = {1.90821492927058770002e-10, -1.90821492927058770002e-10};
  const double invln2 = 1.44269504088896338700e+00;
  const double P1 = 1.66666666666666019037e-01, P2 = -2.77777777770155933842e-03, P3 = 6.61375632143793436117e-05,
               P4 = -1.65339022054652515390e-06, P5 = 4.13813679705723846039e-08;
  const double E = 2.718281828459045, huge = 1.0e+300, twom1000 = 9.33263618503218878990e-302, two1023 = 8.988465674311579539e307;
  double y, hi = 0.0, lo = 0.0, c, t, twopk;
  int32_t k = 0;
  uint32_t hx = highWord(x);
  int xsb = (hx >> 31) & 1;
  hx &= 0x7fffffff;
  if (hx >= 0x40862E42) {
    if (hx >= 0x7ff00000) {
      if (((hx & 0xfffff) | lowWord(x)) != 0) return x + x;
      return xsb == 0 ? x : 0.0;
    }
    if (x > o_threshold) return INFINITY;  // huge * huge in fdlibm (volatile there, for the flags)
    if (x < u_threshold) return 0.0;  // twom1000 * twom1000
  }
  if (hx > 0x3fd62e42) {
    if (hx < 0x3FF0A2B2) {
      if (x == 1.0) return E;
      hi = x - ln2HI[xsb];
      lo = ln2LO[xsb];
      k = 1 - xsb - xsb;
    } else {
      k = (int32_t)(invln2 * x + halF[xsb]);
      t = k;
      hi = x - t * ln2HI[0];
      lo = t * ln2LO[0];
    }
    x = hi - lo;
  } else if (hx < 0x3e300000) {
    if (huge + x > one) return one + x;
  } else {
    k = 0;
  }
  t = x * x;
  if (k >= -1021) twopk = fromWords(0x3ff00000u + ((uint32_t)k << 20), 0);
  else twopk = fromWords(0x3ff00000u + ((uint32_t)(k + 1000) << 20), 0);
  c = x - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
  if (k == 0) return one - ((x * c) / (c - 2.0) - x);
  y = one - ((lo - (x * c) / (2.0 - c)) - hi);
  if (k >= -1021) {
    if (k == 1024) return y * 2.0 * two1023;
    return y * twopk;
  }
  return y * twopk * twom1000;
}

}  // namespace parity
