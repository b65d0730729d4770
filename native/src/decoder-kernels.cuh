// Decoder kernels (talker and code predictor). Each functor computes one output element with plain
// serial loops and no shared memory, so the same body runs on a CUDA thread or in the CPU emulation.
// The op order follows the demo ONNX graphs (decoder-graph.ts) so results track ORT CPU closely.
#pragma once
#include <math.h>

#include "activations.cuh"
#include "launch.cuh"

namespace parity {

/**
 * y = (x · 1/sqrt(mean(x²) + eps)) · w over rows of width H, one warp per row: the lanes' shares of Σx² meet
 * in the butterfly, then every lane writes its share of the row.
 */
struct RmsNormK {
  static constexpr const char* name = "rms_norm";
  using Sum = float;
  const float* x;
  const float* w;
  float* y;
  int H;
  float eps;
  PD float partial(int r, int lane) const {
    const float* row = x + r * H;
    float ss = 0.f;
    for (int k = lane; k < H; k += kWarp) ss += row[k] * row[k];
    return ss;
  }
  PD void finishLane(int r, int lane, float ss) const {
    const float inv = 1.f / sqrtf(ss / (float)H + eps);
    for (int k = lane; k < H; k += kWarp) y[r * H + k] = (x[r * H + k] * inv) * w[k];
  }
};

/**
 * q/k/v projections with rotate-half RoPE at position *pos0 + row; K and V are written into the static
 * cache [kvHeads, maxPos, hd] at that position. Rows (one warp each) over n·(heads + 2·kvHeads)·hd; the
 * weights are transposed ([out, H], see decoder.cuh) so a row's weights are contiguous.
 */
struct QkvRopeK {
  static constexpr const char* name = "qkv_rope";
  using Sum = Float2;
  const float* xn;
  const float* wq;  // [heads·hd, H]
  const float* wk;  // [kv·hd, H]
  const float* wv;  // [kv·hd, H]
  const float* ropeExp;  // [hd/2] exponents: inv_freq = exp(ropeExp)
  const int* pos0;
  float* q;   // [n, heads·hd]
  float* kc;  // [kvHeads, maxPos, hd] of this layer
  float* vc;
  int H, heads, kv, hd, maxPos;
  /** Slot i: its input row r, head slot hs (q heads, then k, then v) and dimension d. */
  PD void slot(int i, int& r, int& hs, int& d) const {
    int slots = (heads + 2 * kv) * hd;
    r = i / slots;
    hs = i % slots / hd;
    d = i % hd;
  }
  /** The two dot products: q/k rows d mod hd/2 and that + hd/2 (the rotate-half pair); v: row d and 0. */
  PD Float2 partial(int i, int lane) const {
    int r, hs, d;
    slot(i, r, hs, d);
    const float* a = xn + r * H;
    if (hs >= heads + kv) return Float2{laneDot(a, wv + ((hs - heads - kv) * hd + d) * H, H, lane), 0.f};
    const bool isQ = hs < heads;
    const float* w = isQ ? wq + hs * hd * H : wk + (hs - heads) * hd * H;
    const int half = hd / 2, fi = d % half;
    return Float2{laneDot(a, w + fi * H, H, lane), laneDot(a, w + (fi + half) * H, H, lane)};
  }
  PD void finish(int i, Float2 dots) const {
    int r, hs, d;
    slot(i, r, hs, d);
    int p = *pos0 + r;
    if (hs >= heads + kv) {
      vc[((hs - heads - kv) * maxPos + p) * hd + d] = dots.x;
      return;
    }
    bool isQ = hs < heads;
    int h = isQ ? hs : hs - heads;
    int half = hd / 2, fi = d % half;
    float x1 = dots.x, x2 = dots.y;
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

/** The larger of two lanes' partial maxima (a NaN score never wins, as in the serial max it replaced). */
struct Largest {
  float v;
};
PD inline Largest meet(Largest a, Largest b) { return Largest{b.v > a.v ? b.v : a.v}; }
#ifdef __CUDACC__
__device__ inline Largest shuffleXor(Largest v, int lane) { return Largest{shuffleXor(v.v, lane)}; }
#endif

/** The largest score of query row r, head h (row r·heads + h) over positions [0, *pos0 + r], into rowMax. */
struct ScoreMaxK {
  static constexpr const char* name = "attention_max";
  using Sum = Largest;
  const float* scores;  // [n, heads, maxPos]
  const int* pos0;
  float* rowMax;  // [n, heads]
  int heads, maxPos;
  PD Largest partial(int row, int lane) const {
    const int p = *pos0 + row / heads;
    const float* s = scores + row * maxPos;
    float m = -INFINITY;
    for (int t = lane; t <= p; t += kWarp) m = s[t] > m ? s[t] : m;
    return Largest{m};
  }
  PD void finish(int row, Largest m) const { rowMax[row] = m.v; }
};

/** Causal softmax of row r·heads + h over positions [0, *pos0 + r]: exp(s - max) / Σ exp(s - max), written over the scores. */
struct SoftmaxK {
  static constexpr const char* name = "attention_softmax";
  using Sum = float;
  float* scores;
  const float* rowMax;
  const int* pos0;
  int heads, maxPos;
  PD float partial(int row, int lane) const {
    const int p = *pos0 + row / heads;
    const float* s = scores + row * maxPos;
    float sum = 0.f;
    for (int t = lane; t <= p; t += kWarp) sum += expf(s[t] - rowMax[row]);
    return sum;
  }
  PD void finishLane(int row, int lane, float sum) const {
    const int p = *pos0 + row / heads;
    float* s = scores + row * maxPos;
    for (int t = lane; t <= p; t += kWarp) s[t] = expf(s[t] - rowMax[row]) / sum;
  }
};

/** Grouped-query attention's output: Σ_t weight[r, h, t] · V[t, d] over t <= *pos0 + r; rows (one warp each) over n·heads·hd. */
struct AttentionK {
  static constexpr const char* name = "attention";
  using Sum = float;
  const float* weights;  // [n, heads, maxPos], SoftmaxK's
  const float* vc;
  const int* pos0;
  float* out;  // [n, heads·hd]
  int heads, kv, hd, maxPos;
  PD float partial(int i, int lane) const {
    const int r = i / (heads * hd), h = (i / hd) % heads, d = i % hd;
    const int p = *pos0 + r;
    const float* w = weights + (r * heads + h) * maxPos;
    const float* V = vc + (h / (heads / kv)) * maxPos * hd;
    float acc = 0.f;
    for (int t = lane; t <= p; t += kWarp) acc += w[t] * V[t * hd + d];
    return acc;
  }
  PD void finish(int i, float acc) const { out[i] = acc; }
};

/** y[r, j] = res[r, j] + a[r, :] · w[j, :] (res may be null); rows (one warp each) over n·N; w transposed [N, K]. */
struct MatmulK {
  static constexpr const char* name = "matmul";
  using Sum = float;
  const float* a;
  const float* w;
  const float* res;
  float* y;
  int K, N;
  PD float partial(int i, int lane) const { return laneDot(a + i / N * K, w + i % N * K, K, lane); }
  PD void finish(int i, float mm) const { y[i] = res ? res[i] + mm : mm; }
};

/** SwiGLU activation: silu(x·Wg) · (x·Wu); rows (one warp each) over n·F; wg, wu transposed [F, H]. */
struct GateUpK {
  static constexpr const char* name = "gate_up";
  using Sum = Float2;
  const float* xn;
  const float* wg;
  const float* wu;
  float* act;
  int H, F;
  PD Float2 partial(int i, int lane) const {
    const float* a = xn + i / F * H;
    return Float2{laneDot(a, wg + i % F * H, H, lane), laneDot(a, wu + i % F * H, H, lane)};
  }
  PD void finish(int i, Float2 gu) const { act[i] = siluf(gu.x) * gu.y; }
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
