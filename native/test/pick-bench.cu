#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "decoder-kernels.cuh"
#include "graph-capture.cuh"
#include "pick-bench-row.h"
#include "pick-bench.h"
#include "sample-kernels.cuh"

namespace check {

using namespace parity;

/** Median device time (ms) of `replays` launches of the graph of what `body` launches on ex's stream. */
template <class F>
static double replayMs(Executor& ex, F body, int replays) {
  cudaStream_t stream = static_cast<cudaStream_t>(ex.stream());
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  ck(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
  body();
  ck(cudaStreamEndCapture(stream, &graph), "cudaStreamEndCapture");
  ck(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
  cudaEvent_t start, stop;
  ck(cudaEventCreate(&start), "cudaEventCreate");
  ck(cudaEventCreate(&stop), "cudaEventCreate");
  ck(cudaGraphLaunch(exec, stream), "cudaGraphLaunch");  // warm-up
  std::vector<double> ms;
  for (int r = 0; r < replays; r++) {
    ck(cudaEventRecord(start, stream), "cudaEventRecord");
    ck(cudaGraphLaunch(exec, stream), "cudaGraphLaunch");
    ck(cudaEventRecord(stop, stream), "cudaEventRecord");
    ck(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float f = 0;
    ck(cudaEventElapsedTime(&f, start, stop), "cudaEventElapsedTime");
    ms.push_back(f);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

PickTiming benchPick(int V, const SamplingSettings& s, int picks, int replays) {
  Executor ex(Device::Cuda);
  const std::vector<float> host = pickBenchRow(V);
  SamplingParams params = samplingParams(s);
  float* logits = ex.allocN<float>(V);
  int *seen = ex.allocN<int>(V), *step = ex.allocN<int>(1), *code = ex.allocN<int>(1);
  SamplingParams* p = ex.allocN<SamplingParams>(1);
  const int two = 2;
  ex.upload(logits, host.data(), V * sizeof(float));
  ex.upload(step, &two, sizeof two);
  ex.upload(p, &params, sizeof params);
  ex.synchronize();
  double greedy = replayMs(ex, [&] {
    for (int i = 0; i < picks; i++) ex.rows(ArgmaxK{logits, -1, code, V}, 1);
  }, replays);
  auto pick = [&](int i) { ex.block(SamplePickK{logits, seen, p, step, -1, nullptr, code, V, i % 8}, SamplePickK::sharedBytes(V)); };
  pick(0);  // outside the capture: opts in to the shared memory above 48 KiB
  ex.synchronize();
  double sampled = replayMs(ex, [&] {
    for (int i = 0; i < picks; i++) pick(i);
  }, replays);
  return PickTiming{1000.0 * greedy / picks, 1000.0 * sampled / picks};
}

}  // namespace check
