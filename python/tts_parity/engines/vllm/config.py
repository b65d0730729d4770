"""What to record, from the environment (spawned stage and worker processes inherit it). No vLLM import here.

TTS_PARITY_VLLM_TRACE_DIR   the output folder; unset or empty: the recorder is off and nothing is patched
TTS_PARITY_VLLM_REQUESTS    optional: comma-separated fnmatch patterns of request ids to record (default all)
TTS_PARITY_VLLM_STAGES      optional: comma-separated stage ids to record in (default all)
TTS_PARITY_VLLM_MODULES     optional: comma-separated fnmatch patterns of the talker's module names (as
                            `model.named_modules()` names them) whose outputs go to a sidecar per request
"""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...errors import ParityValueError

if TYPE_CHECKING:
    from collections.abc import Mapping

ENV_DIR = "TTS_PARITY_VLLM_TRACE_DIR"
ENV_REQUESTS = "TTS_PARITY_VLLM_REQUESTS"
ENV_STAGES = "TTS_PARITY_VLLM_STAGES"
ENV_MODULES = "TTS_PARITY_VLLM_MODULES"


@dataclass(frozen=True)
class RecorderConfig:
    out_dir: str
    requests: tuple[str, ...] = ()
    stages: tuple[int, ...] = ()
    modules: tuple[str, ...] = ()

    def wants_request(self, request_id: str) -> bool:
        return not self.requests or any(fnmatch.fnmatchcase(request_id, p) for p in self.requests)

    def wants_stage(self, stage_id: int | None) -> bool:
        return not self.stages or stage_id in self.stages

    def wants_module(self, name: str) -> bool:
        return any(fnmatch.fnmatchcase(name, p) for p in self.modules)


def _items(value: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in value.split(",") if part.strip())


def config_from_env(env: Mapping[str, str] | None = None) -> RecorderConfig | None:
    """The configuration, or None when recording is off. A malformed value raises ParityValueError naming it."""
    env = os.environ if env is None else env
    out_dir = env.get(ENV_DIR, "").strip()
    if not out_dir:
        return None
    stages: list[int] = []
    for item in _items(env.get(ENV_STAGES, "")):
        if not item.isdigit():
            raise ParityValueError(f"{ENV_STAGES}: expected comma-separated stage ids (0, 1, ...), found {item!r}")
        stages.append(int(item))
    return RecorderConfig(
        out_dir=os.path.abspath(out_dir),
        requests=_items(env.get(ENV_REQUESTS, "")),
        stages=tuple(stages),
        modules=_items(env.get(ENV_MODULES, "")),
    )


def trace_name(request_id: str) -> str:
    """The trace's file stem for a request id: characters outside [A-Za-z0-9._-] become '_'."""
    safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in request_id)
    return safe.lstrip(".") or "_"
