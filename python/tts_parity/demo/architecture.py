"""The demo architecture's fixed numbers (electron/engine/demo/demo-config.ts DEMO, decoder-graph.ts,
vocoder-graph.ts) that bundle.json does not carry. The sizes come from bundle.json and the weight
shapes; the float tables (RoPE exponents, vocoder ramp, rolloff, omega) are read from the exports'
own `const.*` initializers. weights.py refuses an export that lacks the constants named here.
"""

from __future__ import annotations

__all__ = ["F0_MIN", "F0_RANGE", "HARMONIC_GAIN", "NOISE_GAIN", "REQUIRED_CONSTANTS", "RMS_EPS"]


RMS_EPS = 1e-6
F0_MIN = 100.0
F0_RANGE = 150.0  # f0Max - f0Min
HARMONIC_GAIN = 0.3
NOISE_GAIN = 0.02

# The ONNX scalar constants these numbers are stored as (Ops.floatScalar names them by value).
REQUIRED_CONSTANTS = {
    "talker": ["const.float32.0.000001"],
    "code_predictor": ["const.float32.0.000001"],
    "vocoder": [
        "const.float32.100",
        "const.float32.150",
        "const.float32.0.3",
        "const.float32.0.02",
        "const.rolloff",
        "const.omega",
    ],
}
