// The native backend's C++ API (no CUDA types): used by the node addon and the standalone check.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common.h"
#include "executor.h"

namespace parity {

struct DecoderDims {
  int layers, heads, kvHeads, headDim, hidden, ffn, maxPositions;
  float eps;
};

/** Sizes of the demo architecture, from bundle.json (and the ONNX weight shapes for ffn/vocoder). */
struct Config {
  int codebooks, codebookSize, talkerVocab, eos, bos;
  int codecRowOffset, codecRowsPerCodebook, maxTextTokens, maxFrames;
  DecoderDims talker, codePredictor;
  int vocChannels, vocConvLayers, vocKernel, harmonics, hop, sampleRate;
  float f0Min, f0Range;
};

/** A float32 weight owned by the caller for the duration of Session construction. */
struct HostTensor {
  const float* data = nullptr;
  std::vector<int64_t> dims;
};
using WeightMap = std::map<std::string, HostTensor>;

/** Caller-owned views the step results are copied into. */
struct StepOutput {
  int32_t* codes;        // [Q]
  float* talkerLogits;   // [talkerVocab]
  float* talkerHidden;   // [hidden]
  float* cpLogits;       // [(Q-1), codebookSize]
};

/** How codes are picked (electron/common/sampling/types.ts SamplingParams, plus the run's seed). */
struct SamplingSettings {
  bool sample = false;  // false: greedy
  double temperature = 1, topP = 1, repetitionPenalty = 1;
  int topK = 0;
  uint64_t seed = 0;  // < 2^53
};

struct VocodeResult {
  double endPhase;
};

/** The sampler's exp (V8's Math.exp) and Philox uniform, as the kernels compute them (for tests). */
double samplerExp(double x);
double samplerUniform(uint64_t seed, int step, int codebook);
/**
 * One pick over `logits` [V] by the sampled pick (SamplePickK) on `device` (sampler-probe.cu), with the Philox
 * draw at (step, codebook) and the ids in `history` penalised; skip: an id masked to -inf, -1 for none.
 * Greedy settings pick through the same kernels (as a session does with a repetition penalty).
 */
int samplerPick(Device device, const float* logits, int V, int skip, const SamplingSettings& s, int step, int codebook, const int32_t* history,
                int nHistory);
/** One greedy pick over `logits` [V] by the argmax kernel a greedy session launches (skip: -inf, -1 for none). */
int greedyPick(Device device, const float* logits, int V, int skip);

class SessionImpl;

/**
 * One synthesis at a time over device-resident weights. Step 1 (prefill) always runs eager; in graph
 * mode the first decode step captures the whole decode step (feedback update, feedback embedding,
 * talker, greedy pick, code predictor loop) into one CUDA graph, and every decode step replays it.
 * staleStep = N > 1 reproduces fault stale-feedback@N: at step N the feedback buffer's update node is
 * disabled, so the step reads frame N-2's codes (the BOS seed when N = 2, as in seed 000).
 */
class Session {
 public:
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  Session(Device device, Mode mode, const Config& config, const WeightMap& weights, int staleStep);
  ~Session();
  /**
   * Settings for the next synthesis (kept until changed). Greedy without a repetition penalty uses the
   * argmax kernel; anything else the sampled pick (SamplePickK); switching between the two re-captures the graph.
   */
  void setSampling(const SamplingSettings& s);
  /** Fault stale-feedback@N for the next synthesis (0 = none; kept until changed). */
  void setStaleStep(int staleStep);

  /**
   * Decode steps with one fused kernel per decoder layer, the heads and greedy picks inside the last ones
   * (true, the graph profile's default: 19 kernels per greedy step on the demo fixture), or one launch per
   * operation (false, the eager profile's default, as PyTorch eager launches them: 194). Bit-identical
   * results. Re-captures the graph.
   */
  void setFused(bool on);
  /** Step 1: text prefill of ids [n]. Resets the talker. Returns the step's time in ms. */
  double prefill(const int32_t* ids, int n, const StepOutput& out);
  /** Step s >= 2 (consecutive). Returns the time of the device step in ms (cudaEvent, or host clock when emulated). */
  double decode(int step, const StepOutput& out);
  /** Audio of `frames` frames of codes [frames, Q], the first `context` being left context; audio [frames·hop]. */
  VocodeResult vocode(const int32_t* codes, int frames, int context, double phase0, int64_t noiseStart, float* audio);
  /** Kernel launches in one decode step (eager) = kernel nodes in the captured graph. */
  int decodeKernelCount() const;
  /** Device only, eager steps: record each launch's span from now (Executor::startProfile) / take them. */
  void startProfile();
  std::vector<KernelSpan> takeProfile();
  bool graphCaptured() const;
  /**
   * Frees the device memory now (weights, KV cache, buffers, the captured graph, the stream) instead
   * of when the object is destroyed; returns the bytes of device buffers released (0 if already
   * closed). Every later call except close() and closed() throws "the native session is closed".
   */
  size_t close();
  bool closed() const { return !impl_; }

 private:
  std::unique_ptr<SessionImpl> impl_;
};

}  // namespace parity
