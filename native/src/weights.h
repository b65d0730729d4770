// Looks up the weights the TypeScript host handed over, checking each shape.
#pragma once
#include <string>
#include <vector>

#include "session.h"

namespace parity {

inline std::string dimsText(const std::vector<int64_t>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); i++) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + "]";
}

/** The weight `name` with exactly `dims`, else a NativeError naming both shapes. */
inline const HostTensor& needWeight(const WeightMap& w, const std::string& name, const std::vector<int64_t>& dims) {
  auto it = w.find(name);
  if (it == w.end()) throw NativeError("weight \"" + name + "\": missing from the weights handed over");
  if (it->second.dims != dims) {
    throw NativeError("weight \"" + name + "\": expected " + dimsText(dims) + ", found " + dimsText(it->second.dims));
  }
  return it->second;
}

inline int64_t countOf(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

}  // namespace parity
