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


def _omni_session(folder: Path, out: Path, *, async_chunk: bool):
    """One `Omni` start of both stages on the tiny model (higgs_cpu.yaml, async_chunk as given), recording with the
    vLLM recorder into out/traces. The spawned stage processes get this checkout's tts_parity and the CUDA-query
    shim (cuda_query_shim/) through PYTHONPATH."""
    import os

    import yaml

    from omni_harness import OmniSession

    config = yaml.safe_load((HERE / "higgs_cpu.yaml").read_text())
    config["async_chunk"] = async_chunk
    out.mkdir(parents=True, exist_ok=True)
    deploy = out / "deploy.yaml"
    deploy.write_text(yaml.safe_dump(config, sort_keys=False))
    paths = [str(HERE / "cuda_query_shim"), str(HERE.parents[2]), os.environ.get("PYTHONPATH", "")]
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    return OmniSession(folder, deploy, out / "traces")


def seeded(session, seed: int = 42):
    """Per-stage sampling params: the talker sampled as the Higgs deploy YAMLs set it (T 1.0, top-p 0.95, top-k 50,
    seed 42), code2wav as its stage default."""
    import copy

    from vllm import SamplingParams

    talker = SamplingParams(temperature=1.0, top_p=0.95, top_k=50, seed=seed, max_tokens=20)
    return [talker, copy.deepcopy(session.omni.default_sampling_params_list[1])]


def generate(session, named_prompts, sampling=None):
    """Like OmniSession.generate, with per-stage sampling params."""
    names = [name for name, _ in named_prompts]
    session._names = iter(names)
    outputs = list(session.omni.generate([p for _, p in named_prompts], sampling, use_tqdm=False))
    return {output.request_id: output for output in outputs}


@pytest.fixture(scope="session")
def higgs_omni(higgs_folder, tmp_path_factory):
    """Two Omni starts: whole code2wav (greedy alone; seeded alone; seeded beside a second request) and streamed
    code2wav (greedy alone). {"whole"|"streamed": trace folder, "ids": request ids, "start_seconds"}."""
    out = tmp_path_factory.mktemp("higgs-omni")
    prompt = {"prompt_token_ids": prompt_ids(higgs_folder, PROMPT_TEXTS[0])}
    other = {"prompt_token_ids": prompt_ids(higgs_folder, PROMPT_TEXTS[1])}
    result = {"start_seconds": {}, "outputs": {}}
    session = _omni_session(higgs_folder, out / "whole", async_chunk=False)
    try:
        result["start_seconds"]["whole"] = session.start_seconds
        result["outputs"].update(generate(session, [("greedy", prompt)]))
        result["outputs"].update(generate(session, [("alone", prompt)], seeded(session)))
        result["outputs"].update(generate(session, [("beside", prompt), ("other", other)], seeded(session)))
        result["whole"] = session.trace_dir
    finally:
        session.close()
    session = _omni_session(higgs_folder, out / "streamed", async_chunk=True)
    try:
        result["start_seconds"]["streamed"] = session.start_seconds
        result["outputs"].update(generate(session, [("greedy", prompt)]))
        result["streamed"] = session.trace_dir
    finally:
        session.close()
    return result
