"""TTS Parity Studio's Python side (docs/python.md).

Numpy-only at import: the torch helpers import torch themselves, so `tts_parity` loads where torch is absent.
"""

__version__ = "0.1.0"
