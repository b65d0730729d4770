// The pick microbenchmark's logits, shared by its GPU timing and its barrier count.
#pragma once
#include <cmath>
#include <vector>

namespace check {

/** V spread logits without ties. */
inline std::vector<float> pickBenchRow(int V) {
  std::vector<float> row(V);
  for (int i = 0; i < V; i++) row[i] = (float)(4.0 * std::sin(0.7 * i) + 0.001 * i);
  return row;
}

}  // namespace check
