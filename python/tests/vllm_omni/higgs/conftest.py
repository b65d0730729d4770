"""Session fixtures for vLLM-Omni 0.30.0's Higgs-Audio-v3 on CPU (docs/vllm-omni.md, Higgs-Audio-v3): the tiny model
folder, written once, and the real talker built once outside the engine for the capture check (one per process:
it initialises vLLM's distributed state)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[3]  # as in python/tests/conftest.py: parity_cli imports it from "conftest"
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
def higgs_talker(higgs_folder):
    """The real talker, built once per process as the low-latency profile builds it (external decode graph on)."""
    import higgs_talker_step

    session = higgs_talker_step.build_talker(
        higgs_folder, [prompt_ids(higgs_folder, text) for text in PROMPT_TEXTS], external_decode_graph=True
    )
    try:
        yield session
    finally:
        session.close()


@pytest.fixture(scope="session")
def higgs_capture(higgs_folder, higgs_talker):
    """capture_check of decode steps 2-3 with the runner's query_start_loc (the boolean-mask branch), then of
    steps 4-5 without it (the branch the external decode graph takes when it has none: the fix)."""
    import higgs_capture as capture
    import higgs_talker_step

    session = higgs_talker
    higgs_talker_step.new_requests(session, [prompt_ids(higgs_folder, text) for text in PROMPT_TEXTS], ["0", "1"])
    masked = capture.capture_decode(session, query_start_loc=True, first_step=2)
    fixed = capture.capture_decode(session, query_start_loc=False, first_step=4)
    return {"masked": masked, "fixed": fixed, "talker": session.model, "codes": [list(c) for c in session.codes]}


TRACE_STEPS = 12  # frames 1-5 complete in all eight codebooks (codebook 7 starts at step 8)
MODULES = r"^(multimodal_embedding|model\.layers\.\d+)$"


@pytest.fixture(scope="session")
def higgs_traces(higgs_folder, higgs_talker, tmp_path_factory):
    """One request traced alone by the Higgs recorder (tts_parity.engines.vllm.higgs_recorder), clean and with the
    stale-feedback plant (higgs_plants.py), each with a module sidecar: {"clean"|"stale": trace path}."""
    import higgs_plants
    import higgs_talker_step

    from tts_parity.engines.vllm.higgs_recorder import HiggsTalkerRecorder
    from tts_parity.module_recorder import ModuleRecorder

    session = higgs_talker
    out = tmp_path_factory.mktemp("higgs-traces")
    recorder = HiggsTalkerRecorder(
        session.model, str(out), lambda: session.req_ids, engine="vllm-omni 0.30.0 higgs talker, eager, cpu"
    )
    higgs_plants.plant_stale_feedback(session.model, lambda: session.req_ids, {"stale"})
    prompt = prompt_ids(higgs_folder, PROMPT_TEXTS[0])
    paths = {}
    for name in ("clean", "stale"):
        higgs_talker_step.new_requests(session, [prompt], [name])
        with ModuleRecorder(session.model, out / f"{name}.modules.safetensors", MODULES) as modules:
            higgs_talker_step.run_steps(session, TRACE_STEPS, modules=modules)
        recorder.finish(name)
        paths[name] = recorder.path(name)
    return paths
