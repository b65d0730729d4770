// Stream capture of one decode step into an instantiated CUDA graph (session.cu's graph mode).
#pragma once
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "common.h"

namespace parity {

inline void ck(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw NativeError(std::string(what) + ": " + cudaGetErrorString(e) + " (" + cudaGetErrorName(e) + ")");
}

/**
 * Captures what `body` launches on `stream` (no host syncs, no allocation, fixed buffers), instantiates
 * it into *graph / *exec and returns the kernel node running `kernelFn` (the feedback update, which
 * fault stale-feedback@N disables for one replay). A failed capture is ended and discarded.
 */
template <class F>
cudaGraphNode_t captureStep(cudaStream_t stream, F body, const void* kernelFn, cudaGraph_t* graph, cudaGraphExec_t* exec) {
  ck(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
  try {
    body();
  } catch (...) {
    cudaGraph_t broken = nullptr;
    cudaStreamEndCapture(stream, &broken);
    if (broken) cudaGraphDestroy(broken);
    throw;
  }
  ck(cudaStreamEndCapture(stream, graph), "cudaStreamEndCapture");
  ck(cudaGraphInstantiate(exec, *graph, 0), "cudaGraphInstantiate");
  size_t count = 0;
  ck(cudaGraphGetNodes(*graph, nullptr, &count), "cudaGraphGetNodes");
  std::vector<cudaGraphNode_t> nodes(count);
  ck(cudaGraphGetNodes(*graph, nodes.data(), &count), "cudaGraphGetNodes");
  cudaGraphNode_t found = nullptr;
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType type;
    ck(cudaGraphNodeGetType(node, &type), "cudaGraphNodeGetType");
    if (type != cudaGraphNodeTypeKernel) continue;
    cudaKernelNodeParams params;
    ck(cudaGraphKernelNodeGetParams(node, &params), "cudaGraphKernelNodeGetParams");
    if (params.func == kernelFn) found = node;
  }
  if (!found) throw NativeError("capture: the feedback update kernel node is not in the captured graph");
  return found;
}

}  // namespace parity
