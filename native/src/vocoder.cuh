// The vocoder's device weights and buffers (sized for maxFrames) and one decode over a run of frames.
#pragma once
#include <string>
#include <vector>

#include "decoder.cuh"
#include "vocoder-kernels.cuh"

namespace parity {

struct VocoderState {
  float *table, *headW, *headB, *rolloff, *omega, *ramp;
  std::vector<float*> convW, convB;
  int* codes;
  float *x, *y, *head, *f0, *amps, *noiseGain, *within, *offsets, *audio;
  double *totals, *endPhase, *phase0;
};

inline VocoderState makeVocoder(Executor& ex, const WeightMap& w, const Config& c) {
  VocoderState v{};
  const int64_t C = c.vocChannels, K = c.harmonics, Q = c.codebooks, F = c.maxFrames, hop = c.hop;
  v.table = uploadWeight(ex, w, "vocoder/codec_embedding.weight", {Q * c.codecRowsPerCodebook, C});
  for (int l = 0; l < c.vocConvLayers; l++) {
    std::string p = "vocoder/convs." + std::to_string(l) + ".";
    v.convW.push_back(uploadWeight(ex, w, p + "weight", {C, C, c.vocKernel}));
    v.convB.push_back(uploadWeight(ex, w, p + "bias", {C}));
  }
  v.headW = uploadWeight(ex, w, "vocoder/head.weight", {3 + K, C, 1});
  v.headB = uploadWeight(ex, w, "vocoder/head.bias", {3 + K});
  v.rolloff = uploadWeight(ex, w, "vocoder/const.rolloff", {K});
  v.omega = uploadWeight(ex, w, "vocoder/const.omega", {K});
  v.ramp = uploadWeight(ex, w, "vocoder/const.ramp_" + std::to_string(hop), {1, hop});
  v.codes = ex.allocN<int>(F * Q);
  v.x = ex.allocN<float>(F * C);
  v.y = ex.allocN<float>(F * C);
  v.head = ex.allocN<float>(F * (3 + K));
  v.f0 = ex.allocN<float>(F);
  v.amps = ex.allocN<float>(F * K);
  v.noiseGain = ex.allocN<float>(F);
  v.within = ex.allocN<float>(F * hop);
  v.offsets = ex.allocN<float>(F);
  v.audio = ex.allocN<float>(F * hop);
  v.totals = ex.allocN<double>(F);
  v.endPhase = ex.allocN<double>(1);
  v.phase0 = ex.allocN<double>(1);
  return v;
}

/** Decodes frames [0, frames) of codes [frames, Q] into audio [frames·hop] (eager launches). */
inline VocodeResult runVocoder(Executor& ex, VocoderState& v, const Config& c, const int32_t* codes, int frames, int context,
                               double phase0, int64_t noiseStart, float* audio) {
  if (frames < 1 || frames > c.maxFrames) throw NativeError("vocode: " + std::to_string(frames) + " frames, expected 1.." + std::to_string(c.maxFrames));
  if (context < 0 || context >= frames) throw NativeError("vocode: context " + std::to_string(context) + " outside [0, " + std::to_string(frames) + ")");
  for (int i = 0; i < frames * c.codebooks; i++) {
    if (codes[i] < 0 || codes[i] >= c.codecRowsPerCodebook) {
      throw NativeError("vocode: code " + std::to_string(codes[i]) + " at frame " + std::to_string(i / c.codebooks) + ", codebook " + std::to_string(i % c.codebooks) +
                        " outside [0, " + std::to_string(c.codecRowsPerCodebook) + ")");
    }
  }
  const int C = c.vocChannels, K = c.harmonics, hop = c.hop;
  ex.upload(v.codes, codes, (size_t)frames * c.codebooks * sizeof(int));
  ex.upload(v.phase0, &phase0, sizeof(double));
  ex.launch(VocEmbedK{v.codes, v.table, v.x, c.codebooks, C, c.codecRowsPerCodebook}, frames * C);
  for (int l = 0; l < c.vocConvLayers; l++) {
    ex.launch(VocConvK{v.x, v.convW[l], v.convB[l], v.y, C, c.vocKernel}, frames * C);
    std::swap(v.x, v.y);
  }
  ex.launch(VocHeadK{v.x, v.headW, v.headB, v.head, C, 3 + K}, frames * (3 + K));
  ex.launch(VocFrameParamsK{v.head, v.rolloff, v.f0, v.amps, v.noiseGain, K, c.f0Min, c.f0Range}, frames);
  ex.launch(VocFramePhaseK{v.f0, v.ramp, v.within, v.totals, hop, 1.f / (float)c.sampleRate}, frames);
  ex.launch(VocPhaseScanK{v.totals, v.offsets, v.endPhase, v.phase0, frames, context}, 1);
  ex.launch(VocSynthK{v.within, v.offsets, v.amps, v.noiseGain, v.omega, v.ramp, v.audio, K, hop, (uint32_t)noiseStart}, frames * hop);
  VocodeResult r{0};
  ex.download(audio, v.audio, (size_t)frames * hop * sizeof(float));
  ex.download(&r.endPhase, v.endPhase, sizeof(double));
  ex.synchronize();
  return r;
}

}  // namespace parity
