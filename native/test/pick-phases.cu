#include "pick-phases.h"

#include <vector>

#include "pick-bench-row.h"
#include "sample-kernels.cuh"

namespace check {

using namespace parity;

namespace {

/** The emulation's phases, counted as the device's barriers (PD: SamplePickK::program is host and device code). */
struct CountedThreads {
  int* barriers;
  template <class F>
  PD void each(F f) const {
    ++*barriers;
    EmulatedThreads{}.each(f);
  }
  template <class F>
  PD void scan(F value, unsigned long long* out, WarpSlots<unsigned long long>& totals) const {
    *barriers += 2;
    EmulatedThreads{}.scan(value, out, totals);
  }
  template <class T, class F, class C>
  PD T reduce(F value, C combine, WarpSlots<T>& partial) const {
    *barriers += 2;
    return EmulatedThreads{}.reduce(value, combine, partial);
  }
};

}  // namespace

int pickBarriers(int V, const SamplingSettings& s) {
  const std::vector<float> logits = pickBenchRow(V);
  const SamplingParams p = samplingParams(s);
  std::vector<int> seen(V, 0);
  std::vector<unsigned long long> perId(2 * (size_t)V);
  const int step = 2;
  int code = -1, barriers = 0;
  PickShared sh{};
  SamplePickK{logits.data(), seen.data(), &p, &step, -1, nullptr, &code, V, 0}.program(CountedThreads{&barriers}, sh, perId.data(), perId.data() + V);
  return barriers;
}

}  // namespace check
