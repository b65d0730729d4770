"""A planted bug in a PyTorch decode loop, found by `parity compare-trace` through the module sidecars.

The loop is written here: a small talker (embedding, two residual blocks with an MLP each, a head), greedy.
B's layer-0 MLP scales its own output by 1.5 from step 5 on (the fault sits inside the module, reading the
step from a tensor, so the same code runs eagerly and on static buffers). A and B are traced with
TraceWriter + ModuleRecorder; the CLI must name step 5 and the module `layers.0.mlp`.
"""

import contextlib
import json
from unittest import mock

import pytest
import torch

from tts_parity.module_recorder import ModuleRecorder, sidecar_path_for
from tts_parity.trace_writer import TraceWriter

from parity_cli import run_parity

VOCAB, DIM, STEPS, FAULT_STEP = 48, 32, 8, 5
MODULES = r"^(embed|layers\.\d+(\.mlp)?|head)$"
# Execution order within a step: embed, layers.0.mlp, layers.0, layers.1.mlp, layers.1, head.
ORDER = ["embed", "layers.0.mlp", "layers.0", "layers.1.mlp", "layers.1", "head"]


class Mlp(torch.nn.Module):
    def __init__(self, step, fault):
        super().__init__()
        self.up = torch.nn.Linear(DIM, 2 * DIM)
        self.down = torch.nn.Linear(2 * DIM, DIM)
        self.step, self.fault = step, fault

    def forward(self, x):
        out = self.down(torch.nn.functional.silu(self.up(x)))
        if self.fault:  # the planted bug: from FAULT_STEP on, this module's output is scaled
            out = out * torch.where(self.step >= FAULT_STEP, 1.5, 1.0)
        return out


class Block(torch.nn.Module):
    def __init__(self, step, fault):
        super().__init__()
        self.norm = torch.nn.LayerNorm(DIM)
        self.mlp = Mlp(step, fault)

    def forward(self, x):
        return x + self.mlp(self.norm(x))


class Talker(torch.nn.Module):
    def __init__(self, fault):
        super().__init__()
        self.register_buffer("step", torch.zeros((), dtype=torch.long))
        self.embed = torch.nn.Embedding(VOCAB, DIM)
        self.layers = torch.nn.ModuleList([Block(self.step, fault and i == 0) for i in range(2)])
        self.head = torch.nn.Linear(DIM, VOCAB)

    def forward(self, token, state):
        x = self.embed(token) + state
        for layer in self.layers:
            x = layer(x)
        return self.head(x), x


def talker(fault):
    torch.manual_seed(7)
    return Talker(fault).eval()


def decode(model, folder, name, static):
    """Greedy decode of STEPS frames; eager (hooks record each step) or from static buffers: the step runs inside
    graph_capture() (the copies a replay's captured kernels make) and `with rec.step(n): pass` is the replay, with
    `_capturing` made true (CPU has no capture; the CUDA test below captures for real)."""
    trace = folder / f"{name}.jsonl"
    sidecar = sidecar_path_for(trace)
    token = torch.zeros(1, dtype=torch.long)
    state = torch.zeros(1, DIM)
    pretend = (
        mock.patch("tts_parity.module_recorder._capturing", lambda output: True) if static else contextlib.nullcontext()
    )
    with (
        pretend,
        torch.no_grad(),
        TraceWriter(
            trace,
            engine=f"test loop {'static' if static else 'eager'}",
            q=1,
            frame_rate=12.5,
            sample_rate=24000,
            modules=f"{name}.modules.safetensors",
        ) as tw,
        ModuleRecorder(model, sidecar, modules=MODULES) as rec,
    ):
        for n in range(1, STEPS + 1):
            model.step.fill_(n)
            if static:
                with rec.graph_capture():
                    logits, state_out = model(token, state)
                with rec.step(n):
                    pass
            else:
                with rec.step(n):
                    logits, state_out = model(token, state)
            code = int(torch.argmax(logits[0]))
            tw.write_step(logits[0], [code])
            token.fill_(code)
            state.copy_(state_out)
    return trace


def compare(a, b, *extra):
    cli = run_parity("compare-trace", a, b, "--json", *extra)
    assert cli.returncode == 0, cli.stderr
    return json.loads(cli.stdout)


@pytest.mark.parametrize("static", [False, True], ids=["eager", "static-buffers"])
def test_planted_mlp_scale_is_localised_to_step_and_module(tmp_path, static):
    a = decode(talker(fault=False), tmp_path, "a", static)
    b = decode(talker(fault=True), tmp_path, "b", static)
    report = compare(a, b)
    assert report["divergence"]["firstStep"] == FAULT_STEP
    drill = report["moduleDrill"]
    assert drill["status"] == "found" and drill["step"] == FAULT_STEP
    assert drill["module"]["name"] == "layers.0.mlp"
    # embed matched before it (the fault is inside the MLP, not upstream); the default tolerance is stated.
    assert drill["compared"] == ORDER.index("layers.0.mlp") + 1
    assert drill["tolerance"] == {"abs": 1e-4, "rel": 1e-4}
    assert drill["module"]["maxAbsDiff"] > 1e-3 and drill["module"]["nanCount"] == 0
    assert drill["skipped"] == 0 and drill["unmatched"] == 0


def test_identical_runs_have_no_divergence_to_drill(tmp_path):
    a = decode(talker(fault=False), tmp_path, "a", static=False)
    b = decode(talker(fault=False), tmp_path, "b", static=True)
    drill = compare(a, b)["moduleDrill"]
    assert drill["status"] == "no-divergence" and drill["module"] is None


def test_summary_and_report_md_name_the_module(tmp_path):
    a = decode(talker(fault=False), tmp_path, "a", static=False)
    b = decode(talker(fault=True), tmp_path, "b", static=False)
    out = tmp_path / "fixture"
    cli = run_parity("compare-trace", a, b, "--out", out)
    assert cli.returncode == 0, cli.stderr
    line = f"Module drill-down: step {FAULT_STEP}: first module whose output differs: layers.0.mlp, max |Δ|"
    assert line in cli.stdout
    assert line in (out / "report.md").read_text()
    assert (out / "a.modules.safetensors").read_bytes() == (tmp_path / "a.modules.safetensors").read_bytes()


@pytest.mark.skipif(not torch.cuda.is_available(), reason="CUDA-graph capture needs a CUDA GPU: did not run")
def test_planted_mlp_scale_is_localised_through_a_cuda_graph(tmp_path):
    """The hooks run once, at capture; every replay runs the captured copies, and step(n) reads them."""
    traces = {}
    for name, fault in (("a", False), ("b", True)):
        model = talker(fault).cuda()
        trace = tmp_path / f"{name}.jsonl"
        token = torch.zeros(1, dtype=torch.long, device="cuda")
        state = torch.zeros(1, DIM, device="cuda")
        with (
            torch.no_grad(),
            TraceWriter(
                trace,
                engine="test loop cuda-graph",
                q=1,
                frame_rate=12.5,
                sample_rate=24000,
                modules=f"{name}.modules.safetensors",
            ) as tw,
            ModuleRecorder(model, sidecar_path_for(trace), modules=MODULES) as rec,
        ):
            side = torch.cuda.Stream()
            side.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side), rec.graph_capture():
                model(token, state)  # warm-up, as torch.cuda.graph's docs ask (allocates the buffers)
            torch.cuda.current_stream().wait_stream(side)
            graph = torch.cuda.CUDAGraph()
            with rec.graph_capture(), torch.cuda.graph(graph):
                logits, state_out = model(token, state)
            for n in range(1, STEPS + 1):
                model.step.fill_(n)
                with rec.step(n):
                    graph.replay()
                code = int(torch.argmax(logits[0]))
                tw.write_step(logits[0], [code])
                token.fill_(code)
                state.copy_(state_out)
        traces[name] = trace
    drill = compare(traces["a"], traces["b"])["moduleDrill"]
    assert drill["status"] == "found" and drill["step"] == FAULT_STEP and drill["module"]["name"] == "layers.0.mlp"
