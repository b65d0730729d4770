"""Capture-check examples (docs/capture-check.md): for each rule an unsafe decode step and its capture-safe
rewrite (host_sync, data_dependent_shape, tensor_from_python, shape_varies, python_scalar_varies), seed 001's
two lines and its fix (seed_001_talker), and unsafe variants of the twin's graph step (twin_unsafe_variants).
Each rule module has `RULE`, `unsafe_step`, `safe_step`, `step_inputs(device)` and, where the rewrite takes
other arguments, `safe_step_inputs(device)`. Lines marked `# capture-check: RULE` are the expected findings
(markers.py). Torch helpers: these modules import torch.

qwen_tts_*: qwen-tts's real Qwen3-TTS, tiny, traced, drilled, capture-checked and exported
(docs/real-models-qwen3-tts.md); they import qwen-tts and transformers, which tts_parity never does."""
