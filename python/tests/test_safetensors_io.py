"""read_safetensors bounded before it reads (issue 38): the header length is checked against the limit and the
file's size before the header is read, a malformed header is one ParityValueError naming the file, and tensors
are read one at a time into their own arrays, never the whole file. Memory is measured with tracemalloc,
which counts both Python bytes objects and numpy's array buffers."""

import json
import struct
import tracemalloc

import numpy as np
import pytest

from tts_parity.errors import ParityValueError
from tts_parity.safetensors_io import MAX_HEADER_BYTES, read_safetensors, write_safetensors


def peak_while(call):
    tracemalloc.start()
    try:
        result = call()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_header_length_over_the_limit_is_refused_before_the_file_is_read(tmp_path):
    # 1 GiB, sparse: a reader that reads the whole file first holds 1 GiB before it looks at the header.
    path = tmp_path / "huge-header.safetensors"
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", MAX_HEADER_BYTES + 8))
        f.truncate(1 << 30)

    def read():
        with pytest.raises(ParityValueError) as refused:
            read_safetensors(path)
        return str(refused.value)

    message, peak = peak_while(read)
    assert (
        message
        == f"{path}: header length {MAX_HEADER_BYTES + 8} does not fit (file {1 << 30} bytes, limit {MAX_HEADER_BYTES})"
    )
    assert peak < 1 << 20


def test_a_header_longer_than_the_file_is_refused_without_reading_it(tmp_path):
    path = tmp_path / "short.safetensors"
    path.write_bytes(struct.pack("<Q", 64) + b"{}")
    with pytest.raises(ParityValueError, match=r"header length 64 does not fit \(file 10 bytes"):
        read_safetensors(path)


def test_tensors_are_read_without_holding_the_whole_file(tmp_path):
    # Two 32 MiB tensors: the arrays returned are 64 MiB; reading the file whole as well (and copying out of it)
    # peaked at twice that.
    tensors = {"a": np.arange(1 << 23, dtype=np.float32), "b": np.full(1 << 22, -2.5, dtype=np.float64)}
    path = tmp_path / "big.safetensors"
    write_safetensors(tensors, path, metadata={"k": "v"})
    (read, metadata), peak = peak_while(lambda: read_safetensors(path))
    assert metadata == {"k": "v"}
    assert list(read) == ["a", "b"]
    for name, array in tensors.items():
        assert read[name].dtype == array.dtype and np.array_equal(read[name], array)
    assert peak < (64 << 20) + (4 << 20)


def header_file(tmp_path, header: bytes, body: bytes = b"") -> str:
    path = tmp_path / "h.safetensors"
    path.write_bytes(struct.pack("<Q", len(header)) + header + body)
    return str(path)


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (b"\xff\xfe", "header is not UTF-8 JSON"),
        (b'{"a":', "header is not UTF-8 JSON"),
        (b"[1]", "header: expected a JSON object, found list"),
        (json.dumps({"a": 3}).encode(), 'tensor "a": expected {"dtype", "shape", "data_offsets"}, found int'),
        (
            json.dumps({"a": {"dtype": "BF16", "shape": [1], "data_offsets": [0, 2]}}).encode(),
            'tensor "a": dtype BF16 is not read here',
        ),
        (
            json.dumps({"a": {"dtype": "F32", "shape": "1", "data_offsets": [0, 4]}}).encode(),
            "shape '1' is not a list of sizes >= 0",
        ),
        (
            json.dumps({"a": {"dtype": "F32", "shape": [1], "data_offsets": [0]}}).encode(),
            "data_offsets [0] is not [begin, end]",
        ),
        (
            json.dumps({"a": {"dtype": "F32", "shape": [1 << 40, 1 << 40], "data_offsets": [0, 4]}}).encode(),
            "do not hold F32",
        ),
        (json.dumps({"__metadata__": {"k": 1}}).encode(), "header __metadata__: expected an object of strings"),
    ],
)
def test_a_malformed_header_is_one_line_naming_the_file(tmp_path, header, expected):
    path = header_file(tmp_path, header, b"\0" * 4)
    with pytest.raises(ParityValueError) as refused:
        read_safetensors(path)
    assert str(refused.value).startswith(f"{path}: ")
    assert expected in str(refused.value)
