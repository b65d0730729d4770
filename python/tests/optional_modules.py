"""Modules CI always has but scripts/gpu-check's GPU image lacks (scipy; qwen-tts with its librosa, too big to
carry: docs/gpu.md). Under gpu-check (PARITY_GPU_CHECK=1) a test that needs one skips, naming it; anywhere else
the import error stands, so CI cannot lose these tests to a skip."""

import importlib
import os

import pytest


def need(module, what):
    """`module` imported, or (under gpu-check only) the test skipped with one line naming `what` and the error."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        if os.environ.get("PARITY_GPU_CHECK") != "1":
            raise
        pytest.skip(
            f"needs {what}: not importable here ({type(error).__name__}: {error}); runs in CI", allow_module_level=True
        )


def scipy_wavfile():
    return need("scipy.io.wavfile", "scipy (the independent WAV reader)")


def qwen_tts_models():
    return need("qwen_tts.core.models", "qwen-tts 0.1.1 and its librosa")


def mlx_core():
    return need("mlx.core", "mlx 0.32.4 (MLX arrays and the MLX port of the demo; the GPU image has no MLX)")
