// Shared by every native source: the error type that reaches JavaScript / the check's output.
#pragma once
#include <stdexcept>
#include <string>

namespace parity {

/** Any failure of the native backend: the text names the call and the CUDA error string. */
class NativeError : public std::runtime_error {
 public:
  explicit NativeError(const std::string& what) : std::runtime_error(what) {}
};

/** Where kernels run: a CUDA device, or the same kernel bodies executed one index at a time on the CPU. */
enum class Device { Cuda, Emulate };

/** eager: kernel-by-kernel launches every step; graph: the decode step captured once and replayed. */
enum class Mode { Eager, Graph };

}  // namespace parity
