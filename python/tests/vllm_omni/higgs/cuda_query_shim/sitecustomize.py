"""On PyPI's torch 2.13 (a CUDA build) without a driver, torch.cuda.is_current_stream_capturing() raises
("CUDA driver version is insufficient for CUDA runtime version") instead of returning False; vLLM-Omni's Higgs
code2wav calls it on every decode (higgs_audio_v3_code2wav.py:583). With this folder on PYTHONPATH every process
of an Omni start (the stage processes and their workers inherit it) answers False there: nothing can capture a
CUDA graph where no CUDA device exists."""

import torch

if not torch.cuda.is_available():
    torch.cuda.is_current_stream_capturing = lambda: False
