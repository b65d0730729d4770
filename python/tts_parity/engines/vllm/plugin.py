"""The `vllm.general_plugins` entry point. vLLM calls register() in every process it starts (the engine core of
each stage and its worker included); with TTS_PARITY_VLLM_TRACE_DIR unset it returns at once, patching nothing."""

from __future__ import annotations

from .config import config_from_env
from .failsafe import report

_installed = False


def register() -> None:
    global _installed
    try:
        config = config_from_env()
        if config is None or _installed:
            return
        from .runner_patch import install

        install(config)
        _installed = True
    except Exception as error:  # vLLM calls this unguarded: a raise here would stop every process
        report("this process", "switching recording on", error, "vLLM runs unrecorded")
