// Memory and launches on one stream, for a CUDA device or for CPU emulation of the same kernels.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "common.h"

namespace parity {

/** Threads of the single block Executor::block launches (a power of two). */
constexpr int kReduceThreads = 256;

/** Threads of the single block Executor::fused launches. */
constexpr int kFusedThreads = 1024;

/** Status of the CUDA runtime on this machine, with the runtime's own error text when it has none. */
struct CudaProbe {
  bool ok = false;
  int deviceCount = 0;
  int runtimeVersion = 0;
  int driverVersion = 0;
  std::string deviceName;
  std::string error;
};
CudaProbe probeCuda();

/** One launch's span on the device: from the previous launch's end event (or the profile's start) to its own. */
struct KernelSpan {
  const char* name;
  float ms;
};

class Executor {
 public:
  explicit Executor(Device device);
  ~Executor();
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  Device device() const { return device_; }
  bool emulated() const { return device_ == Device::Emulate; }

  /** Zero-filled buffer owned by the executor, freed with it. */
  void* alloc(size_t bytes);
  template <class T>
  T* allocN(size_t n) { return static_cast<T*>(alloc(n * sizeof(T))); }

  void upload(void* dst, const void* src, size_t bytes);
  void download(void* dst, const void* src, size_t bytes);
  void zero(void* dst, size_t bytes);
  void synchronize();

  /** Runs k(i) for i in [0, n): one CUDA thread per index, or a plain loop when emulated. */
  template <class K>
  void launch(const K& k, int n);

  /** Runs k over rows [0, n), one warp per row (rows.cuh): k.partial per lane, a fixed lane tree, k.finish. */
  template <class K>
  void rows(const K& k, int n);

  /**
   * One block of kReduceThreads threads runs k.run() with `sharedBytes` of dynamic shared memory (opted in
   * once per size); emulated by k.emulate().
   */
  template <class K>
  void block(const K& k, size_t sharedBytes);

  /** Runs a Fused phase list (launch.cuh) as one kernel of one block, `name` in errors and profiles; emulated phase by phase. */
  template <class F>
  void fused(const F& f, const char* name);

  /** Bytes allocated with alloc (freed together with the executor). */
  size_t bytes() const { return bytes_; }

  /** Kernels launched so far (a decode step's count = the captured graph's kernel nodes). */
  long long launches() const { return launches_; }

  /** CUDA stream as an opaque handle (nullptr when emulated). */
  void* stream() const { return stream_; }

  /** Throws NativeError naming `what` if the last launch failed; while profiling, records the launch's end event. */
  void checkLaunch(const char* what);

  /**
   * Profiling (device only, never while a graph is being captured): from now on every launch records an
   * event after it. takeProfile synchronizes and returns each launch's span in order, and stops profiling.
   */
  void startProfile();
  std::vector<KernelSpan> takeProfile();

 private:
  Device device_;
  void* stream_ = nullptr;
  std::vector<void*> buffers_;
  long long launches_ = 0;
  size_t bytes_ = 0;
  bool profiling_ = false;
  std::vector<std::pair<const char*, void*>> marks_;  // (launch name, its end event); the first: (nullptr, start)
  std::vector<void*> eventPool_;
  void* recordEvent();
};

}  // namespace parity
