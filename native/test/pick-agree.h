// GPU: the sampled pick on the device against the same pick emulated on the CPU.
#pragma once
#include <string>

namespace check {

struct PickAgreement {
  int rows = 0;
  int different = 0;
  std::string first;  // the first row that differs, described
};

/**
 * `rows` seeded rows (V 128, 257, 3 072 and 4 099; spread, tied and three-valued logits; top-k, top-p,
 * temperature, penalty, a masked id varying) picked by parity::samplerPick on the GPU and in emulation.
 * The pick's sums are integers and its exp is plain double arithmetic, so the two must agree on every row.
 */
PickAgreement pickAgreement(int rows);

}  // namespace check
