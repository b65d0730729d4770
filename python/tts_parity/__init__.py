"""TTS Parity Studio's Python side (docs/python.md).

numpy-only at import: the torch helpers (`ModuleRecorder`, `StaticBuffers`, `export_bundle`, the twin and the
capture check) import torch themselves, so `tts_parity` loads where torch is absent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._startup import guard_module_startup

guard_module_startup()  # before the imports below: Ctrl-C while `python -m tts_parity...` starts

from . import errors  # noqa: E402
from .errors import ParityError  # noqa: E402
from .logit_stats import count_non_finite, hidden_stats, logit_stats  # noqa: E402
from .step_recorder import StepRecorder  # noqa: E402
from .trace_writer import TraceWriter  # noqa: E402

__version__ = "0.3.0"

# `import *` takes the numpy-only names; the torch helpers by name only (`from tts_parity import ModuleRecorder`).
__all__ = [
    "ParityError",
    "StepRecorder",
    "TraceWriter",
    "__version__",
    "count_non_finite",
    "errors",
    "hidden_stats",
    "logit_stats",
]

if TYPE_CHECKING:
    from .export import export_bundle as export_bundle
    from .module_recorder import ModuleRecorder as ModuleRecorder
else:

    def __getattr__(name: str) -> object:
        # Imported only when asked for: ModuleRecorder imports torch; export_bundle torch and onnx
        # (docs/python-export.md). Hidden from type checkers, which see the real names above.
        if name == "ModuleRecorder":
            from .module_recorder import ModuleRecorder

            return ModuleRecorder
        if name == "export_bundle":
            from .export import export_bundle

            return export_bundle
        raise AttributeError(f"module 'tts_parity' has no attribute {name!r}")
