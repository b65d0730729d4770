"""numpy views of what engines hand us: numpy arrays, torch tensors (by duck typing: torch is never imported
here), lists. bfloat16, which numpy lacks, becomes float32 exactly."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Union

import numpy as np

from .errors import ParityValueError

if TYPE_CHECKING:
    import torch
    from typing_extensions import TypeAlias

    ArrayLike: TypeAlias = Union[np.ndarray, torch.Tensor, "list[Any]", float, int]
    """What the writers take: a numpy array, a torch tensor on any device (any dtype, bfloat16 included), a list."""

__all__ = ["as_numpy", "as_row"]


def as_numpy(values: Any) -> np.ndarray:
    """A host numpy array of `values` (a torch tensor is detached and copied to the CPU)."""
    if hasattr(values, "detach"):
        values = values.detach()
        if str(values.dtype) == "torch.bfloat16":
            values = values.float()
        return np.asarray(values.cpu().numpy())
    return np.asarray(values)


def as_row(values: Any, what: str) -> np.ndarray:
    """One row of numbers: 1-D, or with leading size-1 dimensions only ([1, 1, V] from a batch of one);
    anything else is refused naming `what` and the shape, as the caller must pick the row."""
    array = as_numpy(values)
    if array.ndim == 0 or any(d != 1 for d in array.shape[:-1]):
        raise ParityValueError(f"{what}: expected one row (1-D, or [1, ..., 1, V]), found shape {list(array.shape)}")
    if not (np.issubdtype(array.dtype, np.floating) or np.issubdtype(array.dtype, np.integer)):
        raise ParityValueError(f"{what}: expected numbers, found dtype {array.dtype}")
    return array.reshape(-1)
