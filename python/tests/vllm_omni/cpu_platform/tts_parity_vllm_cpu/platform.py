"""The platform: vLLM's CpuPlatform with vLLM-Omni's interface; devices, streams and events are the CPU's."""

from __future__ import annotations

from contextlib import nullcontext

import psutil
import torch
from vllm.platforms.cpu import CpuPlatform
from vllm_omni.platforms.interface import OmniPlatform, OmniPlatformEnum

from . import private_device_locks


class CPUOmniPlatform(OmniPlatform, CpuPlatform):
    _omni_enum = OmniPlatformEnum.OOT

    @classmethod
    def get_omni_ar_worker_cls(cls) -> str:
        private_device_locks()
        return "tts_parity_vllm_cpu.workers.CPUARWorker"

    @classmethod
    def get_omni_generation_worker_cls(cls) -> str:
        private_device_locks()
        return "tts_parity_vllm_cpu.workers.CPUGenerationWorker"

    @classmethod
    def get_default_stage_config_path(cls) -> str:
        return "vllm_omni/deploy"

    @classmethod
    def get_torch_device(cls, local_rank: int | None = None) -> torch.device:
        return torch.device("cpu")

    @classmethod
    def get_device_count(cls) -> int:
        return 1

    @classmethod
    def synchronize(cls) -> None:
        return None

    @classmethod
    def empty_cache(cls) -> None:
        return None

    @classmethod
    def record_device_event(cls) -> None:
        return None

    @classmethod
    def get_free_memory(cls, device: torch.device | None = None) -> int:
        return int(psutil.virtual_memory().available)

    @classmethod
    def get_device_memory(cls, device: torch.device | None = None) -> tuple[int, int]:
        memory = psutil.virtual_memory()
        return int(memory.available), int(memory.total)

    @classmethod
    def get_device_total_memory(cls, device_id: int = 0) -> int:
        return int(psutil.virtual_memory().total)

    @classmethod
    def get_device_version(cls) -> str | None:
        return None

    @classmethod
    def supports_torch_inductor(cls) -> bool:
        # Read by vLLM-Omni alone (vLLM asks its own CpuPlatform): False keeps its code predictor eager instead of
        # compiling one graph per batch bucket at the first decode step, minutes on 2 cores. The talker's
        # compiled setting (enforce_eager: false) is vLLM's own compilation and still runs inductor.
        return False

    @classmethod
    def supports_talker_mtp_graph_capture(cls) -> bool:
        return False

    @classmethod
    def create_autocast_context(cls, *args, **kwargs):
        return nullcontext()
