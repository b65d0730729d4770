"""The twin's weights: read from the bundle's ONNX initializers by onnx.numpy_helper, and, where the onnx
package is missing (GPU machines), by onnx_initializers.py, which must give the very same arrays."""

import numpy as np
import onnx
import pytest
from onnx import numpy_helper

from tts_parity.demo.onnx_initializers import read_initializers_without_onnx
from tts_parity.demo.weights import read_initializers
from tts_parity.errors import ParityValueError


def test_the_protobuf_reader_gives_onnx_s_arrays_on_every_demo_file(demo_bundle):
    files = sorted(demo_bundle.glob("*.onnx"))
    assert len(files) == 23  # 15 batch-1 model files and 8 batched exports (demo bundle v5)
    for path in files:
        expected = {t.name: numpy_helper.to_array(t) for t in onnx.load(str(path)).graph.initializer}
        found = read_initializers_without_onnx(path)
        assert list(found) == list(expected), path.name
        for name, array in expected.items():
            assert found[name].dtype == array.dtype and found[name].shape == array.shape, (path.name, name)
            assert np.array_equal(found[name], array, equal_nan=True), (path.name, name)


def test_float_data_and_int64_data_fields_are_read_too(tmp_path):
    """Exporters that do not use raw_data store values in the typed fields."""
    graph = onnx.helper.make_graph(
        [],
        "g",
        [],
        [],
        initializer=[
            onnx.helper.make_tensor("w", onnx.TensorProto.FLOAT, [2, 2], [1.5, -2.0, 3.25, 0.0]),
            onnx.helper.make_tensor("i", onnx.TensorProto.INT64, [3], [-1, 0, 2**40]),
        ],
    )
    path = tmp_path / "m.onnx"
    onnx.save(onnx.helper.make_model(graph), str(path))
    found = read_initializers_without_onnx(path)
    np.testing.assert_array_equal(found["w"], np.array([[1.5, -2.0], [3.25, 0.0]], np.float32))
    np.testing.assert_array_equal(found["i"], np.array([-1, 0, 2**40], np.int64))


def test_an_unreadable_file_is_named(tmp_path):
    bad = tmp_path / "talker.onnx"
    bad.write_bytes(b"\xff\xff not protobuf")
    with pytest.raises(ParityValueError) as error:
        read_initializers(bad)
    assert str(error.value).startswith(f"{bad}: not a readable ONNX model (")
