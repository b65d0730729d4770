"""PyTorch modules -> a `tts-parity-bundle/1` folder (docs/python-export.md). Imports torch and onnx."""

from __future__ import annotations

from ..errors import ExportError
from .bundle_export import ExportedBundle, export_bundle
from .protocol import attention_allowed, repeat_kv, write_kv
from .smoke import find_parity, smoke_check

__all__ = [
    "ExportError",
    "ExportedBundle",
    "attention_allowed",
    "export_bundle",
    "find_parity",
    "repeat_kv",
    "smoke_check",
    "write_kv",
]
