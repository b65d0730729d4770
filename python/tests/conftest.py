"""Shared pytest setup: the package is imported from this checkout (python/), not from an installed copy; the test
folders mirror the package (tests/capture_check/, tests/demo/, tests/export/; the top-level modules' tests here),
and helper modules (parity_cli, tiny_decoder, demo_twin_support, export_bundle_model) sit here, importable by name.
Costly state shared by many tests is built once per session by the fixtures below."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

PYTHON_DIR = Path(__file__).resolve().parents[1]
REPO_ROOT = PYTHON_DIR.parent
TESTS_DIR = Path(__file__).resolve().parent
for folder in (PYTHON_DIR, TESTS_DIR):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

if TYPE_CHECKING:
    from tts_parity.demo.model import DemoTwin

# tests/vllm_omni/ runs in its own environment (.venv-vllm: torch 2.13, vLLM-Omni) as its own suite
# (scripts/test-vllm.js sets PARITY_VLLM_SUITE=1); this environment's run leaves it out.
collect_ignore = [] if os.environ.get("PARITY_VLLM_SUITE") else ["vllm_omni"]


@pytest.fixture(scope="session")
def demo_bundle() -> Path:
    """The demo bundle the TypeScript builder writes (`parity bundle build-demo`), built once per session."""
    import demo_twin_support

    return demo_twin_support.demo_bundle()


@pytest.fixture(scope="session")
def twin(demo_bundle: Path) -> DemoTwin:
    """The PyTorch twin loaded from the session's demo bundle, once per session."""
    import demo_twin_support

    return demo_twin_support.twin()


@pytest.fixture(scope="session")
def parity_dist() -> Path:
    """The built TypeScript CLI (dist/), built once per session when missing."""
    import parity_cli

    parity_cli.ensure_dist()
    return parity_cli.DIST
