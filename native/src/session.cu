#include <cuda_runtime.h>

#include <chrono>
#include <cstring>
#include <vector>

#include "decoder.cuh"
#include "session.h"
#include "vocoder.cuh"

namespace parity {

static void ck(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw NativeError(std::string(what) + ": " + cudaGetErrorString(e) + " (" + cudaGetErrorName(e) + ")");
}

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
    lmHead = uploadWeight(ex, w, "talker/lm_head.weight", {H, c.talkerVocab});
    lmHeads = uploadWeight(ex, w, "code_predictor/lm_heads.weight", {c.codebooks - 1, H, c.codebookSize});
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
    if (!ex.emulated()) {
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

  int decodeKernelCount() {
    if (exec) {
      size_t count = 0;
      ck(cudaGraphGetNodes(graph, nullptr, &count), "cudaGraphGetNodes");
      return (int)count;
    }
    return decodeLaunches;
  }

  bool captured() const { return exec != nullptr; }

 private:
  cudaStream_t stream() { return static_cast<cudaStream_t>(ex.stream()); }

  /** Embedding already in talker.x [n rows] at *talkerPos: talker, greedy code 0, code predictor loop. */
  void talkerAndCodes(int n) {
    const int H = c.talker.hidden, V = c.codebookSize;
    forward(ex, talker, n, talkerPos, talkerHidden);
    ex.launch(MatmulK{talkerHidden, lmHead, nullptr, talkerLogits, H, c.talkerVocab}, c.talkerVocab);
    ex.launch(ArgmaxK{talkerLogits, c.talkerVocab, c.eos, stepCodes}, 1);
    // Code predictor: prefill [talker hidden, embedding of code 0], then one position per codebook.
    ex.launch(CopyK{talkerHidden, cp.x}, H);
    ex.launch(GatherRowsK{stepCodes, table, cp.x + H, H, c.codecRowOffset}, H);
    for (int cb = 1; cb < c.codebooks; cb++) {
      if (cb > 1) ex.launch(GatherRowsK{stepCodes + cb - 1, table, cp.x, H, c.codecRowOffset + (cb - 1) * c.codecRowsPerCodebook}, H);
      int rows = cb == 1 ? 2 : 1;
      forward(ex, cp, rows, positions + (cb == 1 ? 0 : cb), cpHidden);
      float* logits = cpLogits + (size_t)(cb - 1) * V;
      ex.launch(MatmulK{cpHidden, lmHeads + (size_t)(cb - 1) * H * V, nullptr, logits, H, V}, V);
      ex.launch(ArgmaxK{logits, V, -1, stepCodes + cb}, 1);
    }
  }

  /** One decode step: the feedback update (unless stale), the feedback embedding, then the talker. */
  void decodeBody(bool update) {
    long long before = ex.launches();
    if (update) ex.launch(FeedbackUpdateK{stepCodes, lastCodes}, c.codebooks);
    ex.launch(FeedbackEmbedK{lastCodes, table, talker.x, c.codebooks, c.talker.hidden, c.codecRowOffset, c.codecRowsPerCodebook}, c.talker.hidden);
    talkerAndCodes(1);
    if (update) decodeLaunches = (int)(ex.launches() - before);
  }

  /** Captures one decode step (no host syncs, no allocation, fixed buffers) and finds its update node. */
  void capture() {
    ck(cudaStreamBeginCapture(stream(), cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
    try {
      decodeBody(true);
    } catch (...) {
      cudaGraph_t broken = nullptr;
      cudaStreamEndCapture(stream(), &broken);
      if (broken) cudaGraphDestroy(broken);
      throw;
    }
    ck(cudaStreamEndCapture(stream(), &graph), "cudaStreamEndCapture");
    ck(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
    size_t count = 0;
    ck(cudaGraphGetNodes(graph, nullptr, &count), "cudaGraphGetNodes");
    std::vector<cudaGraphNode_t> nodes(count);
    ck(cudaGraphGetNodes(graph, nodes.data(), &count), "cudaGraphGetNodes");
    const void* updateFn = reinterpret_cast<const void*>(&runKernel<FeedbackUpdateK>);
    for (cudaGraphNode_t node : nodes) {
      cudaGraphNodeType type;
      ck(cudaGraphNodeGetType(node, &type), "cudaGraphNodeGetType");
      if (type != cudaGraphNodeTypeKernel) continue;
      cudaKernelNodeParams params;
      ck(cudaGraphKernelNodeGetParams(node, &params), "cudaGraphKernelNodeGetParams");
      if (params.func == updateFn) updateNode = node;
    }
    if (!updateNode) throw NativeError("capture: the feedback update kernel node is not in the captured graph");
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
  int promptLength = 0, nextStep = 2, hostPos = 0, decodeLaunches = 0;
  cudaEvent_t start = nullptr, stop = nullptr;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  cudaGraphNode_t updateNode = nullptr;
};

Session::Session(Device device, Mode mode, const Config& config, const WeightMap& weights, int staleStep)
    : impl_(new SessionImpl(device, mode, config, weights, staleStep)) {}
Session::~Session() = default;
double Session::prefill(const int32_t* ids, int n, const StepOutput& out) { return impl_->prefill(ids, n, out); }
double Session::decode(int step, const StepOutput& out) { return impl_->decode(step, out); }
VocodeResult Session::vocode(const int32_t* codes, int frames, int context, double phase0, int64_t noiseStart, float* audio) {
  return impl_->vocode(codes, frames, context, phase0, noiseStart, audio);
}
int Session::decodeKernelCount() const { return impl_->decodeKernelCount(); }
bool Session::graphCaptured() const { return impl_->captured(); }

}  // namespace parity
