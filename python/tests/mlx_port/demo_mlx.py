"""An MLX port of the demo bundle's talker and code predictor: a test fixture, and the example of
docs/other-runtimes.md "MLX". The same weights (the bundle's ONNX initializers) and the same ops as the PyTorch twin
(tts_parity/demo/layers.py: RMSNorm, rotate-half RoPE, grouped-query attention, SwiGLU), greedy with EOS suppressed
(the frame count ends the utterance), decoded one of two ways:

- `incremental`: a KV cache per layer grown by concatenation, one position per decode step;
- `full`: every step recomputes the whole sequence (the text prefill, then each earlier frame's audio feedback)
  without a cache, and reads its last position.

`history_off_by_one=N` plants seed 002's class into the incremental path: from step N on, layer 0 attends over its
cached history less the first position (a window that starts one token late), as the MLX encoder of seed 002 whose
cached path parted from the full one at one token, in layer 0 with history present.

Every row goes to tts_parity's TraceWriter as the MLX array it is (lazy, float32 or bfloat16): the writer reads it
through the array protocols, which evaluates it there. tts_parity never imports MLX; this file does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import mlx.core as mx
import numpy as np

from tts_parity import TraceWriter
from tts_parity.demo.architecture import RMS_EPS
from tts_parity.demo.bundle import Manifest, read_manifest
from tts_parity.demo.text import tokenize
from tts_parity.demo.weights import read_initializers
from tts_parity.module_sidecar import sidecar_path_for, write_module_sidecar

MODES = ("incremental", "full")
TAPPED = r"^talker\.layers\.\d+\.(self_attn|mlp)$"  # what the sidecar holds, named as the twin's modules


def _rms_norm(x: mx.array, weight: mx.array) -> mx.array:
    return (x * mx.reciprocal(mx.sqrt(mx.mean(x * x, axis=-1, keepdims=True) + RMS_EPS))) * weight


class Decoder:
    """The decoder stack of one network: `__call__(x [S, hidden], positions [S], cache)` -> final-normed [S, hidden]."""

    def __init__(self, weights: dict, layers: int, heads: int, kv_heads: int, head_dim: int):
        def w(name: str) -> mx.array:
            return mx.array(weights[name].astype(np.float32))

        self.heads, self.kv_heads, self.head_dim = heads, kv_heads, head_dim
        names = ("input_layernorm", "post_attention_layernorm")
        projections = ("attn.q_proj", "attn.k_proj", "attn.v_proj", "attn.o_proj", "mlp.gate_proj", "mlp.up_proj")
        self.layers = [
            {name: w(f"layers.{i}.{name}.weight") for name in (*names, *projections, "mlp.down_proj")}
            for i in range(layers)
        ]
        self.norm = w("norm.weight")
        self.inv_freq = mx.exp(w(f"const.rope_exponents_{head_dim}"))
        self.scale = float(np.float32(1 / math.sqrt(head_dim)))  # the export's float32 scale constant
        self.history_off_by_one = False  # the planted bug: layer 0 of a cached step drops its first key

    def __call__(self, x: mx.array, positions: mx.array, cache: list | None, taps: list | None = None) -> mx.array:
        """`taps`: a list that gets each layer's attention and MLP output at the last position, [1, 1, hidden],
        named as the PyTorch twin's modules (`talker.layers.0.self_attn`, ...)."""
        freqs = positions.astype(mx.float32)[:, None] * self.inv_freq[None, :]
        cos, sin = mx.cos(freqs), mx.sin(freqs)
        for i, layer in enumerate(self.layers):
            attn = self._attention(_rms_norm(x, layer["input_layernorm"]), layer, i, cos, sin, positions, cache)
            x = x + attn
            h = _rms_norm(x, layer["post_attention_layernorm"])
            gate = h @ layer["mlp.gate_proj"]
            mlp = ((gate * mx.sigmoid(gate)) * (h @ layer["mlp.up_proj"])) @ layer["mlp.down_proj"]
            x = x + mlp
            if taps is not None:
                taps += [(f"talker.layers.{i}.self_attn", attn[-1:][None]), (f"talker.layers.{i}.mlp", mlp[-1:][None])]
        return _rms_norm(x, self.norm)

    def _attention(self, h, layer, i, cos, sin, positions, cache):
        seq, d = h.shape[0], self.head_dim
        q = _rope((h @ layer["attn.q_proj"]).reshape(seq, self.heads, d).transpose(1, 0, 2), cos, sin)
        k = _rope((h @ layer["attn.k_proj"]).reshape(seq, self.kv_heads, d).transpose(1, 0, 2), cos, sin)
        v = (h @ layer["attn.v_proj"]).reshape(seq, self.kv_heads, d).transpose(1, 0, 2)
        if cache is not None:
            if cache[i] is not None:
                k, v = mx.concatenate([cache[i][0], k], axis=1), mx.concatenate([cache[i][1], v], axis=1)
            cache[i] = (k, v)
        visible = mx.arange(k.shape[1])[None, :] <= positions[:, None]  # [S, T]: key t seen by query s
        if self.history_off_by_one and i == 0 and cache is not None and k.shape[1] > seq:
            k, v, visible = k[:, 1:], v[:, 1:], visible[:, 1:]
        group = self.heads // self.kv_heads  # query head h reads KV head h // group (HF repeat_kv order)
        scores = (q.reshape(self.kv_heads, group, seq, d) @ k[:, None].swapaxes(-1, -2)) * self.scale
        probs = mx.softmax(mx.where(visible, scores, -math.inf), axis=-1)
        ctx = (probs @ v[:, None]).reshape(self.heads, seq, d).transpose(1, 0, 2).reshape(seq, self.heads * d)
        return ctx @ layer["attn.o_proj"]


def _rope(x: mx.array, cos: mx.array, sin: mx.array) -> mx.array:
    half = x.shape[-1] // 2
    x1, x2 = x[..., :half], x[..., half:]
    return mx.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)


@dataclass
class Step:
    """One step's raw rows as MLX arrays (never converted here) and the frame's codes."""

    talker_logits: mx.array  # [vocab]
    hidden: mx.array  # [hidden]
    codes: list
    code_predictor_logits: list  # q-1 rows [codebookSize]
    modules: list  # (name, output [1, 1, hidden]) of the talker's layers, in execution order


class DemoMlx:
    """The demo's talker and code predictor in MLX, from the bundle folder's weights."""

    def __init__(self, bundle: Path):
        m = self.manifest = read_manifest(Path(bundle))
        embed = read_initializers(m.folder / m.files["embed"])
        self.text_embedding = mx.array(embed["text_embedding.weight"].astype(np.float32))
        self.codec_embedding = mx.array(embed["codec_embedding.weight"].astype(np.float32))
        talker = read_initializers(m.folder / m.files["talker"])
        cp = read_initializers(m.folder / m.files["code_predictor"])
        t, c = m.talker, m.code_predictor
        self.talker = Decoder(talker, t.layers, t.heads, t.kv_heads, t.head_dim)
        self.lm_head = mx.array(talker["lm_head.weight"].astype(np.float32))  # [hidden, vocab]
        self.code_predictor = Decoder(cp, c.layers, c.heads, c.kv_heads, c.head_dim)
        self.cp_heads = mx.array(cp["lm_heads.weight"].astype(np.float32))  # [q-1, hidden, codebookSize]

    def _code_embedding(self, codebook: int, code: int) -> mx.array:
        return self.codec_embedding[code + codebook * self.manifest.codec_rows_per_codebook][None]

    def _feedback(self, codes: list) -> mx.array:
        """The next talker input: the previous frame's codec embeddings summed in codebook order, row by row."""
        total = self._code_embedding(0, codes[0])
        for q in range(1, len(codes)):
            total = total + self._code_embedding(q, codes[q])
        return total

    def decode(self, text: str, mode: str, history_off_by_one: int | None = None, dtype=mx.float32):
        """Yields one Step per frame (step 1 = the prefill). `dtype`: the rows' dtype as handed to the writer."""
        if mode not in MODES:
            raise ValueError(f"mode: expected one of {', '.join(MODES)}, found {mode!r}")
        m: Manifest = self.manifest
        ids, frames = tokenize(text, m)
        prefill = self.text_embedding[mx.array(ids)]
        cache: list | None = [None] * m.talker.layers if mode == "incremental" else None
        inputs, length, codes = [prefill], 0, None
        for s in range(1, frames + 1):
            self.talker.history_off_by_one = history_off_by_one is not None and s >= history_off_by_one
            if s > 1:
                inputs.append(self._feedback(codes))
            if cache is not None:
                x = inputs[-1]
                positions = mx.arange(length, length + x.shape[0])
            else:
                x = mx.concatenate(inputs, axis=0)
                positions = mx.arange(x.shape[0])
            length += inputs[-1].shape[0]
            taps: list = []
            hidden = self.talker(x, positions, cache, taps)[-1]
            row = hidden @ self.lm_head
            code0 = _greedy(row, suppress=m.eos)
            codes, cp_rows = self._predict_codes(hidden, code0)
            yield Step(row.astype(dtype), hidden.astype(dtype), codes, [r.astype(dtype) for r in cp_rows], taps)

    def _predict_codes(self, hidden: mx.array, code0: int):
        """The code predictor's cached loop: prefill [talker hidden, code 0's embedding] -> codebook 1, then one
        position per codebook, fed that codebook's embedding of the previous code, read by its own head."""
        cache: list = [None] * self.manifest.code_predictor.layers
        x = mx.concatenate([hidden[None], self._code_embedding(0, code0)], axis=0)
        positions = mx.arange(2)
        codes, rows = [code0], []
        for cb in range(1, self.manifest.codebooks):
            row = self.code_predictor(x, positions, cache)[-1] @ self.cp_heads[cb - 1]
            codes.append(_greedy(row))
            rows.append(row)
            x = self._code_embedding(cb, codes[-1])
            positions = mx.array([cb + 1])
        return codes, rows

    def write_trace(
        self, path: Path, text: str, mode: str, history_off_by_one: int | None = None, steps=None, modules=False
    ):
        """Writes the trace of `text` at `path` through tts_parity's writer, the MLX arrays as they are; `steps`:
        what decode() yielded for these arguments (decoded now when None); `modules`: also the talker layers'
        outputs, as a module sidecar beside the trace that its header names."""
        m = self.manifest
        planted = "" if history_off_by_one is None else f", history-off-by-one@{history_off_by_one}"
        sidecar = Path(sidecar_path_for(path)) if modules else None
        outputs = {}
        with TraceWriter(
            path,
            engine=f"mlx {mx.__version__} demo port ({mode}{planted})",
            q=m.codebooks,
            frame_rate=m.frame_rate,
            sample_rate=m.sample_rate,
            profile=mode,
            text=text,
            modules=sidecar.name if sidecar else None,
            force=True,
        ) as tw:
            for n, step in enumerate(steps if steps is not None else self.decode(text, mode, history_off_by_one), 1):
                tw.write_step(
                    step.talker_logits,
                    step.codes,
                    code_predictor_logits=step.code_predictor_logits,
                    hidden=step.hidden,
                )
                outputs[n] = step.modules
            if sidecar:
                write_module_sidecar(outputs, sidecar, modules=TAPPED, force=True)
        return path


def _greedy(row: mx.array, suppress: int | None = None) -> int:
    """The first maximum, as the engine picks (numpy's argmax: lowest id on ties); `suppress` masked first."""
    values = np.array(row, copy=True)
    if suppress is not None:
        values[suppress] = -np.inf
    return int(np.argmax(values))


def main(argv: list[str] | None = None) -> int:
    """`python demo_mlx.py --bundle DIR --text TEXT --mode full|incremental --out TRACE [--history-off-by-one N]`"""
    import argparse

    parser = argparse.ArgumentParser(description="trace the demo's MLX port (docs/other-runtimes.md, MLX)")
    parser.add_argument("--bundle", required=True, type=Path, help="the demo bundle (parity bundle build-demo)")
    parser.add_argument("--text", required=True)
    parser.add_argument("--mode", choices=MODES, required=True)
    parser.add_argument("--out", required=True, type=Path, help="the trace to write (replaced if it exists)")
    parser.add_argument("--history-off-by-one", type=int, metavar="N", help="plant seed 002's class from step N")
    parser.add_argument("--modules", action="store_true", help="also write the talker layers' outputs (a sidecar)")
    args = parser.parse_args(argv)
    DemoMlx(args.bundle).write_trace(args.out, args.text, args.mode, args.history_off_by_one, modules=args.modules)
    print(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
