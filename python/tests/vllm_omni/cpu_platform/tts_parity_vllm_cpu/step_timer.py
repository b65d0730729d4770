"""Times each talker-stage runner step inside the worker, for python/benchmarks/vllm_recording_cost.py: from the
start of the AR runner's `execute_model` to the end of its `sample_tokens` (the step's preprocess, the code
predictor's frame, the talker's forward, logits and sampling, and whatever a recorder hooked into them), one JSON
line per step appended to the file TTS_PARITY_TEST_STEP_LOG names: {"decodeRows", "tokens", "ms", "recorderMs"}.
recorderMs is the time spent inside the recorder's own per-step code in that step (its hooks' bodies: the
statistics, the trace lines, closing a finished request's trace, the module taps; the outermost call counted once),
so a step's cost can be read without a second run. The line is written after the step's clock stops. Loaded by
this fixture's `vllm.general_plugins` entry point (plants.py)."""

from __future__ import annotations

import json
import os
import time
from typing import Any

ENV = "TTS_PARITY_TEST_STEP_LOG"


def install() -> None:
    path = os.environ.get(ENV)
    if not path:
        return
    from vllm_omni.worker.gpu_ar_model_runner import GPUARModelRunner

    execute_model = GPUARModelRunner.execute_model
    sample_tokens = GPUARModelRunner.sample_tokens
    open_step: dict[str, Any] = {}

    def log(ms: float) -> None:
        entry = {
            "decodeRows": open_step.pop("decodeRows"),
            "tokens": open_step.pop("tokens"),
            "ms": ms,
            "recorderMs": open_step.pop("recorderMs", 0.0),
        }
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry) + "\n")

    def timed_execute_model(self: Any, scheduler_output: Any, *args: Any, **kwargs: Any) -> Any:
        if not getattr(self, "has_talker_mtp", False):
            return execute_model(self, scheduler_output, *args, **kwargs)
        started = time.perf_counter()
        scheduled = dict(getattr(scheduler_output, "num_scheduled_tokens", {}) or {})
        open_step.update(
            started=started,
            decodeRows=sum(1 for n in scheduled.values() if n == 1),
            tokens=sum(scheduled.values()),
        )
        output = execute_model(self, scheduler_output, *args, **kwargs)
        if output is not None and "started" in open_step:  # no sampling this step: it ends here
            log((time.perf_counter() - open_step.pop("started")) * 1000.0)
        return output

    def timed_sample_tokens(self: Any, *args: Any, **kwargs: Any) -> Any:
        output = sample_tokens(self, *args, **kwargs)
        if getattr(self, "has_talker_mtp", False) and "started" in open_step:
            log((time.perf_counter() - open_step.pop("started")) * 1000.0)
        return output

    _time_recorder(open_step)
    GPUARModelRunner.execute_model = timed_execute_model
    GPUARModelRunner.sample_tokens = timed_sample_tokens


RECORDER_METHODS = {
    "tts_parity.engines.vllm.talker_recorder": ("TalkerRecorder", ("_talker_logits", "_sampled", "_on_frames")),
    "tts_parity.engines.vllm.module_tap": ("ModuleTap", ("_record", "begin_code_predictor", "take_code_predictor")),
}


def _time_recorder(open_step: dict[str, Any]) -> None:
    import importlib

    depth = [0]
    for module_name, (class_name, methods) in RECORDER_METHODS.items():
        cls = getattr(importlib.import_module(module_name), class_name)
        for method in methods:
            setattr(cls, method, _timed(getattr(cls, method), open_step, depth))


def _timed(method: Any, open_step: dict[str, Any], depth: list[int]) -> Any:
    def timed(self: Any, *args: Any, **kwargs: Any) -> Any:
        if depth[0] or "started" not in open_step:
            return method(self, *args, **kwargs)
        depth[0] += 1
        started = time.perf_counter()
        try:
            return method(self, *args, **kwargs)
        finally:
            depth[0] -= 1
            open_step["recorderMs"] = open_step.get("recorderMs", 0.0) + (time.perf_counter() - started) * 1000.0

    return timed
