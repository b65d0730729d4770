"""Runs StaticStep.decode either captured once as a torch.cuda.CUDAGraph and replayed (CUDA), or called
directly on the same static buffers (CPU: nothing to capture). Module recording follows the mode:
inside `recorder.static()` around the capture (or around each direct call), `recorder.flush(step)`
after each replay."""

from contextlib import nullcontext

import torch

from .errors import CaptureRefused
from .static_step import StaticStep

WARMUP_RUNS = 2  # decode calls on a side stream before capture (lazy inits, cuBLAS workspaces)


def original_error_line(error: BaseException) -> str:
    """The first line of the original error: capture_end() may raise its own error over the body's."""
    while error.__context__ is not None and error.__cause__ is None:
        error = error.__context__
    first = (str(error).strip().splitlines() or [type(error).__name__])[0]
    return f"{type(error).__name__}: {first}"


class GraphRunner:
    def __init__(self, step: StaticStep, recorder=None):
        self.step = step
        self.recorder = recorder
        self.captures = step.position.device.type == "cuda"
        self.graph = None

    def decode(self, step_number: int) -> None:
        if not self.captures:
            with torch.no_grad(), (self.recorder.static() if self.recorder else nullcontext()):
                self.step.decode()
        else:
            if self.graph is None:
                self.graph = self._capture()
            self.graph.replay()
        if self.recorder:
            self.recorder.flush(step_number)

    def _capture(self):
        """Warm-up on a side stream, then one capture. The warm-up writes the KV row and outputs of the
        step about to run with that step's own inputs, which the first replay writes again identically."""
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.no_grad(), torch.cuda.stream(side):
            for _ in range(WARMUP_RUNS):
                with self.recorder.static() if self.recorder else nullcontext():  # allocates its buffers
                    self.step.decode()
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        try:
            with torch.no_grad(), (self.recorder.static() if self.recorder else nullcontext()), torch.cuda.graph(graph):
                self.step.decode()
        except Exception as error:  # CUDA reports a refused capture as RuntimeError (1.x) or AcceleratorError (2.x)
            raise CaptureRefused(f"CUDA graph capture of the decode step failed: {original_error_line(error)}") from None
        return graph
