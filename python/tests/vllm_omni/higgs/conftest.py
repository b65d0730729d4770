"""Session fixtures for vLLM-Omni 0.30.0's Higgs-Audio-v3 on CPU (docs/vllm-omni.md, Higgs-Audio-v3): the tiny model
folder, written once, and the real talker built once outside the engine for the capture check (one per process:
it initialises vLLM's distributed state)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

PROMPT_TEXTS = (b"hello there", b"hi")


@pytest.fixture(scope="session")
def higgs_folder(tmp_path_factory):
    import higgs_model

    return higgs_model.build_model_folder(tmp_path_factory.mktemp("higgs") / "higgs-v3-tiny", seed=0)


def prompt_ids(folder: Path, text: bytes) -> list[int]:
    """The zero-shot prompt HiggsAudioV3TokenizerAdapter.build_prompt makes: <|tts|> <|text|> {text} <|audio|>
    (the byte-level tokenizer's ids are the bytes)."""
    import higgs_model

    ids = higgs_model.special_ids(folder)
    return [ids["<|tts|>"], ids["<|text|>"], *text, ids["<|audio|>"]]


@pytest.fixture(scope="session")
def higgs_capture(higgs_folder):
    """capture_check of decode steps 2-3 with the runner's query_start_loc (the boolean-mask branch), then of
    steps 4-5 without it (the branch the external decode graph takes when it has none: the fix)."""
    import higgs_capture as capture
    import higgs_talker_step

    session = higgs_talker_step.build_talker(
        higgs_folder, [prompt_ids(higgs_folder, text) for text in PROMPT_TEXTS], external_decode_graph=True
    )
    try:
        masked = capture.capture_decode(session, query_start_loc=True, first_step=2)
        fixed = capture.capture_decode(session, query_start_loc=False, first_step=4)
        yield {"masked": masked, "fixed": fixed, "talker": session.model, "codes": session.codes}
    finally:
        session.close()
