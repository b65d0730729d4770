#include "pick-agree.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "session.h"

namespace check {

using namespace parity;

PickAgreement pickAgreement(int rows) {
  PickAgreement r;
  uint64_t state = 0x9e3779b97f4a7c15ull;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(state >> 11) / 9007199254740992.0;
  };
  // V 128 ranks every id; above, top-p inside a top-k of <= 256 ranks the top-k ids (256 of 257: the most).
  const int sizes[] = {128, 257, 3072, 4099};
  const double temperatures[] = {0.3, 0.7, 1, 1.5}, topPs[] = {1, 0.5, 0.9, 0.95};
  const int topKs[] = {0, 1, 5, 40, 256};
  for (int i = 0; i < rows; i++) {
    const int V = sizes[i % 4], kind = (i / 4) % 3;
    std::vector<float> logits(V);
    for (float& x : logits) {
      const double u = next();
      x = (float)(kind == 0 ? 8 * u - 4 : kind == 1 ? std::round(u * 20) / 4 - 2 : std::floor(u * 3));
    }
    SamplingSettings s;
    s.sample = true;
    s.temperature = temperatures[(i / 3) % 4];
    s.topK = topKs[(i / 12) % 5];
    s.topP = topPs[(i / 60) % 4];
    s.repetitionPenalty = (i / 7) % 2 ? 1.3 : 1;
    s.seed = 1000 + i;
    std::vector<int32_t> history(6);
    for (int32_t& h : history) h = (int32_t)(next() * V);
    const int skip = i % 5 == 0 ? V - 1 : -1, step = 2 + i % 50, codebook = i % 8;
    const int gpu = samplerPick(Device::Cuda, logits.data(), V, skip, s, step, codebook, history.data(), (int)history.size());
    const int cpu = samplerPick(Device::Emulate, logits.data(), V, skip, s, step, codebook, history.data(), (int)history.size());
    r.rows++;
    if (gpu != cpu && r.different++ == 0) {
      r.first = "row " + std::to_string(i) + " (V " + std::to_string(V) + "): GPU " + std::to_string(gpu) + ", emulation " + std::to_string(cpu);
    }
  }
  return r;
}

}  // namespace check
