"""Workers and model runners: vLLM-Omni's AR and generation runners on vLLM's CPU worker and CPU model runner.

The MRO puts vLLM-Omni's runner methods first and vLLM's CPUModelRunner (device tensors replaced by CPU ones, no
CUDA events or streams, no device sync) between them and GPUModelRunner."""

from __future__ import annotations

from vllm.v1.worker.cpu_model_runner import CPUModelRunner, _torch_cuda_wrapper
from vllm.v1.worker.cpu_worker import CPUWorker
from vllm_omni.worker.gpu_ar_model_runner import GPUARModelRunner
from vllm_omni.worker.gpu_generation_model_runner import GPUGenerationModelRunner
from vllm_omni.worker.mixins import OmniWorkerMixin


class _CPURunner:
    """Put first in the MRO: builds the runner under vLLM's CPU stand-in for torch.cuda, then drops what CPU has
    not (CUDA graphs, cascade attention); captures no graph."""

    def __init__(self, vllm_config, device):
        self._before_init(vllm_config)
        with _torch_cuda_wrapper():
            super().__init__(vllm_config, device)
        self.use_cuda_graph = False
        self.cascade_attn_enabled = False
        self._postprocess_tensors()

    def _before_init(self, vllm_config) -> None:
        return None

    def capture_model(self) -> int:
        return 0


class CPUARModelRunner(_CPURunner, GPUARModelRunner, CPUModelRunner):
    def _before_init(self, vllm_config) -> None:
        compilation = vllm_config.compilation_config
        if compilation.max_cudagraph_capture_size is None:  # _init_talker_mtp sizes its buffers by it
            compilation.max_cudagraph_capture_size = vllm_config.scheduler_config.max_num_seqs


class CPUGenerationModelRunner(_CPURunner, GPUGenerationModelRunner, CPUModelRunner):
    pass


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
