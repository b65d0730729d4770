"""ModuleRecorder and the numpy safetensors writer: what lands in the sidecar, in which order, under which key."""

import gc
import json
import os
import struct

import numpy as np
import pytest
import torch

from tts_parity.module_recorder import SIDECAR_SCHEMA, ModuleRecorder, sidecar_path_for
from tts_parity.safetensors_io import read_safetensors, write_safetensors


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(4, 4)
        self.mlp = torch.nn.Linear(4, 4)

    def forward(self, x):
        # proj runs twice per call: the sidecar must keep both calls apart.
        return self.mlp(torch.relu(self.proj(self.proj(x))))


class Pair(torch.nn.Module):
    def forward(self, x):
        return x + 1, None, x * 2


def model():
    torch.manual_seed(0)
    return torch.nn.Sequential(Block(), Block())


def test_safetensors_layout_is_the_documented_one(tmp_path):
    path = tmp_path / "t.safetensors"
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.array([1.5], dtype=np.float32)
    write_safetensors(path, {"a": a, "b": b}, {"schema": "x"})
    raw = path.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    assert n % 8 == 0  # padded with spaces, as the safetensors library pads
    header = json.loads(raw[8 : 8 + n])
    assert header["a"] == {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]}
    assert header["b"] == {"dtype": "F32", "shape": [1], "data_offsets": [24, 28]}
    assert header["__metadata__"] == {"schema": "x"}
    assert np.frombuffer(raw[8 + n : 8 + n + 24], "<f4").tolist() == a.ravel().tolist()
    tensors, metadata = read_safetensors(path)
    assert list(tensors) == ["a", "b"] and metadata == {"schema": "x"}
    np.testing.assert_array_equal(tensors["a"], a)


def test_safetensors_keeps_a_scalar_0_d(tmp_path):
    write_safetensors(tmp_path / "s.safetensors", {"s": np.float32(2.5)})
    tensors, _ = read_safetensors(tmp_path / "s.safetensors")
    assert tensors["s"].shape == () and float(tensors["s"]) == 2.5


def test_safetensors_refuses_non_string_metadata_and_reserved_name(tmp_path):
    with pytest.raises(ValueError, match="must be strings"):
        write_safetensors(tmp_path / "m.safetensors", {"a": np.zeros(1, np.float32)}, {"schema": 1})
    with pytest.raises(ValueError, match="reserved"):
        write_safetensors(tmp_path / "m.safetensors", {"__metadata__": np.zeros(1, np.float32)})
    assert not list(tmp_path.iterdir())  # nothing half-written


def test_eager_records_chosen_modules_at_chosen_steps_in_execution_order(tmp_path):
    net = model()
    path = tmp_path / "a.modules.safetensors"
    inputs = {s: torch.randn(1, 4) for s in (1, 2, 3)}
    with ModuleRecorder(net, path, modules=r"^0\.(proj|mlp)$", steps=[2, 3]) as rec:
        for s, x in inputs.items():
            with rec.step(s):
                net(x)
    tensors, metadata = read_safetensors(path)
    assert metadata["schema"] == SIDECAR_SCHEMA
    assert list(tensors) == [f"{s}/{i:05d}/{n}" for s in (2, 3) for i, n in enumerate(["0.proj", "0.proj", "0.mlp"])]
    # Expected values computed here from the block's own layers, not by the recorder.
    block = net[0]
    with torch.no_grad():
        for s in (2, 3):
            first = block.proj(inputs[s])
            second = block.proj(first)
            mlp = block.mlp(torch.relu(second))
            np.testing.assert_array_equal(tensors[f"{s}/00000/0.proj"], first.numpy())
            np.testing.assert_array_equal(tensors[f"{s}/00001/0.proj"], second.numpy())
            np.testing.assert_array_equal(tensors[f"{s}/00002/0.mlp"], mlp.numpy())


def test_close_removes_the_hooks(tmp_path):
    net = model()
    rec = ModuleRecorder(net, tmp_path / "x.safetensors", modules="proj")
    assert all(len(m._forward_hooks) == 1 for n, m in net.named_modules() if n.endswith("proj"))
    rec.close()
    assert all(len(m._forward_hooks) == 0 for m in net.modules())
    with pytest.raises(RuntimeError, match="closed"):
        with rec.step(1):
            pass


def test_recorded_values_are_copies(tmp_path):
    lin = torch.nn.Sequential(torch.nn.Identity())
    x = torch.ones(3)
    with ModuleRecorder(lin, tmp_path / "c.safetensors", modules="0") as rec:
        with rec.step(1):
            out = lin(x)
        out.mul_(5)  # an in-place change after the step must not reach the sidecar
    tensors, _ = read_safetensors(tmp_path / "c.safetensors")
    assert tensors["1/00000/0"].tolist() == [1.0, 1.0, 1.0]


def test_tuple_outputs_first_or_each(tmp_path):
    net = torch.nn.Sequential(Pair())
    x = torch.tensor([1.0, 2.0])
    for mode, expected in (("first", {"1/00000/0": [2.0, 3.0]}), ("each", {"1/00000/0#0": [2.0, 3.0], "1/00001/0#2": [2.0, 4.0]})):
        path = tmp_path / f"{mode}.safetensors"
        with ModuleRecorder(net, path, modules="^0$", tuple_outputs=mode) as rec:
            with rec.step(1):
                net(x)
        tensors, _ = read_safetensors(path)
        assert {k: v.tolist() for k, v in tensors.items()} == expected


def test_static_buffers_flush_equals_eager(tmp_path):
    """The static path (CPU: the step re-run inside `static()`, as a replay would run the captured copies)
    stores the same bytes as eager hooks: same keys, same order, same values."""
    net = model()
    xs = [torch.randn(1, 4) for _ in range(3)]
    eager, static = tmp_path / "e.safetensors", tmp_path / "s.safetensors"
    with ModuleRecorder(net, eager, modules="mlp|proj") as rec:
        for s, x in enumerate(xs, start=1):
            with rec.step(s):
                net(x)
    static_x = torch.zeros(1, 4)
    with ModuleRecorder(net, static, modules="mlp|proj", steps=range(1, 4)) as rec:
        for s, x in enumerate(xs, start=1):
            static_x.copy_(x)
            with rec.static():
                net(static_x)
            rec.flush(s)
    a, _ = read_safetensors(eager)
    b, _ = read_safetensors(static)
    assert list(a) == list(b) and len(a) == 3 * 6
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])


def test_static_refuses_a_changed_call_sequence(tmp_path):
    net = model()
    with ModuleRecorder(net, tmp_path / "z.safetensors", modules="mlp") as rec:
        with rec.static():
            net(torch.zeros(1, 4))
        with pytest.raises(RuntimeError, match="same modules"):
            with rec.static():
                net[0](torch.zeros(1, 4))


def test_bad_arguments_are_named(tmp_path):
    with pytest.raises(ValueError, match="matches no submodule"):
        ModuleRecorder(model(), tmp_path / "n.safetensors", modules="attention")
    with pytest.raises(ValueError, match="steps are integers >= 1"):
        ModuleRecorder(model(), tmp_path / "n.safetensors", modules="mlp", steps=[0])
    with pytest.raises(ValueError, match="tuple_outputs"):
        ModuleRecorder(model(), tmp_path / "n.safetensors", modules="mlp", tuple_outputs="all")


def test_sidecar_path_for_a_trace():
    assert sidecar_path_for("run/a.jsonl") == "run/a.modules.safetensors"


def test_static_flush_refuses_buffers_no_static_call_refreshed(tmp_path):
    """On CPU (no capture) a step called outside `static()` leaves step 2's outputs in the buffers: flushing
    them as step 3 would name the wrong module later, so flush refuses, and close names the unrecorded calls."""
    net = model()
    path = tmp_path / "s.modules.safetensors"
    rec = ModuleRecorder(net, path, modules="mlp")
    with rec.static():
        net(torch.zeros(1, 4))
    rec.flush(2)
    net(torch.ones(1, 4))  # step 3, outside `with rec.static():`
    with pytest.raises(RuntimeError, match=r"^flush\(3\): no `with recorder.static\(\):` call refreshed the module buffers since the last flush"):
        rec.flush(3)
    with pytest.raises(RuntimeError, match=r"^flush\(4\): no `with recorder.static\(\):`"):
        rec.flush(4)  # flushing twice without a call in between is the same mistake
    with pytest.warns(UserWarning, match=r"2 forward call\(s\) of recorded modules ran outside `recorder.step\(n\)` and `recorder.static\(\)` and were not recorded \(0.mlp ×1, 1.mlp ×1\)"):
        rec.close()
    tensors, _ = read_safetensors(path)
    assert list(tensors) == ["2/00000/0.mlp", "2/00001/1.mlp"]


def test_static_flush_after_each_static_call_does_not_warn(tmp_path, recwarn):
    net = model()
    with ModuleRecorder(net, tmp_path / "ok.modules.safetensors", modules="mlp", steps=[3]) as rec:
        for step in (2, 3):
            with rec.static():
                net(torch.full((1, 4), float(step)))
            rec.flush(step)  # step 2 is not wanted: still checked, not stored
    assert not [w for w in recwarn if "ModuleRecorder" in str(w.message)]
    tensors, _ = read_safetensors(tmp_path / "ok.modules.safetensors")
    assert list(tensors) == ["3/00000/0.mlp", "3/00001/1.mlp"]


def test_an_unclosed_recorder_writes_what_it_recorded_and_warns(tmp_path):
    net = model()
    path = tmp_path / "u.modules.safetensors"
    rec = ModuleRecorder(net, path, modules="mlp")
    with rec.step(1):
        net(torch.zeros(1, 4))
    with pytest.warns(UserWarning, match=r"u.modules.safetensors\) was never closed: wrote the 2 output\(s\) it recorded \(step 1\); call close\(\) or use `with`"):
        del rec, net  # the hooks keep the recorder alive as long as the model
        gc.collect()
    tensors, _ = read_safetensors(path)
    assert list(tensors) == ["1/00000/0.mlp", "1/00001/1.mlp"]


def test_an_unclosed_recorder_that_recorded_nothing_says_so(tmp_path):
    net = model()
    rec = ModuleRecorder(net, tmp_path / "n.modules.safetensors", modules="mlp")
    net(torch.zeros(1, 4))  # outside any step: dropped, and counted
    with pytest.warns(UserWarning, match=r"never closed: it had recorded nothing, so no sidecar was written; .*2 forward call\(s\)"):
        del rec, net
        gc.collect()
    assert os.listdir(tmp_path) == []
