"""Natural torch.onnx.export mistakes are caught by `parity bundle check DIR --smoke` (exit 2, one line
saying what to fix), not later at synth.

A small GQA talker (RMSNorm, RoPE, SwiGLU; 4 query heads over 2 KV heads, so the KV heads are
repeated) is written here and exported with torch.onnx.export (opset 17) as the talker of a small demo
bundle (`parity bundle build-demo --config`, which supplies embed, code predictor and vocoder). The
eager export grows its KV by concatenation, the graph export writes fixed buffers at position_ids; the
same weights go into both, so a correct pair passes the smoke check's eager-vs-graph run. Each test then
makes one mistake the way a PyTorch author would, and checks what the CLI says.
"""

import inspect
import json
import shutil

import pytest
import torch
from torch import nn

from parity_cli import run_parity

HIDDEN, LAYERS, HEADS, KV_HEADS, HEAD_DIM, FFN, MAX_POSITIONS = 32, 2, 4, 2, 8, 48, 64
CODEBOOK_SIZE = 32

# A demo config with the talker's sizes (docs/bundle-format.md, "The demo architecture at other sizes").
CONFIG = {
    "sampleRate": 16000,
    "frameRate": 50,
    "hopLength": 320,
    "codebooks": 4,
    "codebookSize": CODEBOOK_SIZE,
    "eosCode": CODEBOOK_SIZE,
    "bosCode": CODEBOOK_SIZE + 1,
    "textVocab": 257,
    "textBos": 256,
    "framesPerChar": 0.5,
    "maxTextBytes": 32,
    "maxFrames": 16,
    "talker": {
        "hidden": HIDDEN,
        "layers": LAYERS,
        "heads": HEADS,
        "kvHeads": KV_HEADS,
        "headDim": HEAD_DIM,
        "ffn": FFN,
        "maxPositions": MAX_POSITIONS,
        "ropeTheta": 10000,
        "eps": 1e-6,
    },
    "codePredictor": {
        "hidden": HIDDEN,
        "layers": 1,
        "heads": 2,
        "kvHeads": 1,
        "headDim": 8,
        "ffn": 32,
        "maxPositions": 4,
        "ropeTheta": 10000,
        "eps": 1e-6,
    },
    "vocoder": {
        "channels": 8,
        "convLayers": 1,
        "kernel": 3,
        "harmonics": 4,
        "f0Min": 90,
        "f0Max": 200,
        "leftContextFrames": 2,
        "chunkFrames": 4,
    },
    "overflow": {"layer": 1, "scale": 65536},
}

INPUTS = ["inputs_embeds", "attention_mask", "position_ids"] + [
    f"past_key_values.{i}.{kv}" for i in range(LAYERS) for kv in ("key", "value")
]
OUTPUTS = ["logits", "last_hidden_state"] + [f"present.{i}.{kv}" for i in range(LAYERS) for kv in ("key", "value")]


class Talker(nn.Module):
    """The shared layers. `gqa`: how the KV heads are repeated for the query heads."""

    def __init__(self, vocab=CODEBOOK_SIZE + 1, gqa="expand"):
        super().__init__()
        g = torch.Generator().manual_seed(7)

        def weight(*shape):
            return nn.Parameter(torch.randn(*shape, generator=g) * 0.2)

        self.gqa = gqa
        self.layers = nn.ModuleList()
        for _ in range(LAYERS):
            layer = nn.Module()
            layer.q, layer.k, layer.v = (
                weight(HIDDEN, HEADS * HEAD_DIM),
                weight(HIDDEN, KV_HEADS * HEAD_DIM),
                weight(HIDDEN, KV_HEADS * HEAD_DIM),
            )
            layer.o, layer.up, layer.gate, layer.down = (
                weight(HEADS * HEAD_DIM, HIDDEN),
                weight(HIDDEN, FFN),
                weight(HIDDEN, FFN),
                weight(FFN, HIDDEN),
            )
            self.layers.append(layer)
        self.head = weight(HIDDEN, vocab)
        self.register_buffer("inv_freq", 1.0 / (10000 ** (torch.arange(0, HEAD_DIM, 2).float() / HEAD_DIM)))

    @staticmethod
    def norm(x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)

    def rope(self, x, positions):
        angle = positions[:, None, :, None].float() * self.inv_freq
        x1, x2 = x[..., : HEAD_DIM // 2], x[..., HEAD_DIM // 2 :]
        return torch.cat([x1 * angle.cos() - x2 * angle.sin(), x1 * angle.sin() + x2 * angle.cos()], -1)

    def repeat_kv(self, k):
        if self.gqa == "repeat_interleave":  # the natural mistake: the exporter traces the length into a Reshape
            return k.repeat_interleave(HEADS // KV_HEADS, dim=1)
        b, n, t, d = k.shape
        return k[:, :, None].expand(b, n, HEADS // KV_HEADS, t, d).reshape(b, n * (HEADS // KV_HEADS), t, d)

    def forward_layers(self, x, positions, allowed, past, write_kv):
        presents = []
        b, s, _ = x.shape
        for i, layer in enumerate(self.layers):
            h = self.norm(x)
            q = self.rope((h @ layer.q).view(b, s, HEADS, HEAD_DIM).transpose(1, 2), positions)
            k = self.rope((h @ layer.k).view(b, s, KV_HEADS, HEAD_DIM).transpose(1, 2), positions)
            v = (h @ layer.v).view(b, s, KV_HEADS, HEAD_DIM).transpose(1, 2)
            k, v = write_kv(past[2 * i], past[2 * i + 1], k, v, positions)
            scores = (q @ self.repeat_kv(k).transpose(-1, -2)) / HEAD_DIM**0.5
            scores = torch.where(allowed, scores, torch.full_like(scores, -1e9))
            attn = (scores.softmax(-1) @ self.repeat_kv(v)).transpose(1, 2).reshape(b, s, HEADS * HEAD_DIM)
            x = x + attn @ layer.o
            h = self.norm(x)
            x = x + (nn.functional.silu(h @ layer.gate) * (h @ layer.up)) @ layer.down
            presents += [k, v]
        h = self.norm(x)
        return (h @ self.head, h, *presents)


class EagerTalker(nn.Module):
    """Dynamic shapes: the new K/V are appended to the past. `positions_from_past`: HF's default when
    no position_ids are given (the forward then never reads position_ids)."""

    def __init__(self, talker, positions_from_past=False):
        super().__init__()
        self.talker, self.positions_from_past = talker, positions_from_past

    def forward(self, inputs_embeds, attention_mask, position_ids, *past):
        if self.positions_from_past:
            start = past[0].shape[2]
            position_ids = torch.arange(start, start + inputs_embeds.shape[1])[None]
        key_positions = torch.arange(past[0].shape[2] + inputs_embeds.shape[1])
        allowed = (key_positions[None, None, None, :] <= position_ids[:, None, :, None]) & (
            attention_mask[:, None, None, :] > 0
        )
        return self.talker.forward_layers(
            inputs_embeds,
            position_ids,
            allowed,
            past,
            lambda pk, pv, k, v, _: (torch.cat([pk, k], 2), torch.cat([pv, v], 2)),
        )


class GraphTalker(nn.Module):
    """Static shapes: [1, KV_HEADS, MAX_POSITIONS, HEAD_DIM] buffers written at row position_ids, attention masked
    by attention_mask."""

    def __init__(self, talker):
        super().__init__()
        self.talker = talker

    def forward(self, inputs_embeds, attention_mask, position_ids, *past):
        def write_kv(pk, pv, k, v, positions):
            row = positions.view(1, 1, 1, 1).expand(1, KV_HEADS, 1, HEAD_DIM)
            return pk.scatter(2, row, k), pv.scatter(2, row, v)

        return self.talker.forward_layers(
            inputs_embeds, position_ids, attention_mask[:, None, None, :] > 0, past, write_kv
        )


# The TorchScript-based exporter (torch 1.13's only one) is the one whose pitfalls these are; torch ≥ 2.9
# defaults to the dynamo exporter, so ask for the TorchScript one where the choice exists.
EXPORTER = {"dynamo": False} if "dynamo" in inspect.signature(torch.onnx.export).parameters else {}

EAGER_AXES = {
    "inputs_embeds": {1: "sequence_length"},
    "attention_mask": {1: "total_sequence_length"},
    "position_ids": {1: "sequence_length"},
    "logits": {1: "sequence_length"},
    "last_hidden_state": {1: "sequence_length"},
    **{name: {2: "past_sequence_length"} for name in INPUTS[3:]},
    **{name: {2: "total_sequence_length"} for name in OUTPUTS[2:]},
}


def export_eager(module, path):
    # Example: 3 new positions after 2 past ones (what repeat_interleave bakes in).
    args = (
        torch.randn(1, 3, HIDDEN),
        torch.ones(1, 5, dtype=torch.long),
        torch.arange(2, 5)[None],
        *[torch.randn(1, KV_HEADS, 2, HEAD_DIM) for _ in range(2 * LAYERS)],
    )
    torch.onnx.export(
        module,
        args,
        str(path),
        input_names=INPUTS,
        output_names=OUTPUTS,
        dynamic_axes=EAGER_AXES,
        opset_version=17,
        **EXPORTER,
    )


def export_graph(module, path, dynamic_axes=None):
    mask = torch.zeros(1, MAX_POSITIONS, dtype=torch.long)
    mask[0, :4] = 1
    args = (
        torch.randn(1, 1, HIDDEN),
        mask,
        torch.tensor([[3]]),
        *[torch.randn(1, KV_HEADS, MAX_POSITIONS, HEAD_DIM) for _ in range(2 * LAYERS)],
    )
    torch.onnx.export(
        module,
        args,
        str(path),
        input_names=INPUTS,
        output_names=OUTPUTS,
        dynamic_axes=dynamic_axes,
        opset_version=17,
        **EXPORTER,
    )


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """The small demo bundle, fp32 eager and graph exports only (the torch talker replaces its talker)."""
    root = tmp_path_factory.mktemp("smoke-base")
    (root / "config.json").write_text(json.dumps(CONFIG))
    built = run_parity("bundle", "build-demo", "--config", root / "config.json", "--out", root / "bundle")
    assert built.returncode == 0, built.stderr
    manifest_path = root / "bundle" / "bundle.json"
    manifest = json.loads(manifest_path.read_text())
    for network in ("talker", "codePredictor"):
        manifest[network]["exports"] = {
            k: v for k, v in manifest[network]["exports"].items() if k in ("eager-fp32", "graph-fp32")
        }
    manifest["vocoder"]["exports"] = {"fp32": manifest["vocoder"]["exports"]["fp32"]}
    manifest_path.write_text(json.dumps(manifest, indent=2))
    return root / "bundle"


def with_talker(base, tmp_path, eager=None, graph=None, edit=None):
    """A copy of `base` whose talker eager-fp32 / graph-fp32 files are these torch modules' exports."""
    bundle = tmp_path / "bundle"
    shutil.copytree(base, bundle)
    manifest = json.loads((bundle / "bundle.json").read_text())
    if eager is not None:
        export_eager(eager, bundle / manifest["talker"]["exports"]["eager-fp32"]["file"])
    if graph is not None:
        graph(bundle / manifest["talker"]["exports"]["graph-fp32"]["file"])
    if edit is not None:
        edit(manifest)
        (bundle / "bundle.json").write_text(json.dumps(manifest, indent=2))
    return bundle


def one_line(run):
    assert run.stderr.endswith("\n") and run.stderr.count("\n") == 1, run.stderr
    assert "internal error" not in run.stderr and "\n    at " not in run.stderr
    return run.stderr.strip()


def test_a_talker_exported_right_passes_the_smoke_check(base, tmp_path):
    # The control: expand + reshape GQA, eager and graph from the same weights.
    talker = Talker()
    bundle = with_talker(base, tmp_path, EagerTalker(talker), lambda path: export_graph(GraphTalker(talker), path))
    run = run_parity("bundle", "check", bundle, "--smoke")
    assert run.returncode == 0, run.stderr
    assert "talker eager-fp32 (talker.eager.fp32.onnx): 4 runs" in run.stdout
    assert "eager vs graph (fp32): greedy on" in run.stdout and "codes identical" in run.stdout
    assert run.stdout.endswith("smoke OK\n")


def test_gqa_by_repeat_interleave_exports_at_every_length_on_torch_2(tmp_path):
    # torch 1.13's exporter traced repeat_interleave's example length into a Reshape (the export then failed at
    # any other length; test/cli/bundle-smoke.test.ts keeps such a file and the smoke check's diagnosis). torch
    # 2.x exports it with dynamic sizes: the ONNX file computes what the module does at every (length, past).
    import numpy as np
    import onnxruntime

    module = EagerTalker(Talker(gqa="repeat_interleave")).eval()
    export_eager(module, tmp_path / "talker.onnx")
    session = onnxruntime.InferenceSession(str(tmp_path / "talker.onnx"))
    names = [i.name for i in session.get_inputs()]
    for length, past_length in ((1, 0), (3, 0), (1, 5), (4, 2)):
        args = (
            torch.randn(1, length, HIDDEN),
            torch.ones(1, length + past_length, dtype=torch.long),
            torch.arange(past_length, past_length + length)[None],
            *[torch.randn(1, KV_HEADS, past_length, HEAD_DIM) for _ in range(2 * LAYERS)],
        )
        with torch.no_grad():
            expected = module(*args)[0].numpy()
        got = session.run(None, dict(zip(names, (a.numpy() for a in args))))[0]
        # float32 through a different op order: measured <= 2e-6 here.
        assert np.abs(got - expected).max() <= 1e-5, (length, past_length)


def test_symbolic_output_dims_in_a_graph_export_are_caught_by_smoke(base, tmp_path):
    # The eager export's output axes passed to the graph export too: its inputs are fixed, its outputs not.
    talker = Talker()
    output_axes = {name: axes for name, axes in EAGER_AXES.items() if name in OUTPUTS}
    bundle = with_talker(base, tmp_path, graph=lambda path: export_graph(GraphTalker(talker), path, output_axes))
    run = run_parity("bundle", "check", bundle, "--smoke")
    assert run.returncode == 2 and run.stdout == ""
    line = one_line(run)
    # ONNX Runtime infers [1, 1, 33] by itself, so only the file shows it: plain check passes.
    assert run_parity("bundle", "check", bundle).returncode == 0
    assert line.startswith(
        f'parity bundle check: smoke: talker graph-fp32 ({bundle / "talker.graph.fp32.onnx"}): output "logits" is '
        "declared [1, sequence_length, 33] in the model file, expected fixed [1, 1, 33] (bundle.json)"
    )
    assert "fix: a graph export's outputs must be pinned" in line


def test_a_declared_input_the_exporter_dropped_is_refused_with_the_fix(base, tmp_path):
    # Positions taken from the past length: the forward never reads position_ids, so torch drops the input.
    bundle = with_talker(base, tmp_path, EagerTalker(Talker(), positions_from_past=True))
    run = run_parity("bundle", "check", bundle, "--smoke")
    assert run.returncode == 2 and run.stdout == ""
    line = one_line(run)
    assert (
        f'{bundle / "talker.eager.fp32.onnx"}: input "position_ids" (talker eager-fp32) is declared in bundle.json as '
        "int64 [1, ?] but the model has no such input" in line
    )
    assert "fix: the exporter dropped it because the exported forward never reads it" in line


def widen_vocab(vocab, special_ids=None):
    def edit(manifest):
        manifest["talker"]["vocab"] = vocab
        if special_ids is not None:
            manifest["talker"]["specialIds"] = special_ids
        for export in manifest["talker"]["exports"].values():
            next(t for t in export["outputs"] if t["name"] == "logits")["shape"][2] = vocab

    return edit


def test_a_vocab_beyond_the_codebook_and_eos_is_refused_unless_its_extra_ids_are_masked(base, tmp_path):
    # 3 ids past the codebook and EOS (Qwen3-TTS-like special codec tokens) in both exports.
    vocab = CODEBOOK_SIZE + 4
    talker = Talker(vocab=vocab)
    unmasked = with_talker(
        base,
        tmp_path / "unmasked",
        EagerTalker(talker),
        lambda path: export_graph(GraphTalker(talker), path),
        widen_vocab(vocab),
    )
    run = run_parity("bundle", "check", unmasked, "--smoke")
    assert run.returncode == 2 and run.stdout == ""
    assert "talker.specialIds is missing: talker.vocab (36) > codebook size (32) + 1" in one_line(run)

    masked = with_talker(
        base,
        tmp_path / "masked",
        EagerTalker(talker),
        lambda path: export_graph(GraphTalker(talker), path),
        widen_vocab(vocab, {"suppress": "all-except-eos"}),
    )
    run = run_parity("bundle", "check", masked, "--smoke")
    assert run.returncode == 0, run.stderr
    assert "eager vs graph (fp32): greedy on" in run.stdout and run.stdout.endswith("smoke OK\n")
