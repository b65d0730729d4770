"""The six rules (their exact names), their one-line hints, and which aten ops break each per-op rule.

Per-op rules are decided from one op call alone: host-sync, data-dependent-shape, tensor-from-python.
The three *-varies-across-steps rules compare the same op over the given steps (step_compare.py).

Data-dependent shapes come from torch's own op tags where torch has them (`Tag.dynamic_output_shape`:
nonzero, masked_select, unique*, repeat_interleave.Tensor, bincount, index.Tensor, ...), with a fixed list
as fallback for builds without tags. Indexing ops are tagged as a family, but only a boolean (or uint8) index
makes their output shape depend on values; an integer index tensor gives a static shape, so the index ops
are decided by their index dtypes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Literal

import torch

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from torch._ops import OpOverload

__all__ = [
    "DATA_DEPENDENT_SHAPE",
    "HINTS",
    "HOST_SYNC",
    "PYTHON_SCALAR_VARIES",
    "RULES",
    "SHAPE_VARIES",
    "STATE_TENSOR_VARIES",
    "TENSOR_FROM_PYTHON",
    "HintKind",
    "Rule",
    "is_device_to_host_copy",
    "is_lift",
    "packet_name",
    "per_op_rule",
]


Rule = Literal[
    "host-sync",
    "data-dependent-shape",
    "tensor-from-python",
    "shape-varies-across-steps",
    "python-scalar-varies-across-steps",
    "state-tensor-varies-across-steps",
]
HOST_SYNC: Final = "host-sync"
DATA_DEPENDENT_SHAPE: Final = "data-dependent-shape"
TENSOR_FROM_PYTHON: Final = "tensor-from-python"
SHAPE_VARIES: Final = "shape-varies-across-steps"
PYTHON_SCALAR_VARIES: Final = "python-scalar-varies-across-steps"
STATE_TENSOR_VARIES: Final = "state-tensor-varies-across-steps"
RULES: tuple[Rule, ...] = (
    HOST_SYNC,
    DATA_DEPENDENT_SHAPE,
    TENSOR_FROM_PYTHON,
    SHAPE_VARIES,
    PYTHON_SCALAR_VARIES,
    STATE_TENSOR_VARIES,
)

# A hint is keyed by what the per-op rules saw (a host-sync or data-dependent-shape finding has several causes)
# or by the rule itself where it has one cause.
HintKind = Literal[
    "value-read",
    "copy-to-host",
    "format",
    "bool-index",
    "dynamic-shape",
    "tensor-from-python",
    "shape-varies-across-steps",
    "python-scalar-varies-across-steps",
    "state-tensor-varies-across-steps",
]
HINTS: dict[HintKind, str] = {
    "value-read": (
        "reads a tensor value on the host (.item(), int(), float(), bool(), `if t:`): a device sync, "
        "illegal while a CUDA graph captures; "
        "keep the value on the device (torch.where, masks) or compute it before the step"
    ),
    "copy-to-host": (
        "copies a tensor to the host: a device sync, illegal while a CUDA graph captures; move the copy out of the step"
    ),
    "format": "printing or formatting a tensor reads its values on the host (a sync); print outside the captured step",
    "bool-index": (
        "boolean-mask indexing: the result's length depends on the mask's values "
        "(a sync to size it, and a graph needs static shapes); "
        "keep the full tensor and apply the mask with torch.where or a multiply"
    ),
    "dynamic-shape": (
        "the output's shape depends on tensor values (a sync to size it, and a graph needs static shapes); "
        "use a fixed-size form (torch.where over the full tensor, a static index, output_size= where the op takes it)"
    ),
    TENSOR_FROM_PYTHON: (
        "makes a tensor from Python data inside the step: a host copy at capture, a frozen constant at replay; "
        "build it once outside the step and pass it in, or make it on the device (torch.arange, torch.full)"
    ),
    SHAPE_VARIES: (
        "a captured graph replays the shapes it was captured with; preallocate a max-size buffer, "
        "write each step in place at its position (index_copy_, scatter) and mask the unused tail"
    ),
    PYTHON_SCALAR_VARIES: (
        "a captured graph replays the value it saw at capture; "
        "pass it as a device tensor that is updated in place before each replay"
    ),
    STATE_TENSOR_VARIES: (
        "a captured graph reads the memory it saw at capture; "
        "pick from one stacked tensor with a device index (index_select) instead of a Python index into a ModuleList, "
        "and update state in place (copy_) instead of rebinding it"
    ),
}

_HOST_SYNC_OPS = {"aten._local_scalar_dense", "aten.equal"}
_DYNAMIC_SHAPE_OPS = {
    "aten.nonzero",
    "aten.masked_select",
    "aten._unique",
    "aten._unique2",
    "aten.unique_dim",
    "aten.unique_consecutive",
    "aten.unique_dim_consecutive",
    "aten.repeat_interleave",
    "aten.bincount",
}
_INDEX_OPS = {"aten.index", "aten.index_put", "aten.index_put_", "aten._index_put_impl_"}
_LIFT_OPS = {"aten.lift_fresh", "aten.lift_fresh_copy", "aten.lift"}
_MASK_DTYPES = (torch.bool, torch.uint8)
_HAS_TAGS = hasattr(torch, "Tag") and hasattr(torch.Tag, "dynamic_output_shape")


def packet_name(func: OpOverload) -> str:
    """ "aten.index" for aten.index.Tensor: the op without its overload."""
    return func._schema.name.replace("::", ".")


def per_op_rule(func: OpOverload, args: Sequence[object], kwargs: Mapping[str, object]) -> tuple[Rule, str] | None:
    """(rule, hint) for an aten op call that breaks a per-op rule by itself, else None."""
    packet = packet_name(func)
    tags = getattr(func, "tags", ()) if _HAS_TAGS else ()
    if packet in _HOST_SYNC_OPS or (_HAS_TAGS and torch.Tag.data_dependent_output in tags):
        return HOST_SYNC, HINTS["value-read"]
    if packet in _INDEX_OPS:
        if _has_mask_index(args[1] if len(args) > 1 else kwargs.get("indices", ())):
            return DATA_DEPENDENT_SHAPE, HINTS["bool-index"]
        return None
    if packet == "aten.repeat_interleave" and kwargs.get("output_size") is not None:
        return None
    if packet in _DYNAMIC_SHAPE_OPS or (_HAS_TAGS and torch.Tag.dynamic_output_shape in tags):
        return DATA_DEPENDENT_SHAPE, HINTS["dynamic-shape"]
    if packet in _LIFT_OPS:
        return TENSOR_FROM_PYTHON, HINTS[TENSOR_FROM_PYTHON]
    return None


def is_lift(func: OpOverload) -> bool:
    return packet_name(func) in _LIFT_OPS


def is_device_to_host_copy(func: OpOverload, args: Sequence[object], out: object) -> bool:
    """A copy whose source is on a device and whose result is on the CPU (visible only when the step runs on a GPU)."""
    packet = packet_name(func)
    if packet == "aten._to_copy":
        source, result = args[0] if args else None, out
    elif packet == "aten.copy_":
        source, result = args[1] if len(args) > 1 else None, args[0] if args else None
    else:
        return False
    return (
        isinstance(source, torch.Tensor)
        and isinstance(result, torch.Tensor)
        and source.device.type != "cpu"
        and result.device.type == "cpu"
    )


def _has_mask_index(indices: object) -> bool:
    """indices: the index op's `Tensor?[]` (a list of tensors and Nones)."""
    return isinstance(indices, (list, tuple)) and any(
        isinstance(index, torch.Tensor) and index.dtype in _MASK_DTYPES for index in indices
    )
