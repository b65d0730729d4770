// Barriers per sampled pick, counted on the CPU: the structural cost of SamplePickK without a GPU.
#pragma once
#include "session.h"

namespace check {

/**
 * The barriers one SamplePickK takes on the device (a phase 1, a block scan or reduce 2) on the pick
 * microbenchmark's row of V logits, counted by running its program in the emulation.
 */
int pickBarriers(int V, const parity::SamplingSettings& s);

}  // namespace check
