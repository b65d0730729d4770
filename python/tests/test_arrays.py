"""tts_parity.arrays: every array library by the array protocols (MLX, torch, numpy, DLPack-only, __array__-only,
buffers), bfloat16 exact, lazy MLX arrays evaluated where they are read, and one refusal per unreadable kind, the
same through every entry point that reads arrays.

The expected values are the inputs themselves: each is exactly representable in its dtype (1.5, -2.0, 2**-130 and
the largest bfloat16, (2 - 2**-7) * 2**127, are bfloat16 values; bfloat16 -> float32 is exact), so the conversion
must give them back bit for bit."""

from __future__ import annotations

import math
import types
import warnings

import numpy as np
import pytest
import torch

from tts_parity import StepRecorder, TraceWriter, logit_stats
from tts_parity.arrays import as_numpy, as_row
from tts_parity.errors import ParityTypeError, ParityValueError
from tts_parity.module_recorder import ModuleRecorder
from tts_parity.safetensors_io import read_safetensors, write_safetensors
from tts_parity.static_buffers import StaticBuffers

from optional_modules import mlx_core

mx = mlx_core()

BF16_MAX = (2 - 2**-7) * 2**127
EXACT = [1.5, -2.0, 0.0, 2.0**-130, BF16_MAX, math.inf, -math.inf]  # bfloat16 values: exact in every float dtype
HALF_EXACT = [1.5, -2.0, 0.0, 2.0**-20, 65504.0, math.inf]  # float16 values (2**-20 is a float16 subnormal)
INTS = [0, 1, -7, 127]


class ArrayOnly:
    """A plain object that offers `__array__` and nothing else (as many small array libraries do)."""

    def __init__(self, values):
        self.values = np.asarray(values)

    def __array__(self, dtype=None, copy=None):
        return self.values if dtype is None else self.values.astype(dtype)


class DLPackOnly:
    """An object that offers `__dlpack__` alone (no `__dlpack_device__`, buffer or `__array__`)."""

    def __init__(self, inner):
        self.inner = inner

    def __dlpack__(self, **kwargs):
        return self.inner.__dlpack__(**kwargs)


def _bits(values) -> list[int]:
    return np.asarray(values, dtype=np.float32).view(np.uint32).tolist()


def _mlx_t(values, dtype):
    """A transposed (non-contiguous) [2, n/2] -> [n/2, 2] MLX array: strides must be honoured."""
    return mx.array(np.asarray(values, dtype=np.float32).reshape(2, -1)).astype(dtype).T


# (kind, make the array, expected dtype, expected values). The values are compared exactly (float bits).
READABLE = [
    ("mlx float32", lambda: mx.array(EXACT), np.float32, EXACT),
    ("mlx float16", lambda: mx.array(HALF_EXACT).astype(mx.float16), np.float16, HALF_EXACT),
    ("mlx bfloat16", lambda: mx.array(EXACT).astype(mx.bfloat16), np.float32, EXACT),
    ("mlx bfloat16 0-d", lambda: mx.array(-2.0).astype(mx.bfloat16), np.float32, -2.0),
    (
        "mlx bfloat16 transposed",
        lambda: _mlx_t([1.5, -2.0, 0.0, 4.0], mx.bfloat16),
        np.float32,
        [[1.5, 0.0], [-2.0, 4.0]],
    ),
    (
        "mlx float32 transposed",
        lambda: _mlx_t([1.5, -2.0, 0.0, 4.0], mx.float32),
        np.float32,
        [[1.5, 0.0], [-2.0, 4.0]],
    ),
    ("mlx int32", lambda: mx.array(INTS), np.int32, INTS),
    ("mlx int64", lambda: mx.array(INTS).astype(mx.int64), np.int64, INTS),
    ("mlx uint8", lambda: mx.array([0, 1, 255]).astype(mx.uint8), np.uint8, [0, 1, 255]),
    ("mlx lazy bfloat16", lambda: (mx.array([0.75, -1.0]) * 2).astype(mx.bfloat16), np.float32, [1.5, -2.0]),
    ("torch cpu float32", lambda: torch.tensor(EXACT), np.float32, EXACT),
    ("torch bfloat16", lambda: torch.tensor(EXACT).bfloat16(), np.float32, EXACT),
    (
        "torch float8_e4m3fn",
        lambda: torch.tensor([1.5, -2.0, 448.0]).to(torch.float8_e4m3fn),
        np.float32,
        [1.5, -2.0, 448.0],
    ),
    ("torch requires_grad", lambda: torch.tensor([1.5, -2.0], requires_grad=True), np.float32, [1.5, -2.0]),
    ("torch int64", lambda: torch.tensor(INTS), np.int64, INTS),
    ("numpy float64", lambda: np.array(EXACT), np.float64, EXACT),
    ("numpy int16", lambda: np.array(INTS, dtype=np.int16), np.int16, INTS),
    ("object with __array__", lambda: ArrayOnly(np.array(EXACT, dtype=np.float32)), np.float32, EXACT),
    (
        "object with only __dlpack__ (numpy inside)",
        lambda: DLPackOnly(np.array(EXACT, dtype=np.float32)),
        np.float32,
        EXACT,
    ),
    ("object with only __dlpack__ (mlx inside)", lambda: DLPackOnly(mx.array(EXACT)), np.float32, EXACT),
    ("memoryview", lambda: memoryview(np.array(EXACT, dtype=np.float32)), np.float32, EXACT),
    ("list", lambda: EXACT, np.float64, EXACT),
    ("list of mlx bfloat16 scalars", lambda: [mx.array(v).astype(mx.bfloat16) for v in EXACT], np.float32, EXACT),
    ("list of torch 0-d ints", lambda: [torch.tensor(v) for v in INTS], np.int64, INTS),
]


@pytest.mark.parametrize(("kind", "make", "dtype", "expected"), READABLE, ids=[row[0] for row in READABLE])
def test_every_kind_reads_exactly(kind, make, dtype, expected):
    array = as_numpy(make(), "values")
    assert isinstance(array, np.ndarray)
    assert array.dtype == dtype
    assert array.shape == np.shape(expected)
    if np.issubdtype(dtype, np.floating):
        assert _bits(array) == _bits(expected)  # bit for bit: bfloat16 -> float32 is exact
    else:
        assert array.tolist() == expected


def test_bfloat16_nan_stays_nan():
    # A NaN has many encodings; the conversion keeps it a NaN (and the sign of the rest, checked above).
    array = as_numpy(mx.array([math.nan, 1.5]).astype(mx.bfloat16), "values")
    assert math.isnan(array[0]) and array[1] == 1.5


def test_a_lazy_mlx_array_is_evaluated_when_read_not_before():
    # MLX builds a graph and allocates the result only when something evaluates it: 4 MiB appear when read.
    lazy = mx.ones((1 << 20,), dtype=mx.float32) * 3
    before = mx.get_active_memory()
    assert before < 4 << 20  # building it evaluated nothing
    array = as_numpy(lazy, "values")
    assert mx.get_active_memory() - before >= (4 << 20) - 4096  # reading it did (less the scalar 3, freed)
    assert array.shape == (1 << 20,) and float(array.min()) == float(array.max()) == 3.0


def test_the_step_records_the_value_at_log_time(tmp_path):
    # MLX's `x[i] = v` changes the array object in place: a recorder that kept the object until the step ended
    # would record the later value. log() reads (and so evaluates) it at the call.
    with TraceWriter(tmp_path / "t.jsonl", engine="mlx test", q=1, frame_rate=12.5, sample_rate=24000) as tw:
        with StepRecorder(tw) as recorder, recorder.step(1):
            logits = mx.array([0.5, 4.0, -1.0]) * 1  # lazy
            recorder.log(logits, mx.array([1]))
            logits[1] = -100.0
    stats = _steps(tmp_path / "t.jsonl")[0]["logits"]
    assert stats["max"] == 4.0 and stats["argmax"] == 1 and stats["mean"] == pytest.approx(3.5 / 3, abs=1e-15)


def _steps(path):
    import json

    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]


def _sparse_csr():
    with warnings.catch_warnings():  # torch: "Sparse CSR tensor support is in beta state"
        warnings.simplefilter("ignore")
        return torch.tensor([[0.0, 1.5]]).to_sparse_csr()


class FakeDeviceArray:
    """Stands in for a CuPy array on a GPU (CuPy needs CUDA, which this machine lacks): DLPack reports a CUDA
    device and refuses a host export, `__array__` refuses implicit conversion with CuPy's own words."""

    dtype = "float32"

    def __dlpack_device__(self):
        return (2, 0)

    def __dlpack__(self, **kwargs):
        raise BufferError("this array lives on the GPU")

    def __array__(self, dtype=None, copy=None):
        raise TypeError(
            "Implicit conversion to a NumPy array is not allowed. Please use `.get()` to construct a "
            "NumPy array explicitly."
        )


class Bfloat16ViaNamespace:
    """A bfloat16 array that numpy cannot read by DLPack and that offers the array API's `__array_namespace__`
    (as JAX does): the conversion asks it to cast itself to float32."""

    def __init__(self, inner):
        self.inner = inner
        self.dtype = "bfloat16"

    def __dlpack__(self, **kwargs):
        return self.inner.__dlpack__(**kwargs)

    def __array_namespace__(self):
        return types.SimpleNamespace(float32=mx.float32, astype=lambda x, dtype: x.inner.astype(dtype))


def test_bfloat16_through_the_array_api_namespace():
    array = as_numpy(Bfloat16ViaNamespace(mx.array(EXACT).astype(mx.bfloat16)), "values")
    assert array.dtype == np.float32 and _bits(array) == _bits(EXACT)


class Bfloat16DLPackOnly(DLPackOnly):
    dtype = "bfloat16"


def _quantized():
    return torch.quantize_per_tensor(torch.tensor([1.0]), 0.1, 0, torch.qint8)


COMPLEX = "a trace holds real values; give the real part (x.real), the magnitude (abs(x)) or a real tensor"
# (kind, make, error type, the exact message after "values: ").
REFUSED = [
    (
        "torch meta",
        lambda: torch.empty(3, device="meta"),
        ParityValueError,
        "a tensor on the meta device (shapes only, no values): record a tensor computed on a real device",
    ),
    (
        "torch sparse COO",
        lambda: torch.tensor([[0.0, 1.5]]).to_sparse(),
        ParityValueError,
        "a sparse_coo tensor: give it dense (x.to_dense())",
    ),
    ("torch sparse CSR", _sparse_csr, ParityValueError, "a sparse_csr tensor: give it dense (x.to_dense())"),
    ("torch complex", lambda: torch.tensor([1 + 2j]), ParityValueError, f"a complex tensor (complex64): {COMPLEX}"),
    (
        "torch quantized",
        _quantized,
        ParityValueError,
        "a quantized tensor (qint8): give it dequantized (x.dequantize())",
    ),
    ("mlx complex", lambda: mx.array([1 + 2j]), ParityValueError, f"complex values (complex64): {COMPLEX}"),
    ("numpy complex", lambda: np.array([1j]), ParityValueError, f"complex values (complex128): {COMPLEX}"),
    (
        "bfloat16 through DLPack alone",
        lambda: Bfloat16DLPackOnly(mx.array([1.5]).astype(mx.bfloat16)),
        ParityValueError,
        "numpy cannot read this Bfloat16DLPackOnly (bfloat16) (DLPack: RuntimeError: Unsupported dtype in DLTensor.): "
        "cast it to float32 in its own library first (every bfloat16 is a float32)",
    ),
    (
        "an array on a GPU",
        FakeDeviceArray,
        ParityValueError,
        "numpy cannot read this FakeDeviceArray (float32) on cuda (DLPack: BufferError: this array lives on the GPU; "
        "DLPack to the host: BufferError: this array lives on the GPU; __array__: TypeError: Implicit conversion to a "
        "NumPy array is not allowed. Please use `.get()` to construct a NumPy array explicitly.): copy it to the host "
        "first in its own library (torch: x.cpu(), CuPy: x.get(), JAX: jax.device_get(x))",
    ),
    (
        "a ragged list",
        lambda: [[1.0, 2.0], [3.0]],
        ParityValueError,
        "not an array of numbers (ValueError: setting an array element with a sequence. The requested array has an "
        "inhomogeneous shape after 1 dimensions. The detected shape was (2,) + inhomogeneous part.)",
    ),
    (
        "an object",
        object,
        ParityTypeError,
        "expected an array (numpy, torch, MLX, or anything with __dlpack__, __array__ or the buffer protocol), a list "
        "or a number; found object",
    ),
]


@pytest.mark.parametrize(("kind", "make", "error", "message"), REFUSED, ids=[row[0] for row in REFUSED])
def test_every_unreadable_kind_is_refused_naming_the_argument(kind, make, error, message):
    with pytest.raises(error) as raised:
        as_numpy(make(), "values")
    assert str(raised.value) == f"values: {message}"


def test_a_list_of_arrays_names_the_element_it_refuses():
    with pytest.raises(ParityValueError) as raised:
        as_numpy([torch.zeros(2), torch.empty(2, device="meta")], "values")
    assert str(raised.value) == (
        "values[1]: a tensor on the meta device (shapes only, no values): record a tensor computed on a real device"
    )


def test_a_row_of_mlx_bfloat16_logits_gives_the_statistics_of_its_values():
    # [1.5, -2.0, 0.5, 4.0]: mean 1.0, population std sqrt((0.25 + 9 + 0.25 + 9) / 4), argmax 3, top5 by value.
    stats = logit_stats(mx.array([1.5, -2.0, 0.5, 4.0]).astype(mx.bfloat16))
    assert stats["mean"] == 1.0 and stats["std"] == math.sqrt(18.5 / 4)
    assert (stats["min"], stats["max"], stats["argmax"]) == (-2.0, 4.0, 3)
    assert [t["id"] for t in stats["top5"]] == [3, 0, 2, 1]
    assert as_row(mx.array([[[1.5, 2.0]]]).astype(mx.bfloat16), "row").tolist() == [1.5, 2.0]


class _Emits(torch.nn.Module):
    def __init__(self, make):
        super().__init__()
        self.make = make
        self.inner = torch.nn.Identity()

    def forward(self, x):
        return self.inner(self.make())


def _writer_call(tmp_path, **fields):
    with TraceWriter(tmp_path / "t.jsonl", engine="e", q=2, frame_rate=12.5, sample_rate=24000) as tw:
        tw.write_step(**{"talker_logits": [0.0, 1.0], "codes": [0, 1], **fields})


def _set_audio(tmp_path, value):
    with TraceWriter(tmp_path / "t.jsonl", engine="e", q=1, frame_rate=1.0, sample_rate=8) as tw:
        tw.set_audio(value)


def _recorder_log(tmp_path, value):
    with TraceWriter(tmp_path / "t.jsonl", engine="e", q=2, frame_rate=12.5, sample_rate=24000) as tw:
        with StepRecorder(tw) as recorder, recorder.step(1):
            recorder.log(value, [0, 1])


def _module_output(tmp_path, value):
    model = _Emits(lambda: value)
    with ModuleRecorder(model, tmp_path / "m.modules.safetensors", "^inner$") as recorder, recorder.step(1):
        model(None)


META = "a tensor on the meta device (shapes only, no values): record a tensor computed on a real device"
# Each entry point that reads arrays names its own argument in the same refusal (the class, not one site).
ENTRY_POINTS = [
    (
        "write_step talker_logits",
        lambda p: _writer_call(p, talker_logits=torch.empty(2, device="meta")),
        f'step 1: "logits" (talker_logits): {META}',
    ),
    (
        "write_step code_predictor_logits",
        lambda p: _writer_call(p, code_predictor_logits=[torch.tensor([1j])]),
        f'step 1: "codePredictorLogits.0" (code_predictor_logits[0]): a complex tensor (complex64): {COMPLEX}',
    ),
    (
        "write_step hidden",
        lambda p: _writer_call(p, hidden=torch.tensor([[0.0, 1.0]]).to_sparse()),
        'step 1: "hidden" (hidden): a sparse_coo tensor: give it dense (x.to_dense())',
    ),
    (
        "write_step codes",
        lambda p: _writer_call(p, codes=mx.array([1 + 0j, 2])),
        f'step 1: "codes" (codes): complex values (complex64): {COMPLEX}',
    ),
    ("set_audio", lambda p: _set_audio(p, torch.empty(8, device="meta")), f"TraceWriter.set_audio: audio: {META}"),
    (
        "StepRecorder.log",
        lambda p: _recorder_log(p, torch.empty(2, device="meta")),
        f"step 1: StepRecorder.log(): talker_logits: {META}",
    ),
    (
        "ModuleRecorder output",
        lambda p: _module_output(p, torch.tensor([[0.0, 1.0]]).to_sparse()),
        'ModuleRecorder: step 1: "inner" output: a sparse_coo tensor: give it dense (x.to_dense())',
    ),
    (
        "StaticBuffers.write",
        lambda p: StaticBuffers().write("x", torch.empty(2, device="meta")),
        f'StaticBuffers.write("x"): {META}',
    ),
    (
        "write_safetensors",
        lambda p: write_safetensors({"x": mx.array([1j])}, p / "x.safetensors"),
        f'write_safetensors: tensor "x": complex values (complex64): {COMPLEX}',
    ),
]


@pytest.mark.parametrize(("entry", "call", "message"), ENTRY_POINTS, ids=[row[0] for row in ENTRY_POINTS])
def test_every_entry_point_refuses_with_a_parity_error(tmp_path, entry, call, message):
    with pytest.raises(ParityValueError) as raised:
        call(tmp_path)
    assert str(raised.value) == message


def test_write_safetensors_takes_mlx_bfloat16_as_float32(tmp_path):
    write_safetensors({"h": mx.array([[1.5, -2.0]]).astype(mx.bfloat16)}, tmp_path / "h.safetensors")
    tensors, _ = read_safetensors(tmp_path / "h.safetensors")
    assert tensors["h"].dtype == np.float32 and tensors["h"].tolist() == [[1.5, -2.0]]


def test_the_writer_takes_mlx_rows_codes_and_audio(tmp_path):
    with TraceWriter(tmp_path / "t.jsonl", engine="mlx", q=3, frame_rate=12.5, sample_rate=25) as tw:
        tw.write_step(
            mx.array([1.5, -2.0, 0.5, 4.0]).astype(mx.bfloat16),
            mx.array([3, 1, 0]),
            code_predictor_logits=mx.array([[0.0, 1.0], [2.0, -1.0]]).astype(mx.float16),  # [q-1, V]: two rows
            hidden=mx.array([[0.5, -0.5]]),
        )
        tw.set_audio(mx.array([0.25, -0.5]).astype(mx.bfloat16))
    step = _steps(tmp_path / "t.jsonl")[0]
    assert step["codes"] == [3, 1, 0]
    assert (step["logits"]["mean"], step["logits"]["argmax"]) == (1.0, 3)
    assert [row["argmax"] for row in step["codePredictorLogits"]] == [1, 0]
    assert (step["hidden"]["min"], step["hidden"]["max"]) == (-0.5, 0.5)
    samples = np.frombuffer((tmp_path / "t.wav").read_bytes()[-8:], dtype="<f4")  # the WAV's two float32 samples
    assert samples.tolist() == [0.25, -0.5]


def test_static_buffers_read_bfloat16_and_float8_as_float32():
    buffers = StaticBuffers()
    buffers.write("b", torch.tensor([1.5, -2.0]).bfloat16())
    buffers.write("f", torch.tensor([1.5, 448.0]).to(torch.float8_e4m3fn))
    host = buffers.read()
    assert (host["b"].dtype, host["b"].tolist()) == (np.float32, [1.5, -2.0])
    assert (host["f"].dtype, host["f"].tolist()) == (np.float32, [1.5, 448.0])
