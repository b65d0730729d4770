// One pick on arbitrary logits, for tests: the greedy argmax or the sampled pick exactly as
// session.cu launches them, so unit tests can hold them against sample-token.ts on vocabularies, ties
// and NaNs the demo bundle never produces.
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
  int *seen = ex.allocN<int>(V), *stepNo = ex.allocN<int>(1), *code = ex.allocN<int>(1);
  unsigned long long* scratch = ex.allocN<unsigned long long>(2 * (size_t)V);
  SamplingParams* p = ex.allocN<SamplingParams>(1);
  ex.upload(dLogits, logits, V * sizeof(float));
  ex.upload(stepNo, &step, sizeof(int));
  ex.upload(p, &params, sizeof params);
  // Both places the session may keep the per-id keys and masses: shared memory, then global scratch.
  int chosen[2] = {-1, -1};
  for (int global = 0; global < 2; global++) {
    ex.upload(seen, flags.data(), V * sizeof(int));
    ex.block(SamplePickK{dLogits, seen, p, stepNo, skip, global ? scratch : nullptr, code, V, codebook}, global ? 0 : SamplePickK::sharedBytes(V));
    ex.download(&chosen[global], code, sizeof(int));
    ex.synchronize();
  }
  if (chosen[0] != chosen[1]) {
    throw NativeError("samplerPick: the pick chose " + std::to_string(chosen[0]) + " from shared memory, " + std::to_string(chosen[1]) + " from global scratch");
  }
  return chosen[0];
}

int greedyPick(Device device, const float* logits, int V, int skip) {
  if (V < 1) throw NativeError("greedyPick: empty logits");
  Executor ex(device);
  float* dLogits = ex.allocN<float>(V);
  int* code = ex.allocN<int>(1);
  ex.upload(dLogits, logits, V * sizeof(float));
  ex.rows(ArgmaxK{dLogits, skip, code, V}, 1);
  int result = -1;
  ex.download(&result, code, sizeof(int));
  ex.synchronize();
  return result;
}

}  // namespace parity
