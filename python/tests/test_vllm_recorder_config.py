"""tts_parity.engines.vllm's switch (config.py, plugin.py) without vLLM: off unless the folder is named, what the
variables select, file names from request ids, and TraceWriter's extra header fields the recorder writes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tts_parity import TraceWriter
from tts_parity.engines.vllm.config import config_from_env, trace_name
from tts_parity.errors import ParityValueError


def test_off_when_the_folder_is_unset_or_blank():
    assert config_from_env({}) is None
    assert config_from_env({"TTS_PARITY_VLLM_TRACE_DIR": "  "}) is None


def test_register_when_off_imports_neither_vllm_nor_torch():
    code = (
        "import sys; from tts_parity.engines.vllm.plugin import register; register(); "
        "print(sorted(m for m in ('vllm', 'vllm_omni', 'torch') if m in sys.modules))"
    )
    env = {"PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert done.stdout.strip() == "[]"


def test_requests_stages_and_modules_select(tmp_path):
    config = config_from_env(
        {
            "TTS_PARITY_VLLM_TRACE_DIR": str(tmp_path),
            "TTS_PARITY_VLLM_REQUESTS": "0_a*, *_b",
            "TTS_PARITY_VLLM_STAGES": "0",
            "TTS_PARITY_VLLM_MODULES": "model.layers.*",
        }
    )
    assert config is not None and config.out_dir == str(tmp_path)
    assert config.wants_request("0_alpha") and config.wants_request("3_b") and not config.wants_request("1_a")
    assert config.wants_stage(0) and not config.wants_stage(1)
    assert config.wants_module("model.layers.1.mlp") and not config.wants_module("code_predictor.model.layers.0")
    everything = config_from_env({"TTS_PARITY_VLLM_TRACE_DIR": str(tmp_path)})
    assert everything.wants_request("x") and everything.wants_stage(1) and not everything.wants_module("model")


def test_a_bad_stage_list_names_the_variable(tmp_path):
    with pytest.raises(ParityValueError, match=r"TTS_PARITY_VLLM_STAGES: .*'talker'"):
        config_from_env({"TTS_PARITY_VLLM_TRACE_DIR": str(tmp_path), "TTS_PARITY_VLLM_STAGES": "0,talker"})


def test_trace_names_keep_safe_characters_only():
    assert trace_name("0_alone-short") == "0_alone-short"
    assert trace_name("chatcmpl/1 2:3") == "chatcmpl_1_2_3"
    assert trace_name("../up") == "_up"


def test_extra_header_fields_are_kept_and_format_fields_refused(tmp_path):
    with TraceWriter(
        tmp_path / "a.jsonl",
        engine="e",
        q=2,
        frame_rate=12.5,
        sample_rate=24000,
        extra_header={"requestId": "0_x", "vllm": {"enforceEager": True}},
    ) as tw:
        tw.write_step(codes=[1, 2])
    header = json.loads((tmp_path / "a.jsonl").read_text().splitlines()[0])
    assert header["requestId"] == "0_x" and header["vllm"] == {"enforceEager": True}
    with pytest.raises(ParityValueError, match="extra_header: 'q' is a field of the format"):
        TraceWriter(tmp_path / "b.jsonl", engine="e", q=2, frame_rate=12.5, sample_rate=24000, extra_header={"q": 3})
    assert not (tmp_path / "b.jsonl").exists()
