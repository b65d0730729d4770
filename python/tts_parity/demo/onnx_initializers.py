"""The initializers of an ONNX file read straight from its protobuf wire format, for machines without the
`onnx` package (the lent GPU machines may lack it). weights.py uses onnx.numpy_helper when onnx imports
and this otherwise; tests/demo/test_demo_twin_weights.py checks both give the same arrays on the demo bundle.

Reads ModelProto.graph (field 7) -> GraphProto.initializer (5) -> TensorProto: dims (1), data_type (2),
float_data (4), int32_data (5), int64_data (7), name (8), raw_data (9), double_data (10); tensors stored
outside the file (data_location, 14) are refused.
"""

from __future__ import annotations

import numpy as np

from ..errors import ParityValueError

__all__ = ["DTYPES", "read_initializers_without_onnx"]


# TensorProto.DataType -> numpy dtype (little-endian, as raw_data is stored)
DTYPES = {1: "<f4", 2: "u1", 3: "i1", 5: "<i2", 6: "<i4", 7: "<i8", 9: "?", 10: "<f2", 11: "<f8"}


def _varint(data: bytes, pos: int):
    value = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, pos
        shift += 7


def _fields(data: bytes):
    """(field number, wire type, value) of one message: ints for varints, bytes otherwise."""
    pos = 0
    while pos < len(data):
        key, pos = _varint(data, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(data, pos)
        elif wire == 1:
            value, pos = data[pos : pos + 8], pos + 8
        elif wire == 2:
            length, pos = _varint(data, pos)
            value, pos = data[pos : pos + length], pos + length
        elif wire == 5:
            value, pos = data[pos : pos + 4], pos + 4
        else:
            raise ParityValueError(f"protobuf wire type {wire} (field {number}) is not read here")
        yield number, wire, value


def _packed_varints(value, wire):
    if wire == 0:
        return [value]
    out, pos = [], 0
    while pos < len(value):
        v, pos = _varint(value, pos)
        out.append(v)
    return out


def _tensor(data: bytes):
    dims, dtype, name, raw = [], None, "", None
    floats, doubles, ints = [], [], []
    for number, wire, value in _fields(data):
        if number == 1:
            dims += _packed_varints(value, wire)
        elif number == 2:
            dtype = value
        elif number == 4:
            floats.append(np.frombuffer(value, "<f4"))  # packed (wire 2) or one value (wire 5)
        elif number in (5, 7):
            ints += [v - (1 << 64) if v >= 1 << 63 else v for v in _packed_varints(value, wire)]
        elif number == 8:
            name = value.decode("utf-8")
        elif number == 9:
            raw = value
        elif number == 10:
            doubles.append(np.frombuffer(value, "<f8"))
        elif number == 14 and value == 1:
            raise ParityValueError(f"initializer {name!r}: stored outside the file (external data) is not read here")
    if dtype not in DTYPES:
        raise ParityValueError(f"initializer {name!r}: data type {dtype} is not read here")
    if raw is not None:
        array = np.frombuffer(raw, DTYPES[dtype])
    elif floats:
        array = np.concatenate(floats)
    elif doubles:
        array = np.concatenate(doubles)
    else:
        array = np.array(ints, dtype=DTYPES[dtype])
    return name, array.reshape(dims).copy()


def read_initializers_without_onnx(path) -> dict:
    """name -> numpy array, for every initializer of the ONNX file at `path`."""
    with open(path, "rb") as f:
        model = f.read()
    out = {}
    for number, _, graph in _fields(model):
        if number == 7:
            for field, _, tensor in _fields(graph):
                if field == 5:
                    name, array = _tensor(tensor)
                    out[name] = array
    return out
