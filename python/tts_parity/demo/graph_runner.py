"""Runs StaticStep.decode either captured once as a torch.cuda.CUDAGraph and replayed (CUDA), or called
directly on the same static buffers (CPU: nothing to capture). Module recording: the caller wraps each step in
`recorder.step(n)`; the warm-up runs and the capture run inside `recorder.graph_capture()`, so the replays
refresh the recorder's buffers, which step(n) reads when it ends."""

from __future__ import annotations

from contextlib import nullcontext
from typing import TYPE_CHECKING

import torch

from .._errors_text import first_line
from ..errors import CaptureRefused

if TYPE_CHECKING:
    from ..module_recorder import ModuleRecorder
    from .static_step import StaticStep

__all__ = ["WARMUP_RUNS", "GraphRunner"]

WARMUP_RUNS = 2  # decode calls on a side stream before capture (lazy inits, cuBLAS workspaces)


class GraphRunner:
    def __init__(self, step: StaticStep, recorder: ModuleRecorder | None = None) -> None:
        self.step = step
        self.recorder = recorder
        self.captures = step.position.device.type == "cuda"
        self.graph: torch.cuda.CUDAGraph | None = None

    def decode(self) -> None:
        """One decode step: a replay of the graph (captured at the first call) on CUDA, a direct call elsewhere."""
        if not self.captures:
            with torch.no_grad():
                self.step.decode()
            return
        if self.graph is None:
            self.graph = self._capture()
        self.graph.replay()

    def _capture(self) -> torch.cuda.CUDAGraph:
        """Warm-up on a side stream, then one capture. The warm-up writes the KV row and outputs of the
        step about to run with that step's own inputs, which the first replay writes again identically."""
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.no_grad(), torch.cuda.stream(side):
            for _ in range(WARMUP_RUNS):
                with self.recorder.graph_capture() if self.recorder else nullcontext():  # allocates its buffers
                    self.step.decode()
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        try:
            with (
                torch.no_grad(),
                self.recorder.graph_capture() if self.recorder else nullcontext(),
                torch.cuda.graph(graph),
            ):
                self.step.decode()
        except Exception as error:  # CUDA reports a refused capture as RuntimeError (1.x) or AcceleratorError (2.x)
            raise CaptureRefused(
                f"CUDA graph capture of the decode step failed: {first_line(error, original=True)}"
            ) from None
        return graph
