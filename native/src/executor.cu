#include <cuda_runtime.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "executor.h"

namespace parity {

static std::string cudaText(cudaError_t e) {
  return std::string(cudaGetErrorString(e)) + " (" + cudaGetErrorName(e) + ")";
}

static void ck(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw NativeError(std::string(what) + ": " + cudaText(e));
}

CudaProbe probeCuda() {
  CudaProbe p;
  cudaRuntimeGetVersion(&p.runtimeVersion);
  cudaDriverGetVersion(&p.driverVersion);
  cudaError_t e = cudaGetDeviceCount(&p.deviceCount);
  if (e != cudaSuccess) {
    p.deviceCount = 0;
    p.error = "cudaGetDeviceCount: " + cudaText(e);
    cudaGetLastError();
    return p;
  }
  if (p.deviceCount == 0) {
    p.error = "cudaGetDeviceCount: 0 CUDA devices";
    return p;
  }
  cudaDeviceProp prop;
  e = cudaGetDeviceProperties(&prop, 0);
  if (e != cudaSuccess) {
    p.error = "cudaGetDeviceProperties(0): " + cudaText(e);
    return p;
  }
  p.deviceName = prop.name;
  p.ok = true;
  return p;
}

Executor::Executor(Device device) : device_(device) {
  if (device_ == Device::Cuda) {
    CudaProbe p = probeCuda();
    if (!p.ok) throw NativeError("no usable CUDA device: " + p.error);
    ck(cudaSetDevice(0), "cudaSetDevice(0)");
    cudaStream_t s;
    ck(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
    stream_ = s;
  }
}

Executor::~Executor() {
  for (void* b : buffers_) {
    if (emulated()) std::free(b);
    else cudaFree(b);
  }
  for (void* e : eventPool_) cudaEventDestroy(static_cast<cudaEvent_t>(e));
  for (auto& m : marks_) cudaEventDestroy(static_cast<cudaEvent_t>(m.second));
  if (stream_) cudaStreamDestroy(static_cast<cudaStream_t>(stream_));
}

void* Executor::alloc(size_t bytes) {
  if (bytes == 0) bytes = 4;
  void* p = nullptr;
  if (emulated()) {
    p = std::calloc(1, bytes);
    if (!p) throw NativeError("calloc(" + std::to_string(bytes) + ") failed");
  } else {
    ck(cudaMalloc(&p, bytes), "cudaMalloc");
    ck(cudaMemset(p, 0, bytes), "cudaMemset");
  }
  buffers_.push_back(p);
  bytes_ += bytes;
  return p;
}

void Executor::upload(void* dst, const void* src, size_t bytes) {
  if (emulated()) std::memcpy(dst, src, bytes);
  else ck(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, static_cast<cudaStream_t>(stream_)), "cudaMemcpyAsync H2D");
}

void Executor::download(void* dst, const void* src, size_t bytes) {
  if (emulated()) std::memcpy(dst, src, bytes);
  else ck(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, static_cast<cudaStream_t>(stream_)), "cudaMemcpyAsync D2H");
}

void Executor::zero(void* dst, size_t bytes) {
  if (emulated()) std::memset(dst, 0, bytes);
  else ck(cudaMemsetAsync(dst, 0, bytes, static_cast<cudaStream_t>(stream_)), "cudaMemsetAsync");
}

void Executor::synchronize() {
  if (!emulated()) ck(cudaStreamSynchronize(static_cast<cudaStream_t>(stream_)), "cudaStreamSynchronize");
}

/** Records an event on the stream: one from the pool (created once, reused by later profiles). */
void* Executor::recordEvent() {
  cudaEvent_t e;
  if (eventPool_.empty()) {
    ck(cudaEventCreate(&e), "cudaEventCreate");
  } else {
    e = static_cast<cudaEvent_t>(eventPool_.back());
    eventPool_.pop_back();
  }
  ck(cudaEventRecord(e, static_cast<cudaStream_t>(stream_)), "cudaEventRecord");
  return e;
}

void Executor::checkLaunch(const char* what) {
  ck(cudaGetLastError(), what);
  if (profiling_) marks_.push_back({what, recordEvent()});
}

void Executor::startProfile() {
  if (emulated()) throw NativeError("startProfile: the CPU emulation has no device time to profile");
  for (auto& m : marks_) eventPool_.push_back(m.second);  // a profile started again before it was taken
  profiling_ = true;
  marks_.assign(1, {nullptr, recordEvent()});
}

std::vector<KernelSpan> Executor::takeProfile() {
  profiling_ = false;
  synchronize();
  std::vector<KernelSpan> spans;
  for (size_t i = 1; i < marks_.size(); i++) {
    float ms = 0;
    ck(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(marks_[i - 1].second), static_cast<cudaEvent_t>(marks_[i].second)), "cudaEventElapsedTime");
    spans.push_back({marks_[i].first, ms});
  }
  for (auto& m : marks_) eventPool_.push_back(m.second);
  marks_.clear();
  return spans;
}

}  // namespace parity
