"""Workers and model runners: vLLM-Omni's AR and generation runners on vLLM's CPU worker and CPU model runner.

The MRO puts vLLM-Omni's runner methods first and vLLM's CPUModelRunner (device tensors replaced by CPU ones, no
CUDA events or streams, no device sync) between them and GPUModelRunner."""

from __future__ import annotations

from vllm.v1.worker.cpu_model_runner import CPUModelRunner, _torch_cuda_wrapper
from vllm.v1.worker.cpu_worker import CPUWorker
from vllm_omni.worker.gpu_ar_model_runner import GPUARModelRunner
from vllm_omni.worker.gpu_generation_model_runner import GPUGenerationModelRunner
from vllm_omni.worker.mixins import OmniWorkerMixin


def _cpu_runner_setup(runner) -> None:
    runner.use_cuda_graph = False
    runner.cascade_attn_enabled = False
    runner._postprocess_tensors()


class CPUARModelRunner(GPUARModelRunner, CPUModelRunner):
    def __init__(self, vllm_config, device):
        compilation = vllm_config.compilation_config
        if compilation.max_cudagraph_capture_size is None:  # _init_talker_mtp sizes its buffers by it
            compilation.max_cudagraph_capture_size = vllm_config.scheduler_config.max_num_seqs
        with _torch_cuda_wrapper():
            super().__init__(vllm_config, device)
        _cpu_runner_setup(self)

    def capture_model(self) -> int:
        return 0


class CPUGenerationModelRunner(GPUGenerationModelRunner, CPUModelRunner):
    def __init__(self, vllm_config, device):
        with _torch_cuda_wrapper():
            super().__init__(vllm_config, device)
        _cpu_runner_setup(self)

    def capture_model(self) -> int:
        return 0


class _CPUOmniWorker(OmniWorkerMixin, CPUWorker):
    model_runner_cls: type

    def init_device(self):
        super().init_device()
        self.use_v2_model_runner = False  # "Model Runner V2 requires Triton"; the omni hooks are on V1
        self.model_runner = self.model_runner_cls(self.vllm_config, self.device)


class CPUARWorker(_CPUOmniWorker):
    model_runner_cls = CPUARModelRunner


class CPUGenerationWorker(_CPUOmniWorker):
    model_runner_cls = CPUGenerationModelRunner
