"""TTS Parity Studio's Python side (docs/python.md).

Numpy-only at import: the torch helpers import torch themselves, so `tts_parity` loads where torch is absent.
"""

from .logit_stats import count_non_finite, hidden_stats, logit_stats
from .step_recorder import StepRecorder
from .trace_writer import TraceWriter

__version__ = "0.1.0"

__all__ = ["StepRecorder", "TraceWriter", "count_non_finite", "hidden_stats", "logit_stats", "__version__"]


def __getattr__(name):
    # tts_parity.export_bundle imports torch and onnx only when asked for (docs/python-export.md).
    if name == "export_bundle":
        from .export import export_bundle

        return export_bundle
    raise AttributeError(f"module 'tts_parity' has no attribute {name!r}")
