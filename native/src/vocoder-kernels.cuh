// Vocoder kernels: code embeddings -> causal conv stack -> per-frame f0 / harmonic amplitudes / noise
// gain -> harmonic-plus-noise synthesis, in the op order of vocoder-graph.ts.
#pragma once
#include <math.h>
#include <stdint.h>

#include "activations.cuh"
#include "launch.cuh"

namespace parity {

/** x[f, c] = Σ_q table[q·rowsPer + codes[f, q], c]; i over F·C. */
struct VocEmbedK {
  static constexpr const char* name = "voc_embed";
  const int* codes;
  const float* table;
  float* x;
  int Q, C, rowsPer;
  PD void operator()(int i) const {
    int f = i / C, c = i % C;
    float acc = 0.f;
    for (int q = 0; q < Q; q++) acc += table[(q * rowsPer + codes[f * Q + q]) * C + c];
    x[i] = acc;
  }
};

/** Causal conv (left pad k-1) + bias, residual SiLU: y[f, o] = x[f, o] + silu(conv); i over F·C. */
struct VocConvK {
  static constexpr const char* name = "voc_conv";
  const float* x;
  const float* w;  // [C, C, k]
  const float* b;
  float* y;
  int C, k;
  PD void operator()(int i) const {
    int f = i / C, o = i % C;
    float acc = 0.f;
    for (int c = 0; c < C; c++) {
      for (int j = 0; j < k; j++) {
        int t = f - (k - 1) + j;
        if (t >= 0) acc += w[(o * C + c) * k + j] * x[t * C + c];
      }
    }
    float v = acc + b[o];
    y[i] = x[i] + siluf(v);
  }
};

/** 1x1 conv head: out[f, o] = b[o] + Σ_c w[o, c] x[f, c]; i over F·outs. */
struct VocHeadK {
  static constexpr const char* name = "voc_head";
  const float* x;
  const float* w;
  const float* b;
  float* out;
  int C, outs;
  PD void operator()(int i) const {
    int f = i / outs, o = i % outs;
    float acc = 0.f;
    for (int c = 0; c < C; c++) acc += w[o * C + c] * x[f * C + c];
    out[i] = acc + b[o];
  }
};

/** Per frame: f0, harmonic amplitudes (softmax with rolloff, times a gain), noise gain; i over F. */
struct VocFrameParamsK {
  static constexpr const char* name = "voc_frame_params";
  const float* head;  // [F, 3 + K]
  const float* rolloff;
  float* f0;
  float* amps;  // [F, K]
  float* noiseGain;
  int K;
  float f0Min, f0Range;
  PD void operator()(int f) const {
    const float* h = head + f * (3 + K);
    f0[f] = f0Min + sigmoidf(h[0]) * f0Range;
    float gain = sigmoidf(h[1 + K]) * 0.3f;
    float m = -INFINITY;
    for (int k = 0; k < K; k++) m = fmaxf(m, h[1 + k] + rolloff[k]);
    float sum = 0.f;
    for (int k = 0; k < K; k++) sum += expf(h[1 + k] + rolloff[k] - m);
    for (int k = 0; k < K; k++) amps[f * K + k] = (expf(h[1 + k] + rolloff[k] - m) / sum) * gain;
    noiseGain[f] = sigmoidf(h[2 + K]) * 0.02f;
  }
};

/** Linear from the previous frame's value to this frame's across the hop (frame 0 holds its own). */
PD inline float lerpFrame(const float* v, int stride, int f, int k, float r) {
  float p = v[(f > 0 ? f - 1 : 0) * stride + k];
  float t = v[f * stride + k];
  return p + (t - p) * r;
}

/** Per frame: exclusive float32 phase cumsum within the frame and the frame's total; i over F. */
struct VocFramePhaseK {
  static constexpr const char* name = "voc_frame_phase";
  const float* f0;
  const float* ramp;
  float* within;   // [F, hop]
  double* totals;  // [F]
  int hop;
  float invRate;
  PD void operator()(int f) const {
    float acc = 0.f;
    double total = 0;
    for (int i = 0; i < hop; i++) {
      float inc = lerpFrame(f0, 1, f, 0, ramp[i]) * invRate;
      within[f * hop + i] = acc;
      acc += inc;
      total += inc;
    }
    // ORT's ReduceSum is not a serial float sum; a float64 sum rounded to float32 lands closer to it.
    totals[f] = (double)(float)total;
  }
};

PD inline double fracd(double t) { return t - floor(t); }

/** One thread: float64 scan of the frame totals -> frame start phases relative to frame `context`. */
struct VocPhaseScanK {
  static constexpr const char* name = "voc_phase_scan";
  const double* totals;
  float* offsets;     // [F]
  double* endPhase;   // [1]
  const double* phase0;
  int F, context;
  PD void operator()(int) const {
    double excl = 0, base = 0;
    for (int f = 0; f < F; f++) {
      if (f == context) base = excl;
      excl += totals[f];
    }
    double run = 0;
    for (int f = 0; f < F; f++) {
      offsets[f] = (float)fracd(run + *phase0 - base);
      run += totals[f];
    }
    *endPhase = fracd(run + *phase0 - base);
  }
};

/** The vocoder's noise source, uniform on [-1, 1), a function of the absolute sample index (noise.ts). */
PD inline float noiseAt(uint32_t index) {
  uint32_t x = index ^ 0x5bd1e995u;
  x = (x ^ (x >> 16)) * 0x7feb352du;
  x = (x ^ (x >> 15)) * 0x846ca68bu;
  x = x ^ (x >> 16);
  return (float)((double)x / 2147483648.0 - 1.0);
}

/** audio[g] = Σ_k sin(phase·ω_k)·amp_k + noise·noiseGain, amps and gains interpolated; i over F·hop. */
struct VocSynthK {
  static constexpr const char* name = "voc_synth";
  const float* within;
  const float* offsets;
  const float* amps;
  const float* noiseGain;
  const float* omega;
  const float* ramp;
  float* audio;
  int K, hop;
  uint32_t noiseStart;
  PD void operator()(int g) const {
    int f = g / hop, i = g % hop;
    float r = ramp[i];
    float phase = offsets[f] + within[g];
    float harmonic = 0.f;
    for (int k = 0; k < K; k++) harmonic += sinf(phase * omega[k]) * lerpFrame(amps, K, f, k, r);
    float noisy = noiseAt(noiseStart + (uint32_t)g) * lerpFrame(noiseGain, 1, f, 0, r);
    audio[g] = harmonic + noisy;
  }
};

}  // namespace parity
