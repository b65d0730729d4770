// One pick on arbitrary logits, for tests: the greedy argmax reduce or the three sampling kernels
// exactly as session.cu launches them (and the one-block pick, which must agree: else it throws), so unit tests can hold them against sample-token.ts on
// vocabularies, ties and NaNs the demo bundle never produces.
#include <string>
#include <vector>

#include "launch.cuh"
#include "sample-kernels.cuh"
#include "session.h"

namespace parity {

int samplerPick(Device device, const float* logits, int V, int skip, const SamplingSettings& s, int step, int codebook, const int32_t* history,
                int nHistory) {
  if (V < 1) throw NativeError("samplerPick: empty logits");
  Executor ex(device);
  SamplingParams params = samplingParams(s);
  std::vector<int> flags(V, 0);
  for (int h = 0; h < nHistory; h++) {
    if (history[h] >= 0 && history[h] < V) flags[history[h]] = 1;
  }
  float* dLogits = ex.allocN<float>(V);
  int *seen = ex.allocN<int>(V), *best = ex.allocN<int>(1), *stepNo = ex.allocN<int>(1), *code = ex.allocN<int>(1);
  int *heap = ex.allocN<int>(V), *kept = ex.allocN<int>(V);
  double *pen = ex.allocN<double>(V), *scaled = ex.allocN<double>(V), *e = ex.allocN<double>(V);
  SamplingParams* p = ex.allocN<SamplingParams>(1);
  ex.upload(dLogits, logits, V * sizeof(float));
  ex.upload(seen, flags.data(), V * sizeof(int));
  ex.upload(stepNo, &step, sizeof(int));
  ex.upload(p, &params, sizeof params);
  ex.reduce(SampleBestK{dLogits, seen, p, skip, best}, V);
  ex.launch(SampleScoresK{dLogits, seen, p, best, pen, scaled, e, heap, kept, skip}, V);
  ex.launch(SamplePickK{pen, scaled, e, p, stepNo, best, heap, kept, seen, code, V, codebook}, 1);
  int result = -1;
  ex.download(&result, code, sizeof(int));
  // The one-block pick the fused decode step uses (SampleRowK), on the same row and history: the same id.
  ex.upload(seen, flags.data(), V * sizeof(int));
  ex.block(SampleRowK{dLogits, seen, p, stepNo, skip, pen, heap, best, code, V, codebook}, SampleRowK::sharedBytes(V));
  int row = -1;
  ex.download(&row, code, sizeof(int));
  ex.synchronize();
  if (row != result) throw NativeError("samplerPick: the one-block pick chose " + std::to_string(row) + ", the three kernels " + std::to_string(result));
  return result;
}

int greedyPick(Device device, const float* logits, int V, int skip) {
  if (V < 1) throw NativeError("greedyPick: empty logits");
  Executor ex(device);
  float* dLogits = ex.allocN<float>(V);
  int* code = ex.allocN<int>(1);
  ex.upload(dLogits, logits, V * sizeof(float));
  ex.reduce(ArgmaxK{dLogits, skip, code}, V);
  int result = -1;
  ex.download(&result, code, sizeof(int));
  ex.synchronize();
  return result;
}

}  // namespace parity
