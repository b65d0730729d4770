"""Host numpy arrays of what engines hand us, read by the array protocols, so no array library is imported here:
numpy arrays, torch tensors (duck typed), MLX, JAX, CuPy-like arrays and anything with `__dlpack__`, the buffer
protocol or `__array__`, lists and numbers. bfloat16 (and float8), which numpy lacks, become float32 exactly.
What cannot be read as real numbers on the host is refused with a ParityError naming the argument and what to do
(docs/python.md "Arrays from any library")."""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING, Any, Callable, Union

import numpy as np

from .errors import ParityTypeError, ParityValueError

if TYPE_CHECKING:
    import numpy.typing as npt
    import torch
    from typing_extensions import Protocol, TypeAlias

    class SupportsDLPack(Protocol):
        def __dlpack__(self, *args: Any, **kwargs: Any) -> Any: ...

    ArrayLike: TypeAlias = Union[npt.ArrayLike, torch.Tensor, SupportsDLPack]
    """What the writers take: a numpy array, a torch tensor on any device, an MLX/JAX/CuPy-like array (anything with
    `__dlpack__`, the buffer protocol or `__array__`), any real dtype (bfloat16 included), a list or a number."""

__all__ = ["as_numpy", "as_row", "check_tensor_readable"]

# Float types numpy lacks whose every value is a float32 (ml_dtypes' names, which JAX's numpy arrays carry).
_SUBSETS_OF_FLOAT32 = frozenset(
    {"bfloat16", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz", "float8_e4m3b11fnuz"}
)
_PLAIN = (list, tuple, str, bytes, numbers.Number, np.generic)
_DLPACK_DEVICES = {1: "cpu", 2: "cuda", 3: "cuda host memory", 4: "opencl", 7: "vulkan", 8: "metal", 10: "rocm"}
_TO_HOST = "copy it to the host first in its own library (torch: x.cpu(), CuPy: x.get(), JAX: jax.device_get(x))"


def as_numpy(values: Any, what: str) -> np.ndarray:
    """A host numpy array of `values`, real-valued (complex is refused); `what` names the argument in refusals.

    A torch tensor is detached and copied to the CPU; any other array is read through DLPack (`np.from_dlpack`,
    with a host copy asked of a device array), then the buffer protocol, then `__array__`. Reading evaluates a lazy
    array (MLX) then and there. bfloat16 and float8 become float32 exactly: torch's by `.float()`; a buffer whose
    format is "bfloat16" (MLX's) by its raw bits (a bfloat16 is the top 16 bits of a float32); an array with the
    array API's `__array_namespace__` by its own `astype(x, float32)`; a numpy array of ml_dtypes' types by
    `astype`."""
    if isinstance(values, np.ndarray):
        array = values
    elif _is_torch_tensor(values):
        array = _from_torch(values, what)
    elif isinstance(values, (list, tuple)) and not all(v is None or isinstance(v, _PLAIN) for v in values):
        array = _asarray([as_numpy(v, f"{what}[{i}]") for i, v in enumerate(values)], what)  # a list of arrays
    elif values is None or isinstance(values, _PLAIN):
        array = _asarray(values, what)
    else:
        array = _from_protocols(values, what)
    return _real(array, what)


def as_row(values: Any, what: str) -> np.ndarray:
    """One row of numbers: 1-D, or with leading size-1 dimensions only ([1, 1, V] from a batch of one);
    anything else is refused naming `what` and the shape, as the caller must pick the row."""
    array = as_numpy(values, what)
    if array.ndim == 0 or any(d != 1 for d in array.shape[:-1]):
        raise ParityValueError(f"{what}: expected one row (1-D, or [1, ..., 1, V]), found shape {list(array.shape)}")
    if not (np.issubdtype(array.dtype, np.floating) or np.issubdtype(array.dtype, np.integer)):
        raise ParityValueError(f"{what}: expected numbers, found dtype {array.dtype}")
    return array.reshape(-1)


def check_tensor_readable(tensor: Any, what: str) -> None:
    """Refuses a torch tensor that holds no dense real values a recorder can copy: meta (shapes only), sparse or
    other non-strided layouts, quantized, nested, complex; `what` names the argument."""
    found = None
    if tensor.is_meta:
        found, fix = "a tensor on the meta device (shapes only, no values)", "record a tensor computed on a real device"
    elif tensor.is_nested:
        found, fix = "a nested tensor", "give its tensors one by one (x.unbind())"
    elif tensor.is_quantized:
        found, fix = f"a quantized tensor ({_dtype(tensor)})", "give it dequantized (x.dequantize())"
    elif str(tensor.layout) != "torch.strided":
        found, fix = f"a {str(tensor.layout).replace('torch.', '')} tensor", "give it dense (x.to_dense())"
    elif tensor.is_complex():
        found, fix = f"a complex tensor ({_dtype(tensor)})", _COMPLEX_FIX
    if found is not None:
        raise ParityValueError(f"{what}: {found}: {fix}")


_COMPLEX_FIX = "a trace holds real values; give the real part (x.real), the magnitude (abs(x)) or a real tensor"


def _is_torch_tensor(values: Any) -> bool:
    return any(c.__name__ == "Tensor" and c.__module__ == "torch" for c in type(values).__mro__)


def _dtype(values: Any) -> str:
    return str(values.dtype).rsplit(".", 1)[-1]


def _from_torch(tensor: Any, what: str) -> np.ndarray:
    check_tensor_readable(tensor, what)
    tensor = tensor.detach()
    if tensor.is_floating_point() and _dtype(tensor) in _SUBSETS_OF_FLOAT32:
        tensor = tensor.float()
    try:
        return np.asarray(tensor.cpu().numpy())
    except Exception as error:  # a fake, functional or other subclass whose values torch will not hand over
        raise ParityValueError(
            f"{what}: torch cannot copy this tensor ({type(tensor).__name__}, {_dtype(tensor)}) to numpy "
            f"({_first_line(error)}): give a dense real tensor"
        ) from None


def _from_protocols(values: Any, what: str) -> np.ndarray:
    failures: list[str] = []
    has_dlpack = hasattr(values, "__dlpack__")
    device = _dlpack_device(values) if has_dlpack else None
    on_host = device in (None, 1)
    if has_dlpack:
        array = _attempt(lambda: np.from_dlpack(values), "DLPack", failures)
        if array is None and not on_host:  # numpy >= 2.1 asks the producer for a host copy
            array = _attempt(lambda: np.from_dlpack(values, device="cpu"), "DLPack to the host", failures)
        if array is not None:
            return array
    view = _buffer(values)
    if view is not None:
        if view.format == "bfloat16":  # MLX's name for it; every other format is PEP 3118's, which numpy reads
            wide = np.frombuffer(view.tobytes(), dtype=np.uint16).reshape(view.shape).astype(np.uint32)
            wide <<= 16  # in place: a 0-d array stays an array
            return wide.view(np.float32)
        array = _attempt(lambda: np.asarray(view), f'buffer format "{view.format}"', failures)
        if array is not None:
            return array
    dtype = _dtype(values) if hasattr(values, "dtype") else ""
    if dtype in _SUBSETS_OF_FLOAT32 and hasattr(values, "__array_namespace__"):
        namespace = values.__array_namespace__()
        return as_numpy(namespace.astype(values, namespace.float32), what)
    if any(hasattr(values, name) for name in ("__array__", "__array_interface__", "__array_struct__")):
        array = _attempt(lambda: np.asarray(values), "__array__", failures)
        if array is not None:
            return array
    kind = type(values).__name__
    if not failures:
        raise ParityTypeError(
            f"{what}: expected an array (numpy, torch, MLX, or anything with __dlpack__, __array__ or the buffer "
            f"protocol), a list or a number; found {kind}"
        )
    if dtype in _SUBSETS_OF_FLOAT32:
        fix = f"cast it to float32 in its own library first (every {dtype} is a float32)"
    elif not on_host or hasattr(values, "__cuda_array_interface__"):
        fix = _TO_HOST
    else:
        fix = "give a numpy array or a dense array of real numbers"
    where = "" if on_host else f" on {_DLPACK_DEVICES.get(device or 0, f'DLPack device {device}')}"
    described = f"{kind} ({dtype})" if dtype else kind
    raise ParityValueError(f"{what}: numpy cannot read this {described}{where} ({'; '.join(failures)}): {fix}")


def _attempt(read: Callable[[], np.ndarray], how: str, failures: list[str]) -> np.ndarray | None:
    try:
        return read()
    except Exception as error:  # numpy raises BufferError, RuntimeError, TypeError or ValueError by what it lacks
        failures.append(f"{how}: {_first_line(error)}")
        return None


def _buffer(values: Any) -> memoryview | None:
    try:
        return memoryview(values)
    except TypeError:
        return None


def _dlpack_device(values: Any) -> int | None:
    try:
        return int(values.__dlpack_device__()[0])
    except Exception:  # no __dlpack_device__ (numpy then takes the array as a host one), or a broken one
        return None


def _asarray(values: Any, what: str) -> np.ndarray:
    try:
        return np.asarray(values)
    except Exception as error:  # ragged lists, a list of unreadable arrays
        raise ParityValueError(f"{what}: not an array of numbers ({_first_line(error)})") from None


def _real(array: np.ndarray, what: str) -> np.ndarray:
    if array.dtype.name in _SUBSETS_OF_FLOAT32:
        return array.astype(np.float32)
    if array.dtype.kind == "c":
        raise ParityValueError(f"{what}: complex values ({array.dtype}): {_COMPLEX_FIX}")
    return array


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}".rstrip(": ").encode("ascii", "replace").decode()
