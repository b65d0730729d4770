"""Safetensors files written and read with numpy alone.

The format (https://huggingface.co/docs/safetensors): an 8-byte little-endian unsigned header length N,
N bytes of JSON {name: {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {str: str}}
(padded with spaces to a multiple of 8), then the tensors' raw little-endian bytes, offsets relative to
the end of the header. Debian packages no python3-safetensors, so this writes the same bytes without it;
files written here open with `safetensors.numpy.load_file` and `safetensors.torch.load_file`.
"""

from __future__ import annotations

import json
import os
import struct
from collections.abc import Mapping
from typing import IO, TYPE_CHECKING, Any

import numpy as np

from ._output_files import write_atomically
from .arrays import as_numpy
from .errors import ParityTypeError, ParityValueError

if TYPE_CHECKING:
    from .arrays import ArrayLike

__all__ = ["MAX_HEADER_BYTES", "read_safetensors", "write_safetensors"]

# safetensors dtype codes for the numpy dtypes written here (the module sidecar writes F32 only).
_CODES: dict[np.dtype[Any], str] = {
    np.dtype("<f4"): "F32",
    np.dtype("<f8"): "F64",
    np.dtype("<f2"): "F16",
    np.dtype("<i8"): "I64",
    np.dtype("<i4"): "I32",
    np.dtype("<i2"): "I16",
    np.dtype("i1"): "I8",
    np.dtype("u1"): "U8",
    np.dtype("bool"): "BOOL",
}
_DTYPES: dict[str, np.dtype[Any]] = {code: dtype for dtype, code in _CODES.items()}

# The safetensors library refuses headers over 100 MB; so does the reader here (and the TypeScript one).
MAX_HEADER_BYTES = 100_000_000


def write_safetensors(
    tensors: Mapping[str, ArrayLike],
    path: str | os.PathLike[str],
    *,
    metadata: Mapping[str, str] | None = None,
    force: bool = False,
) -> None:
    """Writes `tensors` to `path` atomically (a temporary file beside it, renamed when complete), tensors first
    as in `safetensors.numpy.save_file(tensors, filename, metadata)`.

    Args:
        tensors: name -> array (numpy, torch, MLX, anything arrays.as_numpy reads), written in the order given; dtypes
            float32/64/16, int64/32/16/8, uint8, bool; any shape, 0-d included.
        path: the file; an existing one is refused unless `force=True`.
        metadata: str -> str, the header's `__metadata__`.
        force: replace an existing file.
    """
    if isinstance(tensors, (str, os.PathLike)) and isinstance(path, Mapping):
        raise ParityTypeError(
            "write_safetensors: tensors: expected a mapping of name -> array, found a path; the tensors "
            "come first, as in safetensors' save_file(tensors, filename): write_safetensors(tensors, path)"
        )
    if not isinstance(tensors, Mapping):
        raise ParityTypeError(
            f"write_safetensors: tensors: expected a mapping of name -> array, found {type(tensors).__name__}"
        )
    header: dict[str, Any] = {}
    arrays = []
    offset = 0
    for name, value in tensors.items():
        if name == "__metadata__":
            raise ParityValueError(
                'write_safetensors: tensors: "__metadata__" is reserved for the metadata and cannot name a tensor'
            )
        # np.asarray, not ascontiguousarray: that makes a 0-d array 1-d
        array = np.asarray(as_numpy(value, f'write_safetensors: tensor "{name}"'), order="C")
        dtype = array.dtype.newbyteorder("<") if array.dtype.byteorder == ">" else array.dtype
        if dtype not in _CODES:
            raise ParityValueError(
                f'write_safetensors: tensor "{name}": dtype {array.dtype} has no safetensors code '
                f"(known: {', '.join(sorted(_DTYPES))})"
            )
        array = array.astype(dtype, copy=False)
        header[name] = {
            "dtype": _CODES[dtype],
            "shape": list(array.shape),
            "data_offsets": [offset, offset + array.nbytes],
        }
        arrays.append(array)
        offset += array.nbytes
    if metadata:
        bad = [k for k, v in metadata.items() if not isinstance(k, str) or not isinstance(v, str)]
        if bad:
            raise ParityValueError(f"write_safetensors: metadata: keys and values must be strings: {bad[0]!r} is not")
        header["__metadata__"] = dict(metadata)
    blob = json.dumps(header, separators=(",", ":")).encode("utf-8")
    blob += b" " * (-len(blob) % 8)

    def write(file: IO[bytes]) -> None:
        file.write(struct.pack("<Q", len(blob)))
        file.write(blob)
        for array in arrays:
            file.write(array.tobytes())

    write_atomically(write, path, force=force, what="write_safetensors: path")


def read_safetensors(path: str | os.PathLike[str]) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """Reads a safetensors file: (dict name -> numpy array in the header's order, metadata dict).

    Args:
        path: the file; dtypes F32/F64/F16/I64/I32/I16/I8/U8/BOOL are read (BF16 is not: numpy lacks it).
    """
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 8:
        raise ParityValueError(
            f"{path}: {len(data)} bytes, too short for a safetensors file (an 8-byte header length first)"
        )
    (length,) = struct.unpack("<Q", data[:8])
    if length > MAX_HEADER_BYTES or 8 + length > len(data):
        raise ParityValueError(
            f"{path}: header length {length} does not fit (file {len(data)} bytes, limit {MAX_HEADER_BYTES})"
        )
    header = json.loads(data[8 : 8 + length].decode("utf-8"))
    metadata = header.pop("__metadata__", {}) or {}
    body = memoryview(data)[8 + length :]
    tensors = {}
    for name, entry in header.items():
        if entry["dtype"] not in _DTYPES:
            raise ParityValueError(f'{path}: tensor "{name}": dtype {entry["dtype"]} is not read here')
        begin, end = entry["data_offsets"]
        dtype = _DTYPES[entry["dtype"]]
        shape = tuple(entry["shape"])
        if not 0 <= begin <= end <= len(body) or end - begin != int(np.prod(shape, dtype=np.int64)) * dtype.itemsize:
            raise ParityValueError(
                f'{path}: tensor "{name}": data_offsets {[begin, end]} do not hold {entry["dtype"]} {list(shape)} '
                f"within {len(body)} data bytes"
            )
        tensors[name] = np.frombuffer(body[begin:end], dtype=dtype).reshape(shape).copy()
    return tensors, metadata
