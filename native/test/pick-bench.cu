#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "decoder-kernels.cuh"
#include "graph-capture.cuh"
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
  std::vector<float> host(V);
  for (int i = 0; i < V; i++) host[i] = (float)(4.0 * std::sin(0.7 * i) + 0.001 * i);  // spread, no ties
  SamplingParams params = samplingParams(s);
  float* logits = ex.allocN<float>(V);
  int *seen = ex.allocN<int>(V), *best = ex.allocN<int>(1), *step = ex.allocN<int>(1), *code = ex.allocN<int>(1);
  int *heap = ex.allocN<int>(V), *kept = ex.allocN<int>(V);
  double *pen = ex.allocN<double>(V), *scaled = ex.allocN<double>(V), *e = ex.allocN<double>(V);
  SamplingParams* p = ex.allocN<SamplingParams>(1);
  const int two = 2;
  ex.upload(logits, host.data(), V * sizeof(float));
  ex.upload(step, &two, sizeof two);
  ex.upload(p, &params, sizeof params);
  ex.synchronize();
  double greedy = replayMs(ex, [&] {
    for (int i = 0; i < picks; i++) ex.reduce(ArgmaxK{logits, -1, code}, V);
  }, replays);
  double sampled = replayMs(ex, [&] {
    for (int i = 0; i < picks; i++) {
      ex.reduce(SampleBestK{logits, seen, p, -1, best}, V);
      ex.launch(SampleScoresK{logits, seen, p, best, pen, scaled, e, heap, kept, -1}, V);
      ex.launch(SamplePickK{pen, scaled, e, p, step, best, heap, kept, seen, code, V, i % 8}, 1);
    }
  }, replays);
  auto row = [&](int i) {
    ex.block(parity::SampleRowK{logits, seen, p, step, -1, pen, heap, best, code, V, i % 8}, parity::SampleRowK::sharedBytes(V));
  };
  row(0);  // outside the capture: opts in to the shared memory above 48 KiB
  ex.synchronize();
  double rowMs = replayMs(ex, [&] {
    for (int i = 0; i < picks; i++) row(i);
  }, replays);
  return PickTiming{1000.0 * greedy / picks, 1000.0 * sampled / picks, 1000.0 * rowMs / picks};
}

}  // namespace check
