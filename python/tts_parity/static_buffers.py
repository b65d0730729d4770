"""StaticBuffers: CUDA-graph-safe recording of tensors (torch helper; imports torch, 1.13 through 2.x).

Forward hooks and Python code do not run when a CUDA graph is replayed: only the captured kernels do. So a
recorder cannot read a tensor "after the step" of a replay unless the step itself copies it somewhere that
outlives the replay. `record(name, tensor)` does that copy with `Tensor.copy_` into a persistent buffer of
the same shape, dtype and device: called during capture, the copy kernel is part of the graph, so after
every replay the buffer holds that replay's values. `flush()` then copies the buffers to host memory.
Called eagerly, the same code records the eager values: one code path for both modes.

The buffer of a name is allocated on its first `record` (normally the warm-up run before capture, or
during capture, where it comes from the graph's private pool and lives as long as this object) and never
reallocated: a graph keeps writing into the memory it captured, so a later tensor of another shape, dtype
or device under the same name is refused (use another name, or `clear()` and capture again).
"""

import numpy as np
import torch


class StaticBuffers:
    """Named persistent device buffers written by `record` (captured or eager) and read by `flush`."""

    def __init__(self):
        self._buffers = {}

    def record(self, name, tensor):
        """Copies `tensor` into the buffer `name` (allocated on first use); returns the buffer."""
        if not isinstance(tensor, torch.Tensor):
            raise TypeError(f'StaticBuffers.record("{name}"): expected a torch.Tensor, found {type(tensor).__name__}')
        source = tensor.detach()
        buffer = self._buffers.get(name)
        if buffer is None:
            buffer = torch.empty(source.shape, dtype=source.dtype, device=source.device)
            self._buffers[name] = buffer
        elif (buffer.shape, buffer.dtype, buffer.device) != (source.shape, source.dtype, source.device):
            raise ValueError(
                f'StaticBuffers.record("{name}"): the buffer is {_describe(buffer)}, found {_describe(source)} '
                "(a captured graph writes into the buffer it was captured with: record another name, or clear() and capture again)"
            )
        buffer.copy_(source)
        return buffer

    def flush(self, names=None):
        """Host copies of the buffers (all, or those in `names`) as numpy arrays, independent of later replays.

        A CUDA buffer's `.cpu()` waits for the work queued before it on the current stream, the replay
        included. bfloat16 (which numpy lacks) comes back as float32, exactly (every bfloat16 is a float32).
        """
        chosen = self._buffers if names is None else {n: self._buffers[n] for n in names}
        return {name: _to_numpy(buffer) for name, buffer in chosen.items()}

    def names(self):
        """The recorded names, in first-record order."""
        return list(self._buffers)

    def __contains__(self, name):
        return name in self._buffers

    def __getitem__(self, name):
        return self._buffers[name]

    def clear(self):
        """Drops every buffer (after the graph that writes them is gone)."""
        self._buffers.clear()


def _describe(tensor):
    return f"{list(tensor.shape)} {str(tensor.dtype).replace('torch.', '')} on {tensor.device}"


def _to_numpy(buffer):
    host = buffer.detach().to("cpu", copy=True)
    if host.dtype == torch.bfloat16:
        host = host.float()
    return np.array(host.numpy(), copy=True)
