"""The PyTorch twin of the demo architecture (docs/python-twin.md): the demo bundle's weights read from its
ONNX initializers into an nn.Module tree (`embed`, `feedback`, `talker`, `code_predictor`, `vocoder`), decoded
eagerly with a dynamic KV cache (profile eager) or through static KV buffers with the decode step
captured once as a CUDA graph and replayed (profile graph; on CPU the same static step runs directly).

    from tts_parity.demo import load_twin, synthesize, demo_bundle_dir
    twin = load_twin(demo_bundle_dir())
    result = synthesize(twin, "hello world", "graph")   # result.codes [frames, Q], result.audio

Command line: `python3 -m tts_parity.demo --profile eager|graph --text T --out DIR` (cli.py).
Imports torch and onnx (a torch helper of tts_parity).
"""

from __future__ import annotations

from .bundle import demo_bundle_dir, read_manifest
from .faults import Faults, parse_faults
from .model import DemoTwin, load_twin
from .synthesis import Synthesis, synthesize

__all__ = [
    "DemoTwin",
    "Faults",
    "Synthesis",
    "demo_bundle_dir",
    "load_twin",
    "parse_faults",
    "read_manifest",
    "synthesize",
]
