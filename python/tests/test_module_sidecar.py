"""tts_parity.module_sidecar.write_module_sidecar: module outputs recorded by hand (an engine without torch hooks) in
the sidecar format ModuleRecorder writes: keys by step and execution order, float32, the schema in the metadata;
refusals name the step and the output."""

import numpy as np
import pytest

from tts_parity.errors import ParityFileExistsError, ParityTypeError, ParityValueError
from tts_parity.module_sidecar import SIDECAR_SCHEMA, write_module_sidecar
from tts_parity.safetensors_io import read_safetensors

from optional_modules import mlx_core

mx = mlx_core()


def test_outputs_are_keyed_by_step_and_order_as_float32(tmp_path):
    path = tmp_path / "a.modules.safetensors"
    outputs = {
        2: [("layers.0.attn", mx.array([[1.5, -2.0]]).astype(mx.bfloat16)), ("layers.0.attn", np.array([3, 4]))],
        1: [("embed", [0.25])],
    }
    write_module_sidecar(outputs, path, modules="^(embed|layers\\.0\\.attn)$")
    tensors, metadata = read_safetensors(path)
    assert list(tensors) == ["1/00000/embed", "2/00000/layers.0.attn", "2/00001/layers.0.attn"]
    assert all(t.dtype == np.float32 for t in tensors.values())
    assert tensors["2/00000/layers.0.attn"].tolist() == [[1.5, -2.0]]
    assert tensors["2/00001/layers.0.attn"].tolist() == [3.0, 4.0]
    assert metadata == {"schema": SIDECAR_SCHEMA, "modules": "^(embed|layers\\.0\\.attn)$", "tuple_outputs": "first"}
    with pytest.raises(ParityFileExistsError):
        write_module_sidecar(outputs, path, modules="x")


COMPLEX = (
    "complex values (complex64): a trace holds real values; give the real part (x.real), the magnitude (abs(x))"
    " or a real tensor"
)


@pytest.mark.parametrize(
    ("outputs", "error", "message"),
    [
        ({0: []}, ParityValueError, "write_module_sidecar: outputs: step: expected an integer >= 1 (1 = the prefill), "
         "found 0"),
        ({1: [("", [1.0])]}, ParityValueError, "write_module_sidecar: step 1: output 0: expected a (module name, "
         "output) pair with a non-empty name, found name ''"),
        ({1: [[1.0]]}, ParityValueError, "write_module_sidecar: step 1: output 0: expected a (module name, output) "
         "pair with a non-empty name, found list"),
        ({1: [("attn", mx.array([1j]))]}, ParityValueError, f'write_module_sidecar: step 1: "attn": {COMPLEX}'),
        ({1: [("attn", ["a"])]}, ParityValueError, 'write_module_sidecar: step 1: "attn": expected numbers, found '
         "dtype <U1"),
        ([("attn", [1.0])], ParityTypeError, "write_module_sidecar: outputs: expected a dict of step -> [(name, "
         "output), ...], found list"),
    ],
)  # fmt: skip
def test_refusals_name_the_step_and_output(tmp_path, outputs, error, message):
    path = tmp_path / "a.modules.safetensors"
    with pytest.raises(error) as raised:
        write_module_sidecar(outputs, path, modules="x")
    assert str(raised.value) == message
    assert not path.exists()
