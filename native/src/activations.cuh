// Activations shared by the decoder and vocoder kernels, written once so both round alike.
#pragma once
#include <math.h>

#include "launch.cuh"

namespace parity {

PD inline float sigmoidf(float x) { return 1.f / (1.f + expf(-x)); }

/** SiLU (swish): x · sigmoid(x). */
PD inline float siluf(float x) { return x * sigmoidf(x); }

}  // namespace parity
