"""StaticBuffers: named persistent device buffers a CUDA graph writes (torch helper; imports torch, 1.13 through 2.x).

Forward hooks and Python code do not run when a CUDA graph is replayed: only the captured kernels do. So a
recorder cannot read a tensor "after the step" of a replay unless the step itself copies it somewhere that
outlives the replay. `write(name, tensor)` does that copy with `Tensor.copy_` into a persistent buffer of the
same shape, dtype and device: called during capture, the copy kernel is part of the graph, so after every
replay the buffer holds that replay's values. `read()` then copies the buffers to host memory. Called eagerly,
the same code writes the eager values: one code path for both modes.

The buffer of a name is allocated on its first `write` (normally the warm-up run before capture, or during
capture, where it comes from the graph's private pool and lives as long as this object) and never
reallocated: a graph keeps writing into the memory it captured, so a later tensor of another shape, dtype or
device under the same name is refused (use another name, or `clear()` and capture again).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import torch

from .arrays import as_numpy, check_tensor_readable
from .errors import ParityTypeError, ParityValueError

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["StaticBuffers"]


class StaticBuffers:
    """Named persistent device buffers written by `write` (captured or eager) and read by `read`."""

    def __init__(self) -> None:
        self._buffers: dict[str, torch.Tensor] = {}

    def write(self, name: str, tensor: torch.Tensor, *, what: str | None = None) -> torch.Tensor:
        """Copies `tensor` into the buffer `name` (allocated on first use); returns the buffer.

        Args:
            name: the buffer's name.
            tensor: any shape and dtype, on any device; the same shape, dtype and device at every call.
            what: how messages name the tensor (default: `StaticBuffers.write("name")`).
        """
        label = what or f'StaticBuffers.write("{name}")'
        if not isinstance(tensor, torch.Tensor):
            raise ParityTypeError(f"{label}: expected a torch.Tensor, found {type(tensor).__name__}")
        check_tensor_readable(tensor, label)  # read() must be able to copy it to the host
        source = tensor.detach()
        buffer = self._buffers.get(name)
        if buffer is None:
            buffer = torch.empty(source.shape, dtype=source.dtype, device=source.device)
            self._buffers[name] = buffer
        elif (buffer.shape, buffer.dtype, buffer.device) != (source.shape, source.dtype, source.device):
            raise ParityValueError(
                f"{label}: the buffer is {_describe(buffer)}, found {_describe(source)} "
                "(a captured graph writes into the buffer it was captured with: use another name, or clear() and "
                "capture again)"
            )
        buffer.copy_(source)
        return buffer

    def read(self, names: Iterable[str] | None = None) -> dict[str, np.ndarray]:
        """Host copies of the buffers (all, or those in `names`) as numpy arrays, independent of later replays.

        A CUDA buffer's `.cpu()` waits for the work queued before it on the current stream, the replay
        included. bfloat16 (which numpy lacks) comes back as float32, exactly (every bfloat16 is a float32).
        """
        chosen = self._buffers if names is None else {n: self._buffers[n] for n in names}
        return {name: _to_numpy(buffer, name) for name, buffer in chosen.items()}

    def names(self) -> list[str]:
        """The written names, in first-write order."""
        return list(self._buffers)

    def __contains__(self, name: object) -> bool:
        return name in self._buffers

    def __getitem__(self, name: str) -> torch.Tensor:
        return self._buffers[name]

    def clear(self) -> None:
        """Drops every buffer (after the graph that writes them is gone)."""
        self._buffers.clear()


def _describe(tensor: torch.Tensor) -> str:
    return f"{list(tensor.shape)} {str(tensor.dtype).replace('torch.', '')} on {tensor.device}"


def _to_numpy(buffer: torch.Tensor, name: str) -> np.ndarray:
    return np.array(as_numpy(buffer, f'StaticBuffers.read("{name}")'), copy=True)
