"""The vLLM recorder never stops the engine (tts_parity/engines/vllm/failsafe.py), without vLLM: the plugin's switch,
the attach after a runner loads its model, and the Code2Wav stage's audio recorder each catch their own failure, say
it in one line on stderr, and hand the engine's results back untouched. The talker stage's guards run inside a real
vLLM-Omni worker in tests/vllm_omni/test_eager.py (a planted full disk)."""

from __future__ import annotations

import sys
from types import SimpleNamespace

import numpy as np
import torch

from tts_parity.engines.vllm import plugin
from tts_parity.engines.vllm.audio_recorder import AudioRecorder
from tts_parity.engines.vllm.config import RecorderConfig
from tts_parity.engines.vllm.runner_patch import _after_load

PREFIX = "tts_parity vLLM recorder: "


def _one_line(capsys) -> str:
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith(PREFIX)]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def test_a_bad_variable_leaves_vllm_running_unrecorded(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("TTS_PARITY_VLLM_TRACE_DIR", str(tmp_path))
    monkeypatch.setenv("TTS_PARITY_VLLM_STAGES", "talker")
    plugin.register()
    line = _one_line(capsys)
    assert "switching recording on failed" in line and "TTS_PARITY_VLLM_STAGES" in line and "'talker'" in line
    assert line.endswith("vLLM runs unrecorded")


def test_an_environment_without_vllm_omni_says_so_in_one_line(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("TTS_PARITY_VLLM_TRACE_DIR", str(tmp_path))
    monkeypatch.delenv("TTS_PARITY_VLLM_STAGES", raising=False)
    monkeypatch.setattr(plugin, "_installed", False)
    monkeypatch.setitem(sys.modules, "vllm_omni", None)  # as where it is not installed: its import fails
    plugin.register()
    line = _one_line(capsys)
    assert "ModuleNotFoundError" in line and "vllm_omni" in line


def _code2wav_runner(outputs):
    runner = SimpleNamespace(
        model=SimpleNamespace(_output_sample_rate=24000, forward=lambda *args, **kwargs: None),
        vllm_config=SimpleNamespace(model_config=SimpleNamespace(stage_id=1, model_stage="code2wav")),
        sample_tokens=lambda *args, **kwargs: outputs.pop(0),
        _update_states=lambda scheduler_output: "updated",
    )
    runner.load_model = lambda: "loaded"
    return runner


def test_a_trace_folder_that_cannot_be_made_leaves_the_stage_unrecorded(tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    runner = _code2wav_runner([])
    load = _after_load(lambda self: "loaded", RecorderConfig(out_dir=str(blocker / "traces")))
    assert load(runner) == "loaded"  # the model is loaded, the engine goes on
    line = _one_line(capsys)
    assert line.startswith(PREFIX + "stage 1: attaching the recorder failed (") and "a-file" in line
    assert line.endswith("this stage runs unrecorded")
    assert not hasattr(runner, "_tts_parity_recorder")


def test_an_audio_output_of_an_unexpected_kind_stops_that_request_only(tmp_path, capsys):
    good = torch.linspace(-0.5, 0.5, 480)
    first = SimpleNamespace(req_ids=["0_a", "1_b"], multimodal_outputs=[{"model_outputs": good}, {"model_outputs": 7}])
    second = SimpleNamespace(
        req_ids=["0_a", "1_b"], multimodal_outputs=[{"model_outputs": good}, {"model_outputs": good}]
    )
    runner = _code2wav_runner([first, second])
    AudioRecorder(runner, RecorderConfig(out_dir=str(tmp_path)), 1)
    assert runner.sample_tokens() is first and runner.sample_tokens() is second  # the engine's outputs, untouched
    line = _one_line(capsys)
    assert line.startswith(PREFIX + "request 1_b: writing the audio failed (AttributeError: ")
    assert (tmp_path / "0_a.wav").exists() and not (tmp_path / "1_b.wav").exists()  # 1_b stays stopped
    import soundfile

    audio, rate = soundfile.read(tmp_path / "0_a.wav", dtype="float32")
    assert rate == 24000 and np.array_equal(audio, np.concatenate([good.numpy(), good.numpy()]))
