"""Installs the recorders into vLLM-Omni's model runners: after a runner loads its model, a talker stage (a model
with `talker_mtp`, the Qwen3-TTS talker and its code predictor) gets a TalkerRecorder and a generation stage
(Code2Wav) an AudioRecorder. Patching the load_model of vLLM-Omni's runner base (OmniGPUModelRunner, which calls
super() and then sets up talker_mtp) reaches every platform's runner built on it (CUDA's, and the CPU fixture's in
python/tests/vllm_omni/)."""

from __future__ import annotations

import functools
import logging
from typing import TYPE_CHECKING, Any

from .failsafe import report

if TYPE_CHECKING:
    from .config import RecorderConfig

logger = logging.getLogger("tts_parity.vllm")


def _stage_id(runner: Any) -> int | None:
    stage = getattr(runner.vllm_config.model_config, "stage_id", None)
    return None if stage is None else int(stage)


def _attach(runner: Any, config: RecorderConfig) -> None:
    stage = _stage_id(runner)
    if not config.wants_stage(stage):
        return
    if type(runner.model).__name__ == "HiggsAudioV3TalkerForConditionalGeneration":
        from .higgs_recorder import attach_higgs

        runner._tts_parity_recorder = attach_higgs(runner, config, stage)
    elif getattr(runner, "has_talker_mtp", False):
        from .talker_recorder import TalkerRecorder

        runner._tts_parity_recorder = TalkerRecorder(runner, config, stage)
    elif getattr(runner.vllm_config.model_config, "model_stage", None) == "code2wav":
        from .audio_recorder import AudioRecorder

        runner._tts_parity_recorder = AudioRecorder(runner, config, stage)
    else:
        return
    logger.info("tts_parity: recording stage %s into %s", stage, config.out_dir)


def _after_load(load_model: Any, config: RecorderConfig) -> Any:
    @functools.wraps(load_model)
    def wrapped(self: Any, *args: Any, **kwargs: Any) -> Any:
        result = load_model(self, *args, **kwargs)
        try:
            _attach(self, config)
        except Exception as error:  # the recorder never stops the engine (failsafe.py)
            stage = getattr(getattr(getattr(self, "vllm_config", None), "model_config", None), "stage_id", None)
            report(f"stage {stage}", "attaching the recorder", error, "this stage runs unrecorded")
        return result

    return wrapped


def install(config: RecorderConfig) -> None:
    from vllm_omni.worker.gpu_model_runner import OmniGPUModelRunner

    if not getattr(OmniGPUModelRunner.load_model, "_tts_parity", False):
        OmniGPUModelRunner.load_model = _after_load(OmniGPUModelRunner.load_model, config)
        OmniGPUModelRunner.load_model._tts_parity = True
