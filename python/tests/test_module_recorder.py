"""ModuleRecorder and the numpy safetensors writer: what lands in the sidecar, in which order, under which key."""

import gc
import json
import os
import struct
import weakref

import numpy as np
import pytest
import torch

from tts_parity.errors import ParityError, ParityFileExistsError, ParityStateError, ParityTypeError, ParityValueError
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
    write_safetensors({"a": a, "b": b}, path, metadata={"schema": "x"})
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
    write_safetensors({"s": np.float32(2.5)}, tmp_path / "s.safetensors")
    tensors, _ = read_safetensors(tmp_path / "s.safetensors")
    assert tensors["s"].shape == () and float(tensors["s"]) == 2.5


def test_safetensors_refuses_non_string_metadata_and_reserved_name(tmp_path):
    with pytest.raises(ValueError, match="must be strings"):
        write_safetensors({"a": np.zeros(1, np.float32)}, tmp_path / "m.safetensors", metadata={"schema": 1})
    with pytest.raises(ValueError, match="reserved"):
        write_safetensors({"__metadata__": np.zeros(1, np.float32)}, tmp_path / "m.safetensors")
    assert not list(tmp_path.iterdir())  # nothing half-written
    with pytest.raises(
        ParityTypeError, match=r"the tensors come first, as in safetensors' save_file\(tensors, filename\)"
    ):
        write_safetensors(tmp_path / "m.safetensors", {"a": np.zeros(1, np.float32)})


def test_safetensors_refuses_to_replace_a_file_unless_forced(tmp_path):
    path = tmp_path / "t.safetensors"
    path.write_bytes(b"mine")
    with pytest.raises(
        ParityFileExistsError,
        match=r"^write_safetensors: path: .*t.safetensors already exists \(pass force=True to replace it\)$",
    ):
        write_safetensors({"a": np.zeros(1, np.float32)}, path)
    assert path.read_bytes() == b"mine"
    write_safetensors({"a": np.zeros(1, np.float32)}, path, force=True)
    assert list(read_safetensors(path)[0]) == ["a"]
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(ParityValueError, match=r"fifo is not a regular file \(a device, FIFO or socket\)"):
        write_safetensors({"a": np.zeros(1, np.float32)}, tmp_path / "fifo", force=True)


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
    with pytest.raises(
        ParityStateError,
        match=r"^step 1: ModuleRecorder\(.*x.safetensors\): step\(\) after close\(\): the recorder is closed",
    ):
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
    for mode, expected in (
        ("first", {"1/00000/0": [2.0, 3.0]}),
        ("each", {"1/00000/0#0": [2.0, 3.0], "1/00001/0#2": [2.0, 4.0]}),
    ):
        path = tmp_path / f"{mode}.safetensors"
        with ModuleRecorder(net, path, modules="^0$", tuple_outputs=mode) as rec:
            with rec.step(1):
                net(x)
        tensors, _ = read_safetensors(path)
        assert {k: v.tolist() for k, v in tensors.items()} == expected


class Returns(torch.nn.Module):
    """A module whose output is whatever it was made to return (called with x)."""

    def __init__(self, make):
        super().__init__()
        self.make = make

    def forward(self, x):
        return self.make(x)


@pytest.mark.parametrize(
    "make, first, each",
    [
        # A dict (as HF ModelOutput) whose values nest a tuple: every tensor leaf, at any depth.
        (
            lambda x: {"hidden": (x + 1, None), "cache": None, "logits": x * 2},
            {"1/00000/0": [2.0, 3.0]},
            {"1/00000/0#0.0": [2.0, 3.0], "1/00001/0#2": [2.0, 4.0]},
        ),
        # A list of dicts.
        (
            lambda x: [{"a": 3, "b": x - 1}, {"c": x * 3}],
            {"1/00000/0": [0.0, 1.0]},
            {"1/00000/0#0.1": [0.0, 1.0], "1/00001/0#1.0": [3.0, 6.0]},
        ),
    ],
    ids=["dict of tuple", "list of dicts"],
)
def test_nested_outputs_are_recorded_per_tensor_leaf(tmp_path, make, first, each):
    net = torch.nn.Sequential(Returns(make))
    for mode, expected in (("first", first), ("each", each)):
        path = tmp_path / f"{mode}.safetensors"
        with ModuleRecorder(net, path, modules="^0$", tuple_outputs=mode) as rec:
            with rec.step(1):
                net(torch.tensor([1.0, 2.0]))
        tensors, _ = read_safetensors(path)
        assert {k: v.tolist() for k, v in tensors.items()} == expected


@pytest.mark.parametrize(
    "make, kind", [(lambda x: None, "NoneType"), (lambda x: 3, "int"), (lambda x: {"n": 1, "m": None}, "dict")]
)
def test_an_output_with_no_tensor_is_named_at_close_never_silently_skipped(tmp_path, make, kind):
    net = torch.nn.Sequential(Returns(make), torch.nn.Identity())
    path = tmp_path / "s.safetensors"
    rec = ModuleRecorder(net, path, modules="^0$")
    with rec.step(1):
        net[0](torch.zeros(2))
    with pytest.warns(
        UserWarning,
        match=rf"1 recorded module\(s\) returned no tensor, so nothing of theirs is in the sidecar "
        rf"\(0 returned {kind}\); record a submodule that returns one",
    ):
        rec.close()


@pytest.fixture
def pretend_capturing(monkeypatch):
    """graph_capture() runs as if the CUDA stream captured them (CPU has no capture): the recorder then reads its
    buffers at each step, as after a replay."""
    monkeypatch.setattr("tts_parity.module_recorder._capturing", lambda output: True)


def test_replayed_steps_read_the_buffers_and_equal_eager(tmp_path, pretend_capturing):
    """A run inside graph_capture() copies into the buffers what a replay's captured copies do; `with
    rec.step(n): pass` is the replay (no hook runs). Same keys, same order, same values as eager hooks."""
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
            with rec.graph_capture():
                net(static_x)  # the replay's captured copies
            with rec.step(s):
                pass  # the replay itself: no Python runs
    a, _ = read_safetensors(eager)
    b, _ = read_safetensors(static)
    assert list(a) == list(b) and len(a) == 3 * 6
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])


def test_graph_capture_refuses_a_changed_call_sequence(tmp_path):
    net = model()
    with ModuleRecorder(net, tmp_path / "z.safetensors", modules="mlp") as rec:
        with rec.graph_capture():
            net(torch.zeros(1, 4))
        with pytest.raises(ParityStateError, match="same modules"):
            with rec.graph_capture():
                net[0](torch.zeros(1, 4))


# One test per misuse (issue 30 item 1): the same error type (ParityStateError, a RuntimeError) and a message
# naming the step, as for StepRecorder (tests/test_step_recorder.py).


def test_a_step_entered_twice_is_refused_naming_it(tmp_path):
    """Issue 25's trial: a step entered twice restarted its sequence and recorded a step the trace lacks."""
    net = model()
    with ModuleRecorder(net, tmp_path / "t.safetensors", modules="mlp") as rec:
        with rec.step(1):
            net(torch.zeros(1, 4))
        with pytest.raises(
            ParityStateError,
            match=r"^step 1: ModuleRecorder\(.*\): step 1 entered twice; each step is entered once, in order$",
        ):
            with rec.step(1):
                net(torch.ones(1, 4))
    tensors, _ = read_safetensors(tmp_path / "t.safetensors")
    assert list(tensors) == ["1/00000/0.mlp", "1/00001/1.mlp"]
    assert (
        tensors["1/00000/0.mlp"].tolist()
        == net[0].mlp(torch.relu(net[0].proj(net[0].proj(torch.zeros(1, 4))))).tolist()
    )


def test_a_step_out_of_order_is_refused_naming_it(tmp_path):
    net = model()
    with ModuleRecorder(net, tmp_path / "o.safetensors", modules="mlp") as rec:
        with pytest.raises(
            ParityStateError, match=r"^step 2: ModuleRecorder\(.*\): entered after step 0, skipping step 1"
        ):
            with rec.step(2):
                pass
        for n in (1, 2, 3):
            with rec.step(n):
                net(torch.zeros(1, 4))
        with pytest.raises(
            ParityStateError, match=r"^step 2: .*entered after step 3; steps are entered 1, 2, 3\.\.\. in order"
        ):
            with rec.step(2):
                pass


def test_a_step_inside_a_step_or_a_capture_is_refused_naming_it(tmp_path):
    net = model()
    with ModuleRecorder(net, tmp_path / "i.safetensors", modules="mlp") as rec:
        with pytest.raises(ParityStateError, match=r"^step 2: .*entered inside step 1"):
            with rec.step(1), rec.step(2):
                pass
        with pytest.raises(
            ParityStateError, match=r"^step 2: .*entered inside graph_capture\(\); a capture is not a step"
        ):
            with rec.graph_capture(), rec.step(2):
                pass


def test_a_replay_step_with_buffers_no_capture_feeds_is_refused_naming_it(tmp_path):
    """The old "flush before capture": buffers filled while no stream captured are not a replay's outputs."""
    net = model()
    with ModuleRecorder(net, tmp_path / "r.safetensors", modules="mlp") as rec:
        with rec.graph_capture():
            net(torch.zeros(1, 4))
        with pytest.raises(
            ParityStateError,
            match=r"^step 1: ModuleRecorder: no recorded module ran inside the step, and no CUDA graph",
        ):
            with rec.step(1):
                pass


def test_no_class_of_the_public_api_answers_missing_attributes():
    # The 0.2 shims' `__getattr__ -> Any` made type checkers accept any misspelt name (python/CHANGELOG.md).
    from tts_parity import StepRecorder, TraceWriter
    from tts_parity.hf import HFTraceRecorder
    from tts_parity.static_buffers import StaticBuffers

    for cls in (ModuleRecorder, StaticBuffers, HFTraceRecorder, TraceWriter, StepRecorder):
        assert "__getattr__" not in vars(cls), cls.__name__
    assert issubclass(ParityStateError, (ParityError, RuntimeError))


def test_bad_arguments_are_named(tmp_path):
    path = tmp_path / "n.safetensors"
    cases = [
        (
            lambda: ModuleRecorder(model(), path, modules="attention"),
            ParityValueError,
            r"^ModuleRecorder: modules: 'attention' matches no submodule",
        ),
        (
            lambda: ModuleRecorder(model(), path, modules="(mlp"),
            ParityValueError,
            r"^ModuleRecorder: modules: '\(mlp' is not a regular expression",
        ),
        (
            lambda: ModuleRecorder(model(), path, modules=3),
            ParityTypeError,
            r"^ModuleRecorder: modules: expected a regular expression \(str\), found int",
        ),
        (
            lambda: ModuleRecorder(model(), path, modules="mlp", steps=[0]),
            ParityValueError,
            r"^ModuleRecorder: steps: expected an integer >= 1 \(1 = the prefill\), found 0",
        ),
        (
            lambda: ModuleRecorder(model(), path, modules="mlp", steps=["1"]),
            ParityTypeError,
            r"^ModuleRecorder: steps: expected an integer >= 1",
        ),
        (
            lambda: ModuleRecorder(model(), path, modules="mlp", tuple_outputs="all"),
            ParityValueError,
            r"^ModuleRecorder: tuple_outputs: expected one of first, each, found 'all'",
        ),
        (
            lambda: ModuleRecorder("model", path, modules="mlp"),
            ParityTypeError,
            r"^ModuleRecorder: model: expected a torch.nn.Module, found str",
        ),
        (
            lambda: ModuleRecorder(model(), 5, modules="mlp"),
            ParityTypeError,
            r"^ModuleRecorder: path: expected a file path \(str or os.PathLike\), found int",
        ),
        (
            lambda: ModuleRecorder(model(), tmp_path, modules="mlp"),
            ParityValueError,
            r"^ModuleRecorder: path: .* is a folder \(give a file path\)",
        ),
    ]
    for call, kind, message in cases:
        with pytest.raises(kind, match=message):
            call()
    path.write_bytes(b"mine")
    with pytest.raises(
        ParityFileExistsError,
        match=r"^ModuleRecorder: path: .*n.safetensors already exists \(pass force=True to replace it\)",
    ):
        ModuleRecorder(model(), path, modules="mlp")
    with ModuleRecorder(model(), path, modules="mlp", force=True) as rec:
        with rec.step(1):
            rec  # noqa: B018 - no module runs: nothing recorded
    assert read_safetensors(path)[0] == {}


def test_sidecar_path_for_a_trace():
    assert sidecar_path_for("run/a.jsonl") == "run/a.modules.safetensors"


def test_calls_outside_any_block_are_counted_and_named_at_close(tmp_path):
    net = model()
    path = tmp_path / "s.modules.safetensors"
    rec = ModuleRecorder(net, path, modules="mlp")
    with rec.step(1):
        net(torch.zeros(1, 4))
    net(torch.ones(1, 4))  # step 2's call, outside `with rec.step(2):`
    with pytest.warns(
        UserWarning,
        match=r"2 forward call\(s\) of recorded modules ran outside `recorder.step\(n\)` and "
        r"`recorder.graph_capture\(\)` and were not recorded \(0.mlp x1, 1.mlp x1\)",
    ):
        rec.close()
    tensors, _ = read_safetensors(path)
    assert list(tensors) == ["1/00000/0.mlp", "1/00001/1.mlp"]


def test_steps_not_wanted_are_entered_and_not_stored(tmp_path, recwarn):
    net = model()
    with ModuleRecorder(net, tmp_path / "ok.modules.safetensors", modules="mlp", steps=[3]) as rec:
        for step in (1, 2, 3):
            with rec.step(step):
                net(torch.full((1, 4), float(step)))
    assert not [w for w in recwarn if "ModuleRecorder" in str(w.message)]
    tensors, _ = read_safetensors(tmp_path / "ok.modules.safetensors")
    assert list(tensors) == ["3/00000/0.mlp", "3/00001/1.mlp"]


def test_an_unclosed_recorder_is_collected_while_its_model_lives(tmp_path):
    net = model()
    path = tmp_path / "u.modules.safetensors"
    rec = ModuleRecorder(net, path, modules="mlp")
    with rec.step(1):
        net(torch.zeros(1, 4))
    alive = weakref.ref(rec)
    with pytest.warns(
        UserWarning,
        match=r"u.modules.safetensors\) was never closed: the 2 output\(s\) it recorded \(step 1\) are kept as "
        r".*u.modules.safetensors.partial; call close\(\) or use `with`",
    ):
        del rec  # the model lives on: its hooks hold the recorder only weakly
        gc.collect()
    assert alive() is None
    assert all(not m._forward_hooks for m in net.modules()), "the finalizer removes the hooks"
    net(torch.zeros(1, 4))  # the model still runs, and nothing is recorded any more
    assert not path.exists(), "an unclosed recorder leaves nothing under the real name"
    tensors, _ = read_safetensors(str(path) + ".partial")
    assert list(tensors) == ["1/00000/0.mlp", "1/00001/1.mlp"]


def test_a_failed_block_keeps_nothing_under_the_real_name(tmp_path):
    net = model()
    path = tmp_path / "f.modules.safetensors"
    with pytest.warns(UserWarning, match=r"step 2 raised: what it recorded is kept as .*f.modules.safetensors.partial"):
        with ModuleRecorder(net, path, modules="mlp") as rec:
            with rec.step(1):
                net(torch.zeros(1, 4))
            with pytest.raises(RuntimeError, match="boom"), rec.step(2):
                net(torch.ones(1, 4))
                raise RuntimeError("boom")
    assert not path.exists()
    tensors, _ = read_safetensors(str(path) + ".partial")
    assert sorted({key.split("/")[0] for key in tensors}) == ["1", "2"], (
        "the failed step's outputs are kept, as .partial"
    )
    escaped = tmp_path / "e.modules.safetensors"
    with pytest.raises(ValueError), ModuleRecorder(net, escaped, modules="mlp") as rec:
        with rec.step(1):
            net(torch.zeros(1, 4))
        raise ValueError("after the step")
    assert not escaped.exists() and (tmp_path / "e.modules.safetensors.partial").exists()


def test_an_unclosed_recorder_that_recorded_nothing_says_so(tmp_path):
    net = model()
    rec = ModuleRecorder(net, tmp_path / "n.modules.safetensors", modules="mlp")
    net(torch.zeros(1, 4))  # outside any step: dropped, and counted
    with pytest.warns(
        UserWarning, match=r"never closed: it had recorded nothing, so no sidecar was written; .*2 forward call\(s\)"
    ):
        del rec
        gc.collect()
    assert os.listdir(tmp_path) == []
