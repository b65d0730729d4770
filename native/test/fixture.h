// Reads the fixture written by export-native-fixture.ts: config, weights, prompt and ORT references.
#pragma once
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "read-config.h"
#include "session.h"

namespace check {

struct FixtureError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw FixtureError("cannot read " + path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

/** `key value...` lines. */
inline std::map<std::string, std::string> keyValues(const std::string& path) {
  std::map<std::string, std::string> kv;
  std::istringstream in(slurp(path));
  std::string line;
  while (std::getline(in, line)) {
    size_t sp = line.find(' ');
    if (sp != std::string::npos) kv[line.substr(0, sp)] = line.substr(sp + 1);
  }
  return kv;
}

struct Fixture {
  parity::Config config{};
  std::vector<float> weightData;
  parity::WeightMap weights;
  std::vector<int32_t> ids;
  int frames = 0, staleStep = 0;
  /** prompt.txt `sampling seed temperature topK topP repetitionPenalty`: the sampled reference's settings. */
  parity::SamplingSettings sampling;
  /** Per reference: codes [frames·Q], per-step floats (logits, hidden, cp logits), audio. */
  struct Ref {
    std::vector<int32_t> codes;
    std::vector<float> data;
  } clean, stale, sampled;
  size_t stepFloats() const {
    const parity::Config& c = config;
    return c.talkerVocab + c.talker.hidden + (size_t)(c.codebooks - 1) * c.codebookSize;
  }
};

inline Fixture::Ref readRef(const std::string& dir, const std::string& suffix, const Fixture& fx) {
  Fixture::Ref r;
  std::string bin = slurp(dir + "/reference" + suffix + ".bin");
  size_t expected = (fx.frames * fx.stepFloats() + (size_t)fx.frames * fx.config.hop) * sizeof(float);
  if (bin.size() != expected) throw FixtureError("reference" + suffix + ".bin: " + std::to_string(bin.size()) + " bytes, expected " + std::to_string(expected));
  r.data.resize(bin.size() / sizeof(float));
  std::memcpy(r.data.data(), bin.data(), bin.size());
  std::istringstream in(slurp(dir + "/reference" + suffix + "-codes.txt"));
  int step;
  while (in >> step) {
    for (int q = 0; q < fx.config.codebooks; q++) {
      int32_t c;
      in >> c;
      r.codes.push_back(c);
    }
  }
  if ((int)r.codes.size() != fx.frames * fx.config.codebooks) throw FixtureError("reference" + suffix + "-codes.txt: wrong number of codes");
  return r;
}

inline Fixture readFixture(const std::string& dir) {
  Fixture fx;
  auto kv = keyValues(dir + "/config.txt");
  auto num = [&](const std::string& k) {
    auto it = kv.find(k);
    if (it == kv.end()) throw FixtureError("config.txt: missing " + k);
    return std::stod(it->second);
  };
  fx.config = parity::readConfig([&](const std::string& prefix, const char* key) { return (int)num(prefix + key); },
                                 [&](const std::string& prefix, const char* key) { return (float)num(prefix + key); });

  std::string bin = slurp(dir + "/weights.bin");
  fx.weightData.resize(bin.size() / sizeof(float));
  std::memcpy(fx.weightData.data(), bin.data(), bin.size());
  std::istringstream idx(slurp(dir + "/weights.txt"));
  std::string line;
  while (std::getline(idx, line)) {
    std::istringstream ls(line);
    std::string name;
    size_t offset, count;
    ls >> name >> offset >> count;
    parity::HostTensor t;
    int64_t d;
    while (ls >> d) t.dims.push_back(d);
    if (offset + count > fx.weightData.size()) throw FixtureError("weights.txt: " + name + " runs past the end of weights.bin");
    t.data = fx.weightData.data() + offset;
    fx.weights[name] = t;
  }
  auto prompt = keyValues(dir + "/prompt.txt");
  fx.frames = std::stoi(prompt.at("frames"));
  fx.staleStep = std::stoi(prompt.at("stale_step"));
  std::istringstream ids(prompt.at("ids"));
  int32_t id;
  while (ids >> id) fx.ids.push_back(id);
  auto samplingLine = prompt.find("sampling");
  if (samplingLine == prompt.end()) throw FixtureError("prompt.txt: no `sampling` line (a fixture from before sampled decoding: export it again)");
  std::istringstream sp(samplingLine->second);
  double seed = -1;
  sp >> seed >> fx.sampling.temperature >> fx.sampling.topK >> fx.sampling.topP >> fx.sampling.repetitionPenalty;
  if (!sp || seed < 0) throw FixtureError("prompt.txt: sampling: expected seed temperature topK topP repetitionPenalty, found \"" + samplingLine->second + "\"");
  fx.sampling.sample = true;
  fx.sampling.seed = (uint64_t)seed;
  fx.clean = readRef(dir, "", fx);
  fx.stale = readRef(dir, "-stale", fx);
  fx.sampled = readRef(dir, "-sampled", fx);
  return fx;
}

}  // namespace check
