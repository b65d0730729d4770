"""Session fixtures for the tiny real transformers models (docs/real-models.md): each model is built once and
traced once per profile; the tests read those traces. transformers 4.57.3 and torch 2.x, CPU, offline."""

import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
PYTHON_DIR = HERE.parents[1]
REPO_ROOT = PYTHON_DIR.parent  # as in python/tests/conftest.py: parity_cli imports it from "conftest"
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
os.environ.setdefault("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="session")
def real_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("real-models")


@pytest.fixture(scope="session")
def omni():
    from hf_recipes import build_omni

    return build_omni(seed=0)


@pytest.fixture(scope="session")
def omni_traces(omni, real_dir):
    """eager (DynamicCache) and static (StaticCache) greedy traces of one utterance, with module sidecars."""
    from hf_tracing import trace_omni

    return {
        profile: trace_omni(
            omni,
            str(real_dir / f"omni-{profile}.jsonl"),
            profile=profile,
            cache_implementation=None if profile == "eager" else "static",
        )
        for profile in ("eager", "static")
    }


@pytest.fixture(scope="session")
def csm():
    from hf_recipes import build_csm

    return build_csm(seed=0)


@pytest.fixture(scope="session")
def csm_traces(csm, real_dir):
    from hf_tracing import trace_csm

    return {
        profile: trace_csm(
            csm,
            str(real_dir / f"csm-{profile}.jsonl"),
            profile=profile,
            cache_implementation=None if profile == "eager" else "static",
        )
        for profile in ("eager", "static")
    }


@pytest.fixture(scope="session")
def dia():
    from hf_recipes import build_dia

    return build_dia(seed=0)


@pytest.fixture(scope="session")
def dia_traces(dia, real_dir):
    from hf_tracing import trace_dia

    return {
        profile: trace_dia(
            dia,
            str(real_dir / f"dia-{profile}.jsonl"),
            profile=profile,
            cache_implementation=None if profile == "eager" else "static",
        )
        for profile in ("eager", "static")
    }
