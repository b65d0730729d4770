// One decoder-only transformer (talker or code predictor): device weights, static KV cache, scratch.
#pragma once
#include <string>
#include <vector>

#include "decoder-kernels.cuh"
#include "pick-rank.cuh"
#include "weights.h"

namespace parity {

struct LayerWeights {
  float *inNorm, *wq, *wk, *wv, *wo, *postNorm, *wg, *wu, *wd;
};

struct Decoder {
  std::string fusedName;  // "<prefix> layer (fused)": the fused layer kernel's name in errors and profiles
  DecoderDims d;
  int maxRows;
  std::vector<LayerWeights> layers;
  float *finalNorm, *ropeExp;
  float *kc, *vc;                   // [layers, kvHeads, maxPositions, headDim]
  float *x, *xn, *h, *q, *att, *act, *scores, *rowMax;  // [maxRows, ...]
};

inline float* uploadWeight(Executor& ex, const WeightMap& w, const std::string& name, const std::vector<int64_t>& dims) {
  const HostTensor& t = needWeight(w, name, dims);
  float* p = ex.allocN<float>(countOf(dims));
  ex.upload(p, t.data, countOf(dims) * sizeof(float));
  return p;
}

/**
 * A [K, N] matrix (ONNX MatMul's right operand) uploaded as its transpose [N, K], so that each output's
 * weights are one contiguous, 16-byte-aligned row for the warp-per-row kernels (rows.cuh). K % 4 == 0.
 */
inline float* uploadTransposed(Executor& ex, const WeightMap& w, const std::string& name, const std::vector<int64_t>& dims) {
  const HostTensor& t = needWeight(w, name, dims);
  const int64_t K = dims[dims.size() - 2], N = dims.back(), batches = countOf(dims) / (K * N);
  if (K % 4 != 0) throw NativeError(name + ": the native kernels need an inner dimension divisible by 4, found " + std::to_string(K));
  std::vector<float> tr((size_t)countOf(dims));
  for (int64_t b = 0; b < batches; b++) {
    const float* src = t.data + b * K * N;
    for (int64_t k = 0; k < K; k++) {
      for (int64_t n = 0; n < N; n++) tr[(size_t)(b * K * N + n * K + k)] = src[k * N + n];
    }
  }
  float* p = ex.allocN<float>(tr.size());
  ex.upload(p, tr.data(), tr.size() * sizeof(float));
  return p;
}

/** Uploads `prefix/...` weights (names as in decoder-graph.ts) and allocates the cache and scratch. */
inline Decoder makeDecoder(Executor& ex, const WeightMap& w, const std::string& prefix, const DecoderDims& d, int maxRows) {
  Decoder dec{};
  dec.fusedName = prefix + " layer (fused)";
  dec.d = d;
  dec.maxRows = maxRows;
  const int64_t H = d.hidden, qd = d.heads * d.headDim, kvd = d.kvHeads * d.headDim, F = d.ffn;
  for (int l = 0; l < d.layers; l++) {
    std::string p = prefix + "/layers." + std::to_string(l) + ".";
    dec.layers.push_back({
        uploadWeight(ex, w, p + "input_layernorm.weight", {H}),
        uploadTransposed(ex, w, p + "attn.q_proj.weight", {H, qd}),
        uploadTransposed(ex, w, p + "attn.k_proj.weight", {H, kvd}),
        uploadTransposed(ex, w, p + "attn.v_proj.weight", {H, kvd}),
        uploadTransposed(ex, w, p + "attn.o_proj.weight", {qd, H}),
        uploadWeight(ex, w, p + "post_attention_layernorm.weight", {H}),
        uploadTransposed(ex, w, p + "mlp.gate_proj.weight", {H, F}),
        uploadTransposed(ex, w, p + "mlp.up_proj.weight", {H, F}),
        uploadTransposed(ex, w, p + "mlp.down_proj.weight", {F, H}),
    });
  }
  dec.finalNorm = uploadWeight(ex, w, prefix + "/norm.weight", {H});
  dec.ropeExp = uploadWeight(ex, w, prefix + "/const.rope_exponents_" + std::to_string(d.headDim), {d.headDim / 2});
  size_t cache = (size_t)d.layers * d.kvHeads * d.maxPositions * d.headDim;
  dec.kc = ex.allocN<float>(cache);
  dec.vc = ex.allocN<float>(cache);
  dec.x = ex.allocN<float>(maxRows * H);
  dec.xn = ex.allocN<float>(maxRows * H);
  dec.h = ex.allocN<float>(maxRows * H);
  dec.q = ex.allocN<float>(maxRows * qd);
  dec.att = ex.allocN<float>(maxRows * qd);
  dec.act = ex.allocN<float>(maxRows * F);
  dec.scores = ex.allocN<float>((size_t)maxRows * d.heads * d.maxPositions);
  dec.rowMax = ex.allocN<float>((size_t)maxRows * d.heads);
  return dec;
}

/**
 * Runs dec.x [n, hidden] at positions *pos0 .. *pos0 + n - 1 through every layer (writing the KV cache)
 * and the final RMSNorm of the last row into hiddenOut [hidden]. 10 launches per layer + 1.
 */
inline void forward(Executor& ex, Decoder& dec, int n, const int* pos0, float* hiddenOut) {
  const DecoderDims& d = dec.d;
  const int H = d.hidden, qd = d.heads * d.headDim, F = d.ffn;
  const size_t layerCache = (size_t)d.kvHeads * d.maxPositions * d.headDim;
  const float scale = 1.f / sqrtf((float)d.headDim);
  for (int l = 0; l < d.layers; l++) {
    const LayerWeights& L = dec.layers[l];
    float* kc = dec.kc + l * layerCache;
    float* vc = dec.vc + l * layerCache;
    ex.rows(RmsNormK{dec.x, L.inNorm, dec.xn, H, d.eps}, n);
    ex.rows(QkvRopeK{dec.xn, L.wq, L.wk, L.wv, dec.ropeExp, pos0, dec.q, kc, vc, H, d.heads, d.kvHeads, d.headDim, d.maxPositions},
            n * (d.heads + 2 * d.kvHeads) * d.headDim);
    ex.launch(ScoresK{dec.q, kc, pos0, dec.scores, d.heads, d.kvHeads, d.headDim, d.maxPositions, scale}, n * d.heads * d.maxPositions);
    ex.rows(ScoreMaxK{dec.scores, pos0, dec.rowMax, d.heads, d.maxPositions}, n * d.heads);
    ex.rows(SoftmaxK{dec.scores, dec.rowMax, pos0, d.heads, d.maxPositions}, n * d.heads);
    ex.rows(AttentionK{dec.scores, vc, pos0, dec.att, d.heads, d.kvHeads, d.headDim, d.maxPositions}, n * qd);
    ex.rows(MatmulK{dec.att, L.wo, dec.x, dec.h, qd, H}, n * H);
    ex.rows(RmsNormK{dec.h, L.postNorm, dec.xn, H, d.eps}, n);
    ex.rows(GateUpK{dec.xn, L.wg, L.wu, dec.act, H, F}, n * F);
    ex.rows(MatmulK{dec.act, L.wd, dec.h, dec.x, F, H}, n * H);
  }
  ex.rows(RmsNormK{dec.x + (n - 1) * H, dec.finalNorm, hiddenOut, H, d.eps}, 1);
}

/** A decode step's output head inside the last fused layer: logits = hiddenOut · w, and the greedy pick when `pick`. */
struct FusedHead {
  const float* w;  // transposed [V, hidden]
  float* logits;
  int V;
  ArgmaxK argmax;
  bool pick;
};

/**
 * forward for a decode step (n <= 2 rows), one kernel per layer (Executor::fused): `prelude` before layer
 * 0, the layer's phases, and after the last layer the final RMSNorm of the last row into hiddenOut, the
 * head's logits and (greedy) its pick. Element for element the same arithmetic as forward() followed by
 * the head's MatmulK and ArgmaxK launches, so the outputs are bit-identical (check.cu).
 */
inline void forwardFused(Executor& ex, Decoder& dec, int n, const int* pos0, float* hiddenOut, const PreludeK& prelude, const FusedHead& head) {
  const DecoderDims& d = dec.d;
  const int H = d.hidden, qd = d.heads * d.headDim, F = d.ffn;
  const size_t layerCache = (size_t)d.kvHeads * d.maxPositions * d.headDim;
  const float scale = 1.f / sqrtf((float)d.headDim);
  for (int l = 0; l < d.layers; l++) {
    const LayerWeights& L = dec.layers[l];
    float* kc = dec.kc + l * layerCache;
    float* vc = dec.vc + l * layerCache;
    const bool last = l == d.layers - 1;
    ex.fused(fuse(Phase<PreludeK>{prelude, l == 0 ? prelude.count() : 0},
                  RowPhase<RmsNormK>{{dec.x, L.inNorm, dec.xn, H, d.eps}, n},
                  RowPhase<QkvRopeK>{{dec.xn, L.wq, L.wk, L.wv, dec.ropeExp, pos0, dec.q, kc, vc, H, d.heads, d.kvHeads, d.headDim, d.maxPositions},
                                     n * (d.heads + 2 * d.kvHeads) * d.headDim},
                  Phase<ScoresK>{{dec.q, kc, pos0, dec.scores, d.heads, d.kvHeads, d.headDim, d.maxPositions, scale}, n * d.heads * d.maxPositions},
                  RowPhase<ScoreMaxK>{{dec.scores, pos0, dec.rowMax, d.heads, d.maxPositions}, n * d.heads},
                  RowPhase<SoftmaxK>{{dec.scores, dec.rowMax, pos0, d.heads, d.maxPositions}, n * d.heads},
                  RowPhase<AttentionK>{{dec.scores, vc, pos0, dec.att, d.heads, d.kvHeads, d.headDim, d.maxPositions}, n * qd},
                  RowPhase<MatmulK>{{dec.att, L.wo, dec.x, dec.h, qd, H}, n * H},
                  RowPhase<RmsNormK>{{dec.h, L.postNorm, dec.xn, H, d.eps}, n},
                  RowPhase<GateUpK>{{dec.xn, L.wg, L.wu, dec.act, H, F}, n * F},
                  RowPhase<MatmulK>{{dec.act, L.wd, dec.h, dec.x, F, H}, n * H},
                  RowPhase<RmsNormK>{{dec.x + (n - 1) * H, dec.finalNorm, hiddenOut, H, d.eps}, last ? 1 : 0},
                  RowPhase<MatmulK>{{hiddenOut, head.w, nullptr, head.logits, H, head.V}, last ? head.V : 0},
                  RowPhase<ArgmaxK>{head.argmax, last && head.pick ? 1 : 0}),
             dec.fusedName.c_str());
  }
}

}  // namespace parity
