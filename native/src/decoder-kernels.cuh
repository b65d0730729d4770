// Decoder kernels (talker and code predictor). Each functor computes one output element with plain
// serial loops and no shared memory, so the same body runs on a CUDA thread or in the CPU emulation.
// The op order follows the demo ONNX graphs (decoder-graph.ts) so results track ORT CPU closely.
#pragma once
#include <math.h>

#include "activations.cuh"
#include "launch.cuh"

namespace parity {

/** y = (x · 1/sqrt(mean(x²) + eps)) · w over rows of width H; i over n·H. */
struct RmsNormK {
  static constexpr const char* name = "rms_norm";
  const float* x;
  const float* w;
  float* y;
  int H;
  float eps;
  PD void operator()(int i) const {
    const float* row = x + (i / H) * H;
    float ss = 0.f;
    for (int k = 0; k < H; k++) ss += row[k] * row[k];
    float inv = 1.f / sqrtf(ss / (float)H + eps);
    y[i] = (x[i] * inv) * w[i % H];
  }
};

PD inline float dotCol(const float* a, const float* w, int K, int N, int col) {
  float acc = 0.f;
  for (int k = 0; k < K; k++) acc += a[k] * w[k * N + col];
  return acc;
}

/**
 * q/k/v projections with rotate-half RoPE at position *pos0 + row; K and V are written into the static
 * cache [kvHeads, maxPos, hd] at that position. i over n·(heads + 2·kvHeads)·hd.
 */
struct QkvRopeK {
  static constexpr const char* name = "qkv_rope";
  const float* xn;
  const float* wq;
  const float* wk;
  const float* wv;
  const float* ropeExp;  // [hd/2] exponents: inv_freq = exp(ropeExp)
  const int* pos0;
  float* q;   // [n, heads·hd]
  float* kc;  // [kvHeads, maxPos, hd] of this layer
  float* vc;
  int H, heads, kv, hd, maxPos;
  PD void operator()(int i) const {
    int slots = (heads + 2 * kv) * hd;
    int r = i / slots, rem = i % slots, hs = rem / hd, d = rem % hd;
    int p = *pos0 + r;
    const float* a = xn + r * H;
    if (hs >= heads + kv) {
      int h = hs - heads - kv;
      vc[(h * maxPos + p) * hd + d] = dotCol(a, wv, H, kv * hd, h * hd + d);
      return;
    }
    bool isQ = hs < heads;
    int h = isQ ? hs : hs - heads;
    const float* w = isQ ? wq : wk;
    int N = (isQ ? heads : kv) * hd;
    int half = hd / 2, fi = d % half;
    float x1 = dotCol(a, w, H, N, h * hd + fi);
    float x2 = dotCol(a, w, H, N, h * hd + fi + half);
    float freq = (float)p * expf(ropeExp[fi]);
    float c = cosf(freq), s = sinf(freq);
    float out = d < half ? x1 * c - x2 * s : x2 * c + x1 * s;
    if (isQ) q[r * heads * hd + h * hd + d] = out;
    else kc[(h * maxPos + p) * hd + d] = out;
  }
};

/** Attention scores q·k·scale of query row r, head h against cache position t <= *pos0 + r; i over n·heads·maxPos. */
struct ScoresK {
  static constexpr const char* name = "attention_scores";
  const float* q;
  const float* kc;
  const int* pos0;
  float* scores;  // [n, heads, maxPos]
  int heads, kv, hd, maxPos;
  float scale;
  PD void operator()(int i) const {
    int r = i / (heads * maxPos), h = (i / maxPos) % heads, t = i % maxPos;
    if (t > *pos0 + r) return;
    const float* qr = q + r * heads * hd + h * hd;
    const float* k = kc + ((h / (heads / kv)) * maxPos + t) * hd;
    float s = 0.f;
    for (int e = 0; e < hd; e++) s += qr[e] * k[e];
    scores[i] = s * scale;
  }
};

/** Causal grouped-query attention: softmax over positions [0, *pos0 + row], times V; i over n·heads·hd. */
struct AttentionK {
  static constexpr const char* name = "attention";
  const float* scores;
  const float* vc;
  const int* pos0;
  float* out;  // [n, heads·hd]
  int heads, kv, hd, maxPos;
  PD void operator()(int i) const {
    int r = i / (heads * hd), h = (i / hd) % heads, d = i % hd;
    int p = *pos0 + r;
    const float* s = scores + (r * heads + h) * maxPos;
    const float* V = vc + (h / (heads / kv)) * maxPos * hd;
    float m = -INFINITY;
    for (int t = 0; t <= p; t++) m = s[t] > m ? s[t] : m;
    float sum = 0.f;
    for (int t = 0; t <= p; t++) sum += expf(s[t] - m);
    float acc = 0.f;
    for (int t = 0; t <= p; t++) acc += (expf(s[t] - m) / sum) * V[t * hd + d];
    out[i] = acc;
  }
};

/** y[r, j] = res[r, j] + a[r, :] · w[:, j] (res may be null); i over n·N. */
struct MatmulK {
  static constexpr const char* name = "matmul";
  const float* a;
  const float* w;
  const float* res;
  float* y;
  int K, N;
  PD void operator()(int i) const {
    int r = i / N, j = i % N;
    float mm = dotCol(a + r * K, w, K, N, j);
    y[i] = res ? res[i] + mm : mm;
  }
};

/** SwiGLU activation: silu(x·Wg) · (x·Wu); i over n·F. */
struct GateUpK {
  static constexpr const char* name = "gate_up";
  const float* xn;
  const float* wg;
  const float* wu;
  float* act;
  int H, F;
  PD void operator()(int i) const {
    int r = i / F, j = i % F;
    float g = dotCol(xn + r * H, wg, H, F, j);
    float u = dotCol(xn + r * H, wu, H, F, j);
    act[i] = siluf(g) * u;
  }
};

/** The audio-feedback buffer's update: last = codes of the previous frame; i over Q. */
struct FeedbackUpdateK {
  static constexpr const char* name = "feedback_update";
  const int* src;
  int* dst;
  PD void operator()(int i) const { dst[i] = src[i]; }
};

/** x[i] = Σ_q table[codecRow(q, codes[q]), i], summed in codebook order; i over H. */
struct FeedbackEmbedK {
  static constexpr const char* name = "feedback_embed";
  const int* codes;
  const float* table;
  float* x;
  int Q, H, rowOffset, rowsPer;
  PD void operator()(int i) const {
    float acc = 0.f;
    for (int c = 0; c < Q; c++) acc += table[(rowOffset + c * rowsPer + codes[c]) * H + i];
    x[i] = acc;
  }
};

/** x[r, :] = table[base + ids[r], :]; i over n·H. */
struct GatherRowsK {
  static constexpr const char* name = "gather_rows";
  const int* ids;
  const float* table;
  float* x;
  int H, base;
  PD void operator()(int i) const { x[i] = table[(base + ids[i / H]) * H + (i % H)]; }
};

/** y[i] = x[i]; i over n. */
struct CopyK {
  static constexpr const char* name = "copy";
  const float* x;
  float* y;
  PD void operator()(int i) const { y[i] = x[i]; }
};

/**
 * What a fused layer kernel does before the layer (decode steps only): nothing (mode 0), the feedback
 * embedding (1, i over H), the code predictor's prefill rows — talker hidden, then the code-0 row — (2, i
 * over 2H), or one code row (3, i over H). The same element bodies as the separate launches.
 */
struct PreludeK {
  static constexpr const char* name = "prelude";
  int mode;
  FeedbackEmbedK embed;
  CopyK copy;
  GatherRowsK gather;
  int H;
  PD void operator()(int i) const {
    if (mode == 1) embed(i);
    else if (mode == 2) {
      if (i < H) copy(i);
      else gather(i - H);
    } else if (mode == 3) gather(i);
  }
  int count() const { return mode == 0 ? 0 : mode == 2 ? 2 * H : H; }
};

}  // namespace parity
