// Standalone check of the native backend (no Node): native eager and native graph vs the ORT CPU
// reference of the fixture, per step, greedy and sampled; the stale-feedback@N fault; eager vs graph
// decode-step timing, and (GPU only) the sampled pick against its emulation on seeded rows and a
// microbenchmark of one pick, greedy vs sampled.
//   usage: check FIXTURE_DIR [--emulate] [--passes N]
//   exit:  0 every check passed; 1 a check failed; 2 bad usage or fixture; 3 no usable CUDA GPU here.
// --emulate runs the same kernel bodies on the CPU (no graph capture, no timing): what CI can run.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "executor.h"
#include "fixture.h"
#include "pick-agree.h"
#include "pick-bench.h"
#include "pick-phases.h"
#include "session.h"

using parity::Device;
using parity::Mode;

// Tolerances. Logits/hidden: float32 kernels with the ONNX graph's op order; CPU emulation measures
// ~1.5e-6 vs ORT CPU, the GPU may add a few ulp from its expf/sinf/cosf. Audio: the oscillator
// phase reaches ~2000 rad, where one float32 ulp of phase is ~1e-4 rad; emulation measures ~3e-5.
static const double TOL_STEP = 1e-4;
static const double TOL_AUDIO = 1e-3;

struct StepDiff {
  double logits, hidden, cp;
  bool codesSame;
  bool diverged() const { return !codesSame || logits > TOL_STEP || hidden > TOL_STEP || cp > TOL_STEP; }
};

static double maxAbs(const float* a, const float* b, size_t n) {
  double m = 0;
  for (size_t i = 0; i < n; i++) {
    double d = std::fabs((double)a[i] - (double)b[i]);
    if (std::isnan(d)) return INFINITY;
    m = std::max(m, d);
  }
  return m;
}

/** One step's outputs on the host: the codes, and talker logits, hidden and code-predictor logits in one buffer. */
struct StepBuffers {
  std::vector<int32_t> codes;
  std::vector<float> step;
  parity::StepOutput out;
  explicit StepBuffers(const check::Fixture& fx)
      : codes(fx.config.codebooks),
        step(fx.stepFloats()),
        out{codes.data(), step.data(), step.data() + fx.config.talkerVocab, step.data() + fx.config.talkerVocab + fx.config.talker.hidden} {}
  StepBuffers(const StepBuffers&) = delete;  // `out` points into the vectors
  StepBuffers& operator=(const StepBuffers&) = delete;
};

/** The last decode step the timings and the profile run: maxFrames, or where the talker's positions end. */
static int lastTimedStep(const check::Fixture& fx) {
  return std::min(fx.config.maxFrames, fx.config.talker.maxPositions - (int)fx.ids.size() + 1);
}

/** Runs the fixture prompt; returns per-step diffs against `ref`. */
static std::vector<StepDiff> runSteps(parity::Session& s, const check::Fixture& fx, const check::Fixture::Ref& ref) {
  const parity::Config& c = fx.config;
  StepBuffers io(fx);
  auto& [codes, step, out] = io;
  std::vector<StepDiff> diffs;
  for (int st = 1; st <= fx.frames; st++) {
    if (st == 1) s.prefill(fx.ids.data(), (int)fx.ids.size(), out);
    else s.decode(st, out);
    const float* r = ref.data.data() + (size_t)(st - 1) * fx.stepFloats();
    StepDiff d;
    d.logits = maxAbs(step.data(), r, c.talkerVocab);
    d.hidden = maxAbs(out.talkerHidden, r + c.talkerVocab, c.talker.hidden);
    d.cp = maxAbs(out.cpLogits, r + c.talkerVocab + c.talker.hidden, (size_t)(c.codebooks - 1) * c.codebookSize);
    d.codesSame = std::equal(codes.begin(), codes.end(), ref.codes.begin() + (size_t)(st - 1) * c.codebooks);
    diffs.push_back(d);
  }
  return diffs;
}

/** Every step's raw outputs (codes, then talker logits, hidden, code-predictor logits) of the fixture prompt. */
static std::vector<std::vector<float>> rawSteps(parity::Session& s, const check::Fixture& fx) {
  StepBuffers io(fx);
  auto& [codes, step, out] = io;
  std::vector<std::vector<float>> all;
  for (int st = 1; st <= fx.frames; st++) {
    if (st == 1) s.prefill(fx.ids.data(), (int)fx.ids.size(), out);
    else s.decode(st, out);
    std::vector<float> row(codes.size() + step.size());
    std::memcpy(row.data(), codes.data(), codes.size() * sizeof(float));
    std::memcpy(row.data() + codes.size(), step.data(), step.size() * sizeof(float));
    all.push_back(row);
  }
  return all;
}

/** Bit-for-bit equality of two rawSteps runs (memcmp: NaNs and -0 included). */
static bool sameBits(const std::vector<std::vector<float>>& a, const std::vector<std::vector<float>>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); i++) {
    if (a[i].size() != b[i].size() || std::memcmp(a[i].data(), b[i].data(), a[i].size() * sizeof(float)) != 0) return false;
  }
  return true;
}

static int firstDivergent(const std::vector<StepDiff>& d) {
  for (size_t i = 0; i < d.size(); i++) if (d[i].diverged()) return (int)i + 1;
  return 0;
}

static void printSteps(const char* label, const std::vector<StepDiff>& d) {
  std::printf("%s: step  max|dlogits|  max|dhidden|  max|dcp_logits|  codes\n", label);
  for (size_t i = 0; i < d.size(); i++) {
    std::printf("%s: %4zu  %11.3e  %12.3e  %15.3e  %s\n", label, i + 1, d[i].logits, d[i].hidden, d[i].cp, d[i].codesSame ? "same" : "DIFFER");
  }
  int f = firstDivergent(d);
  if (f) std::printf("%s: first divergent step: %d\n", label, f);
  else std::printf("%s: first divergent step: none (all %zu steps within %.0e, codes identical)\n", label, d.size(), TOL_STEP);
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

/** Median device time (cudaEvent) and host time of decode steps 2..S over `passes` prompts. */
static std::pair<double, double> timeDecode(parity::Session& s, const check::Fixture& fx, int passes) {
  StepBuffers io(fx);
  const int last = lastTimedStep(fx);
  std::vector<double> device, host;
  for (int p = 0; p < passes; p++) {
    s.prefill(fx.ids.data(), (int)fx.ids.size(), io.out);
    for (int st = 2; st <= last; st++) {
      auto t0 = std::chrono::steady_clock::now();
      double ms = s.decode(st, io.out);
      double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (p == 0 && st == 2) continue;  // graph mode captures here
      device.push_back(ms);
      host.push_back(wall);
    }
  }
  return {median(device), median(host)};
}

/**
 * GPU, eager steps: each launch's device span (from the previous launch's end, so any wait for the host is
 * in it) summed by kernel name over decode steps 3..last, per step, largest first: where a step's time goes.
 */
static void printProfile(const char* label, parity::Session& s, const check::Fixture& fx) {
  StepBuffers io(fx);
  const int last = lastTimedStep(fx);
  std::map<std::string, std::pair<int, double>> byName;  // name -> (launches, ms) over all profiled steps
  int steps = 0;
  s.prefill(fx.ids.data(), (int)fx.ids.size(), io.out);
  for (int st = 2; st <= last; st++) {
    if (st > 2) s.startProfile();
    s.decode(st, io.out);
    if (st == 2) continue;
    for (const parity::KernelSpan& k : s.takeProfile()) {
      byName[k.name].first++;
      byName[k.name].second += k.ms;
    }
    steps++;
  }
  std::vector<std::pair<std::string, std::pair<int, double>>> rows(byName.begin(), byName.end());
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.second > b.second.second; });
  double total = 0;
  int launches = 0;
  for (const auto& r : rows) {
    total += r.second.second;
    launches += r.second.first;
  }
  std::string parts;
  for (const auto& r : rows) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s%s %d x %.2f us", parts.empty() ? "" : ", ", r.first.c_str(), r.second.first / steps,
                  1000.0 * r.second.second / r.second.first);
    parts += buf;
  }
  std::printf("profile: %s: %d launches, %.1f us per decode step (mean of %d steps; informational): %s\n", label, launches / steps, 1000.0 * total / steps,
              steps, parts.c_str());
}

/** The pick microbenchmark's settings: the fixture's, temperature alone, and each select alone. */
static std::vector<std::pair<parity::SamplingSettings, const char*>> pickSettings(const check::Fixture& fx) {
  parity::SamplingSettings plain, topK, topP;
  plain.sample = topK.sample = topP.sample = true;
  topK.topK = 40;
  topP.topP = 0.95;
  return {{fx.sampling, "fixture settings"}, {plain, "temperature 1 only"}, {topK, "top-k 40 only"}, {topP, "top-p 0.95 only"}};
}

/** CPU and GPU: barriers per sampled pick, at the demo's and a talker-sized V (what the GPU timing below pays per phase). */
static void printPickBarriers(const check::Fixture& fx) {
  for (int V : {fx.config.codebookSize, 3072}) {
    for (const auto& [s, label] : pickSettings(fx)) {
      std::printf("pick: barriers per sampled pick V=%d (%s): %d (the one-block program's phases, counted in emulation)\n", V, label,
                  check::pickBarriers(V, s));
    }
  }
}

/** GPU: device time per pick, greedy argmax vs the sampled pick, at the demo's and a talker-sized V. */
static void printPickBench(const check::Fixture& fx) {
  for (int V : {fx.config.codebookSize, 3072}) {
    for (const auto& [s, label] : pickSettings(fx)) {
      check::PickTiming t = check::benchPick(V, s, 64, 50);
      std::printf("timing: pick microbenchmark V=%d (%s): greedy argmax %.2f us, sampled %.2f us per pick (64 picks per graph, median of 50 replays; informational)\n",
                  V, label, t.argmaxUs, t.sampledUs);
    }
  }
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: check FIXTURE_DIR [--emulate] [--passes N]\n");
    return 2;
  }
  std::string dir = argv[1];
  bool emulate = false;
  int passes = 5;
  for (int i = 2; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--emulate") emulate = true;
    else if (a == "--passes" && i + 1 < argc) passes = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "check: unknown argument %s\n", a.c_str());
      return 2;
    }
  }
  check::Fixture fx;
  try {
    fx = check::readFixture(dir);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "check: fixture %s: %s\n", dir.c_str(), e.what());
    return 2;
  }
  Device device = emulate ? Device::Emulate : Device::Cuda;
  if (!emulate) {
    parity::CudaProbe p = parity::probeCuda();
    if (!p.ok) {
      std::printf("NO GPU: %s (CUDA runtime %d, driver %d). Nothing was checked or timed (the sampling microbenchmark neither); run with --emulate for the CPU emulation.\n", p.error.c_str(), p.runtimeVersion, p.driverVersion);
      return 3;
    }
    std::printf("device: %s (CUDA runtime %d, driver %d)\n", p.deviceName.c_str(), p.runtimeVersion, p.driverVersion);
  } else {
    std::printf("device: CPU emulation of the CUDA kernels (no graph capture, no GPU timing)\n");
  }
  std::printf("fixture: %s, %d frames, %zu prompt tokens, tolerance %.0e (steps), %.0e (audio)\n", dir.c_str(), fx.frames, fx.ids.size(), TOL_STEP, TOL_AUDIO);

  bool pass = true;
  auto expect = [&](bool ok, const std::string& what) {
    std::printf("%s %s\n", ok ? "PASS" : "FAIL", what.c_str());
    pass = pass && ok;
  };
  try {
    parity::Session eager(device, Mode::Eager, fx.config, fx.weights, 0);
    parity::Session graph(device, Mode::Graph, fx.config, fx.weights, 0);
    auto de = runSteps(eager, fx, fx.clean);
    printSteps("eager", de);
    auto dg = runSteps(graph, fx, fx.clean);
    printSteps("graph", dg);
    std::printf("graph: decode step captured as a CUDA graph: %s; kernels per decode step: eager %d launches, graph %d nodes\n",
                graph.graphCaptured() ? "yes" : "no (emulated)", eager.decodeKernelCount(), graph.decodeKernelCount());
    expect(firstDivergent(de) == 0, "native eager matches ORT CPU eager (greedy codes identical, every step within tolerance)");
    expect(firstDivergent(dg) == 0, "native graph matches ORT CPU eager (greedy codes identical, every step within tolerance)");

    parity::Session staleGraph(device, Mode::Graph, fx.config, fx.weights, fx.staleStep);
    auto ds = runSteps(staleGraph, fx, fx.stale);
    printSteps("graph stale-feedback", ds);
    parity::Session staleGraph2(device, Mode::Graph, fx.config, fx.weights, fx.staleStep);
    int diverges = firstDivergent(runSteps(staleGraph2, fx, fx.clean));
    expect(firstDivergent(ds) == 0, "native graph with stale-feedback@" + std::to_string(fx.staleStep) + " matches ORT CPU eager with the same fault");
    expect(diverges == fx.staleStep, "native graph with stale-feedback@" + std::to_string(fx.staleStep) + " diverges from the clean reference at exactly step " +
                                         std::to_string(fx.staleStep) + " (found " + std::to_string(diverges) + ")");

    // Sampled decoding (fixture's settings and seed): the same Philox draws and sampler arithmetic as the
    // ORT backend, so the codes must be identical; logits within the same tolerance as greedy.
    eager.setSampling(fx.sampling);
    graph.setSampling(fx.sampling);
    auto se = runSteps(eager, fx, fx.sampled);
    printSteps("eager sampled", se);
    auto sg = runSteps(graph, fx, fx.sampled);
    printSteps("graph sampled", sg);
    std::printf("sampled: seed %llu, temperature %g, top-k %d, top-p %g, repetition penalty %g; kernels per decode step: eager %d launches, graph %d nodes\n",
                (unsigned long long)fx.sampling.seed, fx.sampling.temperature, fx.sampling.topK, fx.sampling.topP, fx.sampling.repetitionPenalty,
                eager.decodeKernelCount(), graph.decodeKernelCount());
    expect(firstDivergent(se) == 0, "native eager sampled matches ORT CPU sampled (codes identical, every step within tolerance)");
    expect(firstDivergent(sg) == 0, "native graph sampled matches ORT CPU sampled (codes identical, every step within tolerance)");
    eager.setSampling(parity::SamplingSettings{});
    graph.setSampling(parity::SamplingSettings{});

    // The fused decode-step kernels (the graph profile's) against the one-launch-per-operation path (the eager
    // profile's default): the same element bodies in the same order, so every output must be bit-identical,
    // greedy and sampled.
    parity::Session fusedEager(device, Mode::Eager, fx.config, fx.weights, 0);
    fusedEager.setFused(true);
    {
      parity::Session unfused(device, Mode::Eager, fx.config, fx.weights, 0);
      unfused.setFused(false);
      bool same = true;
      int counts[2][2] = {};
      for (int sampledRun = 0; sampledRun < 2; sampledRun++) {
        parity::SamplingSettings settings = sampledRun ? fx.sampling : parity::SamplingSettings{};
        fusedEager.setSampling(settings);
        unfused.setSampling(settings);
        same = sameBits(rawSteps(fusedEager, fx), rawSteps(unfused, fx)) && same;
        counts[sampledRun][0] = fusedEager.decodeKernelCount();
        counts[sampledRun][1] = unfused.decodeKernelCount();
      }
      fusedEager.setSampling(parity::SamplingSettings{});
      std::printf("fused: kernels per decode step: greedy %d (unfused %d), sampled %d (unfused %d)\n", counts[0][0], counts[0][1], counts[1][0], counts[1][1]);
      expect(same, "fused decode-step kernels bit-identical to the unfused launches (greedy and sampled, every step's codes, logits, hidden)");
      expect(counts[1][0] <= 60, "sampled decode step <= 60 kernels (found " + std::to_string(counts[1][0]) + ")");
    }

    std::vector<float> audio((size_t)fx.frames * fx.config.hop);
    eager.vocode(fx.clean.codes.data(), fx.frames, 0, 0.0, 0, audio.data());
    const float* refAudio = fx.clean.data.data() + (size_t)fx.frames * fx.stepFloats();
    double da = maxAbs(audio.data(), refAudio, audio.size());
    std::printf("vocoder: max|daudio| %.3e over %zu samples\n", da, audio.size());
    expect(da <= TOL_AUDIO, "native vocoder matches ORT CPU within " + std::to_string(TOL_AUDIO));

    printPickBarriers(fx);
    if (emulate) {
      std::printf("timing: not measured under --emulate (CPU emulation has no launches to save)\n");
      std::printf("timing: sampling microbenchmark skipped under --emulate (GPU only)\n");
      std::printf("pick: GPU against emulation skipped under --emulate (GPU only)\n");
    } else {
      check::PickAgreement agree = check::pickAgreement(300);
      expect(agree.different == 0, "sampled pick on the GPU equals the emulated pick on " + std::to_string(agree.rows) + " seeded rows" +
                                       (agree.different ? " (" + std::to_string(agree.different) + " differ; first: " + agree.first + ")" : ""));
      auto te = timeDecode(eager, fx, passes);
      auto tg = timeDecode(graph, fx, passes);
      std::printf("timing: decode step median over %d passes: eager %.4f ms device (%.4f ms host), graph %.4f ms device (%.4f ms host)\n", passes, te.first,
                  te.second, tg.first, tg.second);
      double ratio = te.first / tg.first;
      std::printf("timing: graph speed-up %.2fx (device), %.2fx (host)\n", ratio, te.second / tg.second);
      expect(ratio >= 3.0, "graph decode step >= 3x faster than eager (device time)");
      auto tf = timeDecode(fusedEager, fx, passes);
      std::printf("timing: fused kernels launched one by one (no graph): %.4f ms device (%.4f ms host); graph speed-up over it %.2fx (informational)\n",
                  tf.first, tf.second, tf.first / tg.first);
      printProfile("eager (one launch per operation)", eager, fx);
      printProfile("fused kernels launched one by one", fusedEager, fx);
      eager.setSampling(fx.sampling);
      graph.setSampling(fx.sampling);
      auto se2 = timeDecode(eager, fx, passes);
      auto sg2 = timeDecode(graph, fx, passes);
      std::printf("timing: sampled decode step median: eager %.4f ms device, graph %.4f ms device (%.2fx; informational)\n", se2.first, sg2.first,
                  se2.first / sg2.first);
      const int q = fx.config.codebooks;
      std::printf("timing: sampling cost per decode step (graph, device): sampled %.4f - greedy %.4f = %.4f ms for %d picks (%.2f us per pick; informational)\n",
                  sg2.first, tg.first, sg2.first - tg.first, q, 1000.0 * (sg2.first - tg.first) / q);
      printPickBench(fx);
    }
  } catch (const std::exception& e) {
    std::printf("FAIL native error: %s\n", e.what());
    return 1;
  }
  std::printf("%s\n", pass ? "ALL PASSED" : "SOME CHECKS FAILED");
  return pass ? 0 : 1;
}
