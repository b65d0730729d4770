// Microbenchmark of one code pick on the GPU: the greedy argmax kernel vs the sampled pick.
#pragma once
#include "session.h"

namespace check {

struct PickTiming {
  double argmaxUs;   // device time per greedy pick (ArgmaxK)
  double sampledUs;  // device time per sampled pick (SamplePickK, one block, keys and masses in shared memory)
};

/**
 * Device time per pick over a vocabulary of V synthetic logits: `picks` picks captured into one CUDA
 * graph (as the decode step runs them), the median of `replays` replays (cudaEvent) / picks. GPU only:
 * throws NativeError without one.
 */
PickTiming benchPick(int V, const parity::SamplingSettings& s, int picks, int replays);

}  // namespace check
