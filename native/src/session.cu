#include <cuda_runtime.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <vector>

#include "decoder.cuh"
#include "graph-capture.cuh"
#include "sample-kernels.cuh"
#include "session.h"
#include "vocoder.cuh"

namespace parity {

class SessionImpl {
 public:
  SessionImpl(Device device, Mode mode, const Config& c, const WeightMap& w, int staleStep)
      : ex(device), mode(mode), c(c), staleStep(staleStep),
        talker(makeDecoder(ex, w, "talker", c.talker, c.maxTextTokens)),
        cp(makeDecoder(ex, w, "code_predictor", c.codePredictor, 2)),
        voc(makeVocoder(ex, w, c)) {
    const int H = c.talker.hidden, textRows = c.codecRowOffset, codecRows = c.codebooks * c.codecRowsPerCodebook;
    if (c.codePredictor.hidden != H) throw NativeError("code predictor hidden " + std::to_string(c.codePredictor.hidden) + " != talker hidden " + std::to_string(H));
    if (c.codePredictor.maxPositions < c.codebooks) throw NativeError("code predictor maxPositions < codebooks");
    const HostTensor& text = needWeight(w, "embed/text_embedding.weight", {textRows, H});
    const HostTensor& codec = needWeight(w, "embed/codec_embedding.weight", {codecRows, H});
    table = ex.allocN<float>((size_t)(textRows + codecRows) * H);
    ex.upload(table, text.data, (size_t)textRows * H * sizeof(float));
    ex.upload(table + (size_t)textRows * H, codec.data, (size_t)codecRows * H * sizeof(float));
    lmHead = uploadTransposed(ex, w, "talker/lm_head.weight", {H, c.talkerVocab});
    lmHeads = uploadTransposed(ex, w, "code_predictor/lm_heads.weight", {c.codebooks - 1, H, c.codebookSize});
    ids = ex.allocN<int>(c.maxTextTokens);
    talkerPos = ex.allocN<int>(1);
    positions = ex.allocN<int>(c.codePredictor.maxPositions);
    std::vector<int> seq(c.codePredictor.maxPositions);
    for (size_t i = 0; i < seq.size(); i++) seq[i] = (int)i;
    ex.upload(positions, seq.data(), seq.size() * sizeof(int));
    stepCodes = ex.allocN<int>(c.codebooks);
    lastCodes = ex.allocN<int>(c.codebooks);
    talkerLogits = ex.allocN<float>(c.talkerVocab);
    talkerHidden = ex.allocN<float>(H);
    cpHidden = ex.allocN<float>(H);
    cpLogits = ex.allocN<float>((size_t)(c.codebooks - 1) * c.codebookSize);
    vmax = c.talkerVocab > c.codebookSize ? c.talkerVocab : c.codebookSize;
    stepNo = ex.allocN<int>(1);
    sampling = ex.allocN<SamplingParams>(1);
    seen = ex.allocN<int>((size_t)c.codebooks * vmax);
    pickScratch = ex.allocN<unsigned long long>(2 * (size_t)vmax);
    setSampling(SamplingSettings{});
    if (!ex.emulated()) {
      int dev = 0, optin = 0;
      ck(cudaGetDevice(&dev), "cudaGetDevice");
      ck(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev), "cudaDeviceGetAttribute(MaxSharedMemoryPerBlockOptin)");
      pickSharedLimit = (size_t)optin > sizeof(PickShared) ? (size_t)optin - sizeof(PickShared) : 0;  // beside the pick's static shared memory
      ck(cudaEventCreate(&start), "cudaEventCreate");
      ck(cudaEventCreate(&stop), "cudaEventCreate");
    }
    ex.synchronize();
  }

  ~SessionImpl() {
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
  }

  void setSampling(const SamplingSettings& s) {
    SamplingParams p = samplingParams(s);
    bool next = s.sample || s.repetitionPenalty != 1;
    if (next != sampled) dropGraph();  // the captured step launches other kernels
    sampled = next;
    ex.upload(sampling, &p, sizeof p);
  }

  double prefill(const int32_t* tokenIds, int n, const StepOutput& out) {
    if (n < 1 || n > c.maxTextTokens) throw NativeError("prefill: " + std::to_string(n) + " tokens, expected 1.." + std::to_string(c.maxTextTokens));
    for (int i = 0; i < n; i++) {
      if (tokenIds[i] < 0 || tokenIds[i] >= c.codecRowOffset) throw NativeError("prefill: token " + std::to_string(i) + " = " + std::to_string(tokenIds[i]) + " outside the text rows [0, " + std::to_string(c.codecRowOffset) + ")");
    }
    promptLength = n;
    nextStep = 2;
    std::vector<int> bos(c.codebooks, c.bos);
    int zero = 0;
    ex.upload(ids, tokenIds, n * sizeof(int));
    ex.upload(lastCodes, bos.data(), bos.size() * sizeof(int));
    ex.upload(talkerPos, &zero, sizeof(int));
    int one = 1;
    ex.upload(stepNo, &one, sizeof(int));
    ex.zero(seen, (size_t)c.codebooks * vmax * sizeof(int));
    return timed([&] {
      ex.launch(GatherRowsK{ids, table, talker.x, c.talker.hidden, 0}, n * c.talker.hidden);
      talkerAndCodes(n);
    }, out);
  }

  double decode(int step, const StepOutput& out) {
    if (promptLength == 0 || step != nextStep) throw NativeError("decode: step " + std::to_string(step) + " out of order (expected " + std::to_string(nextStep) + ", after a prefill)");
    hostPos = promptLength + step - 2;
    if (hostPos >= c.talker.maxPositions) throw NativeError("decode: position " + std::to_string(hostPos) + " exceeds talker maxPositions " + std::to_string(c.talker.maxPositions));
    nextStep++;
    ex.upload(talkerPos, &hostPos, sizeof(int));
    hostStep = step;
    ex.upload(stepNo, &hostStep, sizeof(int));
    const bool stale = step == staleStep;
    if (mode == Mode::Graph && !ex.emulated()) {
      if (!exec) capture();
      return timed([&] {
        if (stale) ck(cudaGraphNodeSetEnabled(exec, updateNode, 0), "cudaGraphNodeSetEnabled(feedback update, 0)");
        ck(cudaGraphLaunch(exec, stream()), "cudaGraphLaunch");
        if (stale) ck(cudaGraphNodeSetEnabled(exec, updateNode, 1), "cudaGraphNodeSetEnabled(feedback update, 1)");
      }, out);
    }
    return timed([&] { decodeBody(!stale); }, out);
  }

  VocodeResult vocode(const int32_t* codes, int frames, int context, double phase0, int64_t noiseStart, float* audio) {
    return runVocoder(ex, voc, c, codes, frames, context, phase0, noiseStart, audio);
  }

  /** Fused decode-step kernels (the graph profile's default) or one launch per operation (the eager profile's). */
  void setFused(bool on) {
    if (on != fused) dropGraph();
    fused = on;
  }

  void setStaleStep(int n) {
    if (n < 0 || n == 1) throw NativeError("staleStep: " + std::to_string(n) + " (0 = none, else a decode step >= 2)");
    staleStep = n;
  }

  size_t deviceBytes() const { return ex.bytes(); }

  int decodeKernelCount() {
    if (exec) {
      size_t count = 0;
      ck(cudaGraphGetNodes(graph, nullptr, &count), "cudaGraphGetNodes");
      return (int)count;
    }
    return decodeLaunches;
  }

  bool captured() const { return exec != nullptr; }

  void startProfile() {
    if (mode == Mode::Graph) throw NativeError("startProfile: a graph session replays one captured graph per step; profile an eager session");
    ex.startProfile();
  }

  std::vector<KernelSpan> takeProfile() { return ex.takeProfile(); }

 private:
  cudaStream_t stream() { return static_cast<cudaStream_t>(ex.stream()); }

  /** Embedding already in talker.x [n rows] at *talkerPos: talker, greedy code 0, code predictor loop. */
  void talkerAndCodes(int n) {
    const int H = c.talker.hidden;
    forward(ex, talker, n, talkerPos, talkerHidden);
    ex.rows(MatmulK{talkerHidden, lmHead, nullptr, talkerLogits, H, c.talkerVocab}, c.talkerVocab);
    pick(talkerLogits, c.talkerVocab, c.eos, 0);
    // Code predictor: prefill [talker hidden, embedding of code 0], then one position per codebook.
    ex.launch(CopyK{talkerHidden, cp.x}, H);
    ex.launch(GatherRowsK{stepCodes, table, cp.x + H, H, c.codecRowOffset}, H);
    for (int cb = 1; cb < c.codebooks; cb++) {
      if (cb > 1) ex.launch(GatherRowsK{stepCodes + cb - 1, table, cp.x, H, codecBase(cb - 1)}, H);
      int rows = cb == 1 ? 2 : 1;
      forward(ex, cp, rows, positions + (cb == 1 ? 0 : cb), cpHidden);
      headAndPick(cb);
    }
  }

  int codecBase(int codebook) const { return c.codecRowOffset + codebook * c.codecRowsPerCodebook; }

  void headAndPick(int cb) {
    const int H = c.talker.hidden, V = c.codebookSize;
    float* logits = cpLogits + (size_t)(cb - 1) * V;
    ex.rows(MatmulK{cpHidden, lmHeads + (size_t)(cb - 1) * H * V, nullptr, logits, H, V}, V);
    pick(logits, V, -1, cb);
  }

  /**
   * The decode step's talker and code predictor with one fused kernel per decoder layer (forwardFused):
   * the feedback embedding inside the talker's layer 0, the code predictor's row gathers inside its
   * layer 0, the final norms, the heads and the greedy picks inside the last layers. Same element
   * arithmetic as the unfused path.
   */
  void talkerAndCodesFused() {
    const int H = c.talker.hidden, V = c.codebookSize;
    PreludeK embed{1, {lastCodes, table, talker.x, c.codebooks, H, c.codecRowOffset, c.codecRowsPerCodebook}, {}, {}, H};
    forwardFused(ex, talker, 1, talkerPos, talkerHidden, embed,
                 FusedHead{lmHead, talkerLogits, c.talkerVocab, ArgmaxK{talkerLogits, c.eos, stepCodes, c.talkerVocab}, !sampled});
    if (sampled) samplePick(talkerLogits, c.talkerVocab, c.eos, 0);
    for (int cb = 1; cb < c.codebooks; cb++) {
      PreludeK rows = cb == 1 ? PreludeK{2, {}, {talkerHidden, cp.x}, {stepCodes, table, cp.x + H, H, c.codecRowOffset}, H}
                              : PreludeK{3, {}, {}, {stepCodes + cb - 1, table, cp.x, H, codecBase(cb - 1)}, H};
      float* logits = cpLogits + (size_t)(cb - 1) * V;
      forwardFused(ex, cp, cb == 1 ? 2 : 1, positions + (cb == 1 ? 0 : cb), cpHidden, rows,
                   FusedHead{lmHeads + (size_t)(cb - 1) * H * V, logits, V, ArgmaxK{logits, -1, stepCodes + cb, V}, !sampled});
      if (sampled) samplePick(logits, V, -1, cb);
    }
  }

  /** stepCodes[codebook] from `logits` [V]: the greedy argmax (one warp) or the sampled pick. */
  void pick(const float* logits, int V, int skip, int codebook) {
    if (sampled) samplePick(logits, V, skip, codebook);
    else ex.rows(ArgmaxK{logits, skip, stepCodes + codebook, V}, 1);
  }

  /**
   * The sampled pick (SamplePickK, one block), its per-id keys and masses in shared memory where the device
   * has room, else in global scratch.
   */
  void samplePick(const float* logits, int V, int skip, int codebook) {
    const bool onChip = SamplePickK::sharedBytes(V) <= pickSharedLimit;
    ex.block(SamplePickK{logits, seen + (size_t)codebook * vmax, sampling, stepNo, skip, onChip ? nullptr : pickScratch, stepCodes + codebook, V, codebook},
             onChip ? SamplePickK::sharedBytes(V) : 0);
  }

  void dropGraph() {
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
    exec = nullptr;
    graph = nullptr;
    updateNode = nullptr;
  }

  /** One decode step: the feedback update (unless stale), the feedback embedding, then the talker. */
  void decodeBody(bool update) {
    long long before = ex.launches();
    if (update) ex.launch(FeedbackUpdateK{stepCodes, lastCodes}, c.codebooks);
    if (fused) {
      talkerAndCodesFused();
    } else {
      ex.launch(FeedbackEmbedK{lastCodes, table, talker.x, c.codebooks, c.talker.hidden, c.codecRowOffset, c.codecRowsPerCodebook}, c.talker.hidden);
      talkerAndCodes(1);
    }
    if (update) decodeLaunches = (int)(ex.launches() - before);
  }

  /** Captures one decode step (no host syncs, no allocation, fixed buffers) and finds its update node. */
  void capture() {
    updateNode = captureStep(stream(), [&] { decodeBody(true); }, reinterpret_cast<const void*>(&runKernel<FeedbackUpdateK>), &graph, &exec);
  }

  /** Runs `body`, copies the step's outputs to the host and returns the body's time in ms. */
  template <class F>
  double timed(F body, const StepOutput& out) {
    double ms = 0;
    if (ex.emulated()) {
      auto t0 = std::chrono::steady_clock::now();
      body();
      ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    } else {
      ck(cudaEventRecord(start, stream()), "cudaEventRecord");
      body();
      ck(cudaEventRecord(stop, stream()), "cudaEventRecord");
    }
    ex.download(out.codes, stepCodes, c.codebooks * sizeof(int));
    ex.download(out.talkerLogits, talkerLogits, c.talkerVocab * sizeof(float));
    ex.download(out.talkerHidden, talkerHidden, c.talker.hidden * sizeof(float));
    ex.download(out.cpLogits, cpLogits, (size_t)(c.codebooks - 1) * c.codebookSize * sizeof(float));
    ex.synchronize();
    if (!ex.emulated()) {
      float f = 0;
      ck(cudaEventElapsedTime(&f, start, stop), "cudaEventElapsedTime");
      ms = f;
    }
    return ms;
  }

  Executor ex;
  Mode mode;
  Config c;
  int staleStep;
  Decoder talker, cp;
  VocoderState voc;
  float *table = nullptr, *lmHead = nullptr, *lmHeads = nullptr;
  int *ids = nullptr, *talkerPos = nullptr, *positions = nullptr, *stepCodes = nullptr, *lastCodes = nullptr;
  float *talkerLogits = nullptr, *talkerHidden = nullptr, *cpHidden = nullptr, *cpLogits = nullptr;
  int promptLength = 0, nextStep = 2, hostPos = 0, hostStep = 0, decodeLaunches = 0, vmax = 0;
  // Sampling: settings, the step number (Philox counter), per-codebook history flags, pick scratch.
  SamplingParams* sampling = nullptr;
  int *stepNo = nullptr, *seen = nullptr;
  unsigned long long* pickScratch = nullptr;
  bool sampled = false;
  bool fused = mode == Mode::Graph;
  size_t pickSharedLimit = (size_t)-1;  // dynamic shared memory the pick may take (emulated: no limit)
  cudaEvent_t start = nullptr, stop = nullptr;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  cudaGraphNode_t updateNode = nullptr;
};

Session::Session(Device device, Mode mode, const Config& config, const WeightMap& weights, int staleStep)
    : impl_(new SessionImpl(device, mode, config, weights, staleStep)) {}
Session::~Session() = default;

static SessionImpl& live(const std::unique_ptr<SessionImpl>& impl, const char* what) {
  if (!impl) throw NativeError(std::string(what) + ": the native session is closed (close() released its device memory); open a new session");
  return *impl;
}

size_t Session::close() {
  size_t bytes = impl_ ? impl_->deviceBytes() : 0;
  impl_.reset();
  return bytes;
}

void Session::setSampling(const SamplingSettings& s) { live(impl_, "setSampling").setSampling(s); }
void Session::setFused(bool on) { live(impl_, "setFused").setFused(on); }
void Session::setStaleStep(int n) { live(impl_, "setStaleStep").setStaleStep(n); }
double Session::prefill(const int32_t* ids, int n, const StepOutput& out) { return live(impl_, "prefill").prefill(ids, n, out); }
double Session::decode(int step, const StepOutput& out) { return live(impl_, "decode").decode(step, out); }
VocodeResult Session::vocode(const int32_t* codes, int frames, int context, double phase0, int64_t noiseStart, float* audio) {
  return live(impl_, "vocode").vocode(codes, frames, context, phase0, noiseStart, audio);
}
int Session::decodeKernelCount() const { return live(impl_, "decodeKernelCount").decodeKernelCount(); }
void Session::startProfile() { live(impl_, "startProfile").startProfile(); }
std::vector<KernelSpan> Session::takeProfile() { return live(impl_, "takeProfile").takeProfile(); }
bool Session::graphCaptured() const { return live(impl_, "graphCaptured").captured(); }

double samplerExp(double x) { return jsExp(x); }
double samplerUniform(uint64_t seed, int step, int codebook) {
  return philoxUniform((uint32_t)(seed & 0xffffffffu), (uint32_t)(seed >> 32), step, codebook, 0);
}

}  // namespace parity
