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
        size = os.fstat(f.fileno()).st_size
        if size < 8:
            raise ParityValueError(
                f"{path}: {size} bytes, too short for a safetensors file (an 8-byte header length first)"
            )
        (length,) = struct.unpack("<Q", f.read(8))
        # Checked before anything is read: the header is read only when it is under the limit and in the file.
        if length > MAX_HEADER_BYTES or 8 + length > size:
            raise ParityValueError(
                f"{path}: header length {length} does not fit (file {size} bytes, limit {MAX_HEADER_BYTES})"
            )
        header = _header(f.read(length), path)
        metadata = header.pop("__metadata__", None) or {}
        if not isinstance(metadata, dict) or not all(isinstance(v, str) for v in metadata.values()):
            raise ParityValueError(f"{path}: header __metadata__: expected an object of strings")
        body = size - 8 - length
        tensors = {}
        for name, entry in header.items():
            dtype, shape, begin, end = _entry(entry, name, body, path)
            # Each tensor is read into its own array: the file is never held whole.
            array = np.empty(shape, dtype=dtype)
            f.seek(8 + length + begin)
            if f.readinto(array.reshape(-1).view(np.uint8).data) != end - begin:
                raise ParityValueError(f'{path}: tensor "{name}": the file ended while it was read (was it cut short?)')
            tensors[name] = array
    return tensors, metadata


def _header(blob: bytes, path: str | os.PathLike[str]) -> dict[str, Any]:
    try:
        header = json.loads(blob.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ParityValueError(f"{path}: header is not UTF-8 JSON ({error})") from None
    if not isinstance(header, dict):
        raise ParityValueError(f"{path}: header: expected a JSON object, found {type(header).__name__}")
    return header


def _entry(
    entry: Any, name: str, body: int, path: str | os.PathLike[str]
) -> tuple[np.dtype[Any], tuple[int, ...], int, int]:
    """A header entry's dtype, shape and data offsets, checked against the `body` bytes after the header."""
    where = f'{path}: tensor "{name}"'
    if not isinstance(entry, dict):
        raise ParityValueError(f'{where}: expected {{"dtype", "shape", "data_offsets"}}, found {type(entry).__name__}')
    code, shape, offsets = entry.get("dtype"), entry.get("shape"), entry.get("data_offsets")
    if code not in _DTYPES:
        raise ParityValueError(f"{where}: dtype {code} is not read here (known: {', '.join(sorted(_DTYPES))})")
    if not isinstance(shape, list) or not all(type(n) is int and n >= 0 for n in shape):
        raise ParityValueError(f"{where}: shape {shape!r} is not a list of sizes >= 0")
    if not isinstance(offsets, list) or len(offsets) != 2 or not all(type(n) is int for n in offsets):
        raise ParityValueError(f"{where}: data_offsets {offsets!r} is not [begin, end]")
    dtype = _DTYPES[code]
    begin, end = offsets
    # Python integers: a product of sizes cannot overflow, so a huge shape is refused here, not allocated.
    count = 1
    for n in shape:
        count *= n
    if not 0 <= begin <= end <= body or end - begin != count * dtype.itemsize:
        raise ParityValueError(
            f"{where}: data_offsets {[begin, end]} do not hold {code} {list(shape)} within {body} data bytes"
        )
    return dtype, tuple(shape), begin, end
