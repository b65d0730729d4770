"""Times each talker-stage runner step inside the worker, for python/benchmarks/vllm_recording_cost.py: from the
start of the AR runner's `execute_model` to the end of its `sample_tokens` (the step's preprocess, the code
predictor's frame, the talker's forward, logits and sampling, and whatever a recorder hooked into them), one JSON
line per step appended to the file TTS_PARITY_TEST_STEP_LOG names: {"decodeRows", "tokens", "ms"}. The line is
written after the step's clock stops. Loaded by this fixture's `vllm.general_plugins` entry point (plants.py)."""

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
        entry = {"decodeRows": open_step.pop("decodeRows"), "tokens": open_step.pop("tokens"), "ms": ms}
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

    GPUARModelRunner.execute_model = timed_execute_model
    GPUARModelRunner.sample_tokens = timed_sample_tokens
