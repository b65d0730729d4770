// The one list of Config fields, read through the caller's lookup: the addon reads them from the
// JavaScript config object (native-weights.ts), the standalone check from config.txt (native/test).
#pragma once
#include <string>

#include "session.h"

namespace parity {

/**
 * `integer(prefix, key)` and `real(prefix, key)` return the number stored under prefix + key, where
 * prefix is "" at the top level and "talker." / "codePredictor." for the decoders, or throw when it is
 * missing. Fields are read in declaration order, so the first missing one is the one reported.
 */
template <class Int, class Real>
Config readConfig(Int&& integer, Real&& real) {
  Config c{};
  c.codebooks = integer("", "codebooks");
  c.codebookSize = integer("", "codebookSize");
  c.talkerVocab = integer("", "talkerVocab");
  c.eos = integer("", "eos");
  c.bos = integer("", "bos");
  c.codecRowOffset = integer("", "codecRowOffset");
  c.codecRowsPerCodebook = integer("", "codecRowsPerCodebook");
  c.maxTextTokens = integer("", "maxTextTokens");
  c.maxFrames = integer("", "maxFrames");
  auto dims = [&](const std::string& p) -> DecoderDims {
    return {integer(p, "layers"), integer(p, "heads"),  integer(p, "kvHeads"),      integer(p, "headDim"),
            integer(p, "hidden"), integer(p, "ffn"),    integer(p, "maxPositions"), real(p, "eps")};
  };
  c.talker = dims("talker.");
  c.codePredictor = dims("codePredictor.");
  c.vocChannels = integer("", "vocChannels");
  c.vocConvLayers = integer("", "vocConvLayers");
  c.vocKernel = integer("", "vocKernel");
  c.harmonics = integer("", "harmonics");
  c.hop = integer("", "hop");
  c.sampleRate = integer("", "sampleRate");
  c.f0Min = real("", "f0Min");
  c.f0Range = real("", "f0Range");
  return c;
}

}  // namespace parity
