// Node-API binding of the native backend (node-addon-api, C++ exceptions): probe() and class Session.
// Every NativeError becomes a JavaScript Error with the same text.
#include <napi.h>

#include <string>

#include "read-config.h"
#include "session.h"

namespace {

using parity::NativeError;

int intField(const Napi::Object& o, const char* key) {
  Napi::Value v = o.Get(key);
  if (!v.IsNumber()) throw NativeError(std::string("config.") + key + ": expected a number");
  return v.As<Napi::Number>().Int32Value();
}

float floatField(const Napi::Object& o, const char* key) {
  Napi::Value v = o.Get(key);
  if (!v.IsNumber()) throw NativeError(std::string("config.") + key + ": expected a number");
  return v.As<Napi::Number>().FloatValue();
}

parity::Config config(const Napi::Object& o) {
  // "talker." -> the object at o.talker; "" -> o itself.
  auto at = [&](const std::string& prefix) -> Napi::Object {
    return prefix.empty() ? o : o.Get(prefix.substr(0, prefix.size() - 1)).As<Napi::Object>();
  };
  return parity::readConfig([&](const std::string& prefix, const char* key) { return intField(at(prefix), key); },
                            [&](const std::string& prefix, const char* key) { return floatField(at(prefix), key); });
}

/** { mode: 'greedy' | 'sample', temperature, topK, topP, repetitionPenalty, seed } as the C++ settings. */
parity::SamplingSettings samplingSettings(const Napi::Value& v, const char* what) {
  if (!v.IsObject()) throw NativeError(std::string(what) + ": expected an object");
  Napi::Object o = v.As<Napi::Object>();
  auto num = [&](const char* key) {
    Napi::Value f = o.Get(key);
    if (!f.IsNumber()) throw NativeError(std::string("sampling.") + key + ": expected a number");
    return f.As<Napi::Number>().DoubleValue();
  };
  std::string mode = o.Get("mode").ToString();
  if (mode != "greedy" && mode != "sample") throw NativeError("sampling.mode: expected \"greedy\" or \"sample\", found \"" + mode + "\"");
  double topK = num("topK"), seed = num("seed");
  if (!(topK >= 0 && topK <= 2147483647.0 && topK == (double)(int64_t)topK)) throw NativeError("sampling.topK: expected an integer >= 0, found " + std::to_string(topK));
  if (!(seed >= 0 && seed < 9007199254740992.0 && seed == (double)(int64_t)seed)) throw NativeError("sampling.seed: expected an integer in [0, 2^53), found " + std::to_string(seed));
  parity::SamplingSettings s;
  s.sample = mode == "sample";
  s.temperature = num("temperature");
  s.topK = (int)topK;
  s.topP = num("topP");
  s.repetitionPenalty = num("repetitionPenalty");
  s.seed = (uint64_t)seed;
  return s;
}

template <class T, class A>
T* typed(const Napi::Value& v, size_t length, const char* what) {
  if (!v.IsTypedArray()) throw NativeError(std::string(what) + ": expected a typed array");
  A a = v.As<A>();
  if (a.ElementLength() != length) {
    throw NativeError(std::string(what) + ": expected " + std::to_string(length) + " elements, found " + std::to_string(a.ElementLength()));
  }
  return a.Data();
}

// Runs fn; a NativeError (bad argument, CUDA failure) reaches JavaScript as an Error with its message.
template <class F>
auto rethrowAsJs(Napi::Env env, F&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const NativeError& e) {
    throw Napi::Error::New(env, e.what());
  }
}

class SessionWrap : public Napi::ObjectWrap<SessionWrap> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "Session", {InstanceMethod("prefill", &SessionWrap::Prefill), InstanceMethod("decode", &SessionWrap::Decode),
                                        InstanceMethod("vocode", &SessionWrap::Vocode),
                                        InstanceMethod("setSampling", &SessionWrap::SetSampling),
                                        InstanceMethod("setStaleStep", &SessionWrap::SetStaleStep),
                                        InstanceMethod("close", &SessionWrap::Close), InstanceMethod("closed", &SessionWrap::Closed),
                                        InstanceMethod("decodeKernelCount", &SessionWrap::KernelCount),
                                        InstanceMethod("graphCaptured", &SessionWrap::Captured)});
  }

  explicit SessionWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<SessionWrap>(info) {
    rethrowAsJs(info.Env(), [&]() {
      Napi::Object o = info[0].As<Napi::Object>();
      std::string device = o.Get("device").ToString();
      std::string mode = o.Get("mode").ToString();
      if (device != "cuda" && device != "emulate") throw NativeError("device: expected \"cuda\" or \"emulate\", found \"" + device + "\"");
      if (mode != "eager" && mode != "graph") throw NativeError("mode: expected \"eager\" or \"graph\", found \"" + mode + "\"");
      config_ = config(o.Get("config").As<Napi::Object>());
      parity::WeightMap weights;
      Napi::Object w = o.Get("weights").As<Napi::Object>();
      Napi::Array names = w.GetPropertyNames();
      for (uint32_t i = 0; i < names.Length(); i++) {
        std::string name = names.Get(i).ToString();
        Napi::Object t = w.Get(name).As<Napi::Object>();
        Napi::Array dims = t.Get("dims").As<Napi::Array>();
        parity::HostTensor h;
        size_t count = 1;
        for (uint32_t d = 0; d < dims.Length(); d++) {
          h.dims.push_back(dims.Get(d).As<Napi::Number>().Int64Value());
          count *= (size_t)h.dims.back();
        }
        h.data = typed<float, Napi::Float32Array>(t.Get("data"), count, ("weights[\"" + name + "\"].data").c_str());
        weights[name] = h;
      }
      int stale = o.Get("staleStep").IsNumber() ? o.Get("staleStep").As<Napi::Number>().Int32Value() : 0;
      session_.reset(new parity::Session(device == "cuda" ? parity::Device::Cuda : parity::Device::Emulate,
                                         mode == "graph" ? parity::Mode::Graph : parity::Mode::Eager, config_, weights, stale));
    });
  }

 private:
  parity::StepOutput output(const Napi::Value& v) {
    Napi::Object o = v.As<Napi::Object>();
    const parity::Config& c = config_;
    return {typed<int32_t, Napi::Int32Array>(o.Get("codes"), c.codebooks, "out.codes"),
            typed<float, Napi::Float32Array>(o.Get("talkerLogits"), c.talkerVocab, "out.talkerLogits"),
            typed<float, Napi::Float32Array>(o.Get("talkerHidden"), c.talker.hidden, "out.talkerHidden"),
            typed<float, Napi::Float32Array>(o.Get("cpLogits"), (size_t)(c.codebooks - 1) * c.codebookSize, "out.cpLogits")};
  }

  Napi::Value Prefill(const Napi::CallbackInfo& info) {
    return rethrowAsJs(info.Env(), [&]() -> Napi::Value {
      Napi::Int32Array ids = info[0].As<Napi::Int32Array>();
      return Napi::Number::New(info.Env(), session_->prefill(ids.Data(), (int)ids.ElementLength(), output(info[1])));
    });
  }

  Napi::Value Decode(const Napi::CallbackInfo& info) {
    return rethrowAsJs(info.Env(), [&]() -> Napi::Value {
      return Napi::Number::New(info.Env(), session_->decode(info[0].As<Napi::Number>().Int32Value(), output(info[1])));
    });
  }

  /** setSampling({ mode: 'greedy' | 'sample', temperature, topK, topP, repetitionPenalty, seed }) */
  Napi::Value SetSampling(const Napi::CallbackInfo& info) {
    return rethrowAsJs(info.Env(), [&]() -> Napi::Value {
      parity::SamplingSettings s = samplingSettings(info[0], "setSampling");
      session_->setSampling(s);
      return info.Env().Undefined();
    });
  }

  Napi::Value SetStaleStep(const Napi::CallbackInfo& info) {
    return rethrowAsJs(info.Env(), [&]() -> Napi::Value {
      if (!info[0].IsNumber()) throw NativeError("setStaleStep: expected a number");
      session_->setStaleStep(info[0].As<Napi::Number>().Int32Value());
      return info.Env().Undefined();
    });
  }

  /** close() -> bytes of device memory released now (0 when already closed); later calls throw. */
  Napi::Value Close(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), (double)session_->close()); }

  Napi::Value Closed(const Napi::CallbackInfo& info) { return Napi::Boolean::New(info.Env(), session_->closed()); }

  /** vocode(codes Int32Array [frames·Q], frames, context, phase0, noiseStart, audio Float32Array [frames·hop]) -> endPhase */
  Napi::Value Vocode(const Napi::CallbackInfo& info) {
    return rethrowAsJs(info.Env(), [&]() -> Napi::Value {
      int frames = info[1].As<Napi::Number>().Int32Value();
      if (frames < 1) throw NativeError("vocode: frames must be >= 1");
      const int32_t* codes = typed<int32_t, Napi::Int32Array>(info[0], (size_t)frames * config_.codebooks, "codes");
      float* audio = typed<float, Napi::Float32Array>(info[5], (size_t)frames * config_.hop, "audio");
      parity::VocodeResult r = session_->vocode(codes, frames, info[2].As<Napi::Number>().Int32Value(), info[3].As<Napi::Number>().DoubleValue(),
                                                info[4].As<Napi::Number>().Int64Value(), audio);
      return Napi::Number::New(info.Env(), r.endPhase);
    });
  }

  Napi::Value KernelCount(const Napi::CallbackInfo& info) {
    return rethrowAsJs(info.Env(), [&]() -> Napi::Value { return Napi::Number::New(info.Env(), session_->decodeKernelCount()); });
  }

  Napi::Value Captured(const Napi::CallbackInfo& info) {
    return rethrowAsJs(info.Env(), [&]() -> Napi::Value { return Napi::Boolean::New(info.Env(), session_->graphCaptured()); });
  }

  parity::Config config_{};
  std::unique_ptr<parity::Session> session_;
};

Napi::Value Probe(const Napi::CallbackInfo& info) {
  parity::CudaProbe p = parity::probeCuda();
  Napi::Object o = Napi::Object::New(info.Env());
  o.Set("ok", p.ok);
  o.Set("deviceCount", p.deviceCount);
  o.Set("runtimeVersion", p.runtimeVersion);
  o.Set("driverVersion", p.driverVersion);
  o.Set("deviceName", p.deviceName);
  o.Set("error", p.error);
  return o;
}

// The sampler's arithmetic, exposed so tests can compare it with Math.exp and uniform.ts directly.
Napi::Value JsExp(const Napi::CallbackInfo& info) {
  Napi::Float64Array x = info[0].As<Napi::Float64Array>();
  Napi::Float64Array y = Napi::Float64Array::New(info.Env(), x.ElementLength());
  for (size_t i = 0; i < x.ElementLength(); i++) y[i] = parity::samplerExp(x[i]);
  return y;
}

Napi::Value Uniform(const Napi::CallbackInfo& info) {
  double seed = info[0].As<Napi::Number>().DoubleValue();
  return Napi::Number::New(info.Env(), parity::samplerUniform((uint64_t)seed, info[1].As<Napi::Number>().Int32Value(), info[2].As<Napi::Number>().Int32Value()));
}

/** pick(logits Float32Array, skip, sampling & { seed }, step, codebook, history Int32Array, device?) -> id (sampler-probe.cu) */
Napi::Value Pick(const Napi::CallbackInfo& info) {
  return rethrowAsJs(info.Env(), [&]() -> Napi::Value {
    if (!info[0].IsTypedArray() || !info[5].IsTypedArray()) throw NativeError("pick: expected logits Float32Array and history Int32Array");
    Napi::Float32Array logits = info[0].As<Napi::Float32Array>();
    Napi::Int32Array history = info[5].As<Napi::Int32Array>();
    parity::SamplingSettings s = samplingSettings(info[2], "pick");
    std::string device = info[6].IsString() ? info[6].As<Napi::String>().Utf8Value() : "emulate";
    if (device != "emulate" && device != "cuda") throw NativeError("pick: device must be \"emulate\" or \"cuda\", found \"" + device + "\"");
    int id = parity::samplerPick(device == "cuda" ? parity::Device::Cuda : parity::Device::Emulate, logits.Data(), (int)logits.ElementLength(),
                                 info[1].As<Napi::Number>().Int32Value(), s, info[3].As<Napi::Number>().Int32Value(), info[4].As<Napi::Number>().Int32Value(),
                                 history.Data(), (int)history.ElementLength());
    return Napi::Number::New(info.Env(), id);
  });
}

/** argmax(logits Float32Array, skip, device?) -> id: the greedy pick kernel (sampler-probe.cu) */
Napi::Value Argmax(const Napi::CallbackInfo& info) {
  return rethrowAsJs(info.Env(), [&]() -> Napi::Value {
    if (!info[0].IsTypedArray() || info[0].As<Napi::TypedArray>().TypedArrayType() != napi_float32_array) throw NativeError("argmax: expected logits Float32Array");
    if (!info[1].IsNumber()) throw NativeError("argmax: expected skip (an id, or -1 for none)");
    Napi::Float32Array logits = info[0].As<Napi::Float32Array>();
    std::string device = info[2].IsString() ? info[2].As<Napi::String>().Utf8Value() : "emulate";
    if (device != "emulate" && device != "cuda") throw NativeError("argmax: device must be \"emulate\" or \"cuda\", found \"" + device + "\"");
    int id = parity::greedyPick(device == "cuda" ? parity::Device::Cuda : parity::Device::Emulate, logits.Data(), (int)logits.ElementLength(),
                                info[1].As<Napi::Number>().Int32Value());
    return Napi::Number::New(info.Env(), id);
  });
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("probe", Napi::Function::New(env, Probe));
  Napi::Object testing = Napi::Object::New(env);
  testing.Set("jsExp", Napi::Function::New(env, JsExp));
  testing.Set("uniform", Napi::Function::New(env, Uniform));
  testing.Set("pick", Napi::Function::New(env, Pick));
  testing.Set("argmax", Napi::Function::New(env, Argmax));
  exports.Set("testing", testing);
  exports.Set("Session", SessionWrap::Define(env));
  return exports;
}

}  // namespace

NODE_API_MODULE(parity_native, Init)
