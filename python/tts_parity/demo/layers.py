"""The decoder blocks of the demo architecture, op for op as electron/engine/demo/decoder-graph.ts builds
its eager export: RMSNorm (x·(1/sqrt(mean(x²)+eps))·w), rotate-half RoPE, grouped-query attention
(HF repeat_kv order: query head h reads KV head h // (heads/kvHeads)), SwiGLU (silu(gate)·up → down).

Linear weights are the exports' MatMul weights [in, out] transposed into nn.Linear's [out, in].
Module names follow HF transformers (`layers.0.self_attn`, `layers.0.mlp`), so module recording by
regex reads as it would on a real engine.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import torch
from torch import nn

if TYPE_CHECKING:
    from .weights import BundleWeights


__all__ = ["Attention", "DecoderLayer", "DecoderStack", "RMSNorm", "SwiGLU", "apply_rope", "rope_tables"]


class RMSNorm(nn.Module):
    def __init__(self, hidden: int, eps: float):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden), requires_grad=False)
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        mean_square = (x * x).mean(-1, keepdim=True)
        inv = torch.reciprocal(torch.sqrt(mean_square + self.eps))
        return (x * inv) * self.weight


def rope_tables(exponents: torch.Tensor, positions: torch.Tensor):
    """cos, sin [S, headDim/2] for positions [S] (int64): inv_freq = exp(exponents), as rope-tables.ts."""
    freqs = positions.to(torch.float32)[:, None] * torch.exp(exponents)[None, :]
    return torch.cos(freqs), torch.sin(freqs)


def apply_rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """Rotate-half RoPE on x [1, h, S, D]: [x1·cos − x2·sin, x2·cos + x1·sin]."""
    half = x.shape[-1] // 2
    x1, x2 = x[..., :half], x[..., half:]
    return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)


class Attention(nn.Module):
    def __init__(self, hidden: int, heads: int, kv_heads: int, head_dim: int):
        super().__init__()
        self.heads, self.kv_heads, self.head_dim = heads, kv_heads, head_dim
        self.q_proj = nn.Linear(hidden, heads * head_dim, bias=False)
        self.k_proj = nn.Linear(hidden, kv_heads * head_dim, bias=False)
        self.v_proj = nn.Linear(hidden, kv_heads * head_dim, bias=False)
        self.o_proj = nn.Linear(heads * head_dim, hidden, bias=False)
        # float32(1/sqrt(D)), the export's scale constant.
        self.scale = float(torch.tensor(1 / math.sqrt(head_dim), dtype=torch.float32))

    def _split(self, y: torch.Tensor, n: int) -> torch.Tensor:
        return y.reshape(1, y.shape[1], n, self.head_dim).transpose(1, 2)

    def forward(self, x, rope, cache, layer: int, positions, allowed):
        """x [1, S, hidden]; allowed: bool [S, T] (key t visible to query s); cache stores and returns K/V."""
        cos, sin = rope
        q = apply_rope(self._split(self.q_proj(x), self.heads), cos, sin)
        k = apply_rope(self._split(self.k_proj(x), self.kv_heads), cos, sin)
        v = self._split(self.v_proj(x), self.kv_heads)
        keys, values = cache.update(k, v, layer, {"cache_position": positions})
        group = self.heads // self.kv_heads
        seq = x.shape[1]
        qg = q.reshape(1, self.kv_heads, group, seq, self.head_dim)
        scores = torch.matmul(qg, keys[:, :, None].transpose(-1, -2)) * self.scale
        probs = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
        ctx = torch.matmul(probs, values[:, :, None]).reshape(1, self.heads, seq, self.head_dim)
        return self.o_proj(ctx.transpose(1, 2).reshape(1, seq, self.heads * self.head_dim))


class SwiGLU(nn.Module):
    """down(silu(gate(x)) · up(x)). `fault_scale` (fault mlp-scale@N) is a buffer the decode loop sets
    to the scale from step N on; it lives here so that a hook on this module sees the planted bug."""

    def __init__(self, hidden: int, ffn: int):
        super().__init__()
        self.gate_proj = nn.Linear(hidden, ffn, bias=False)
        self.up_proj = nn.Linear(hidden, ffn, bias=False)
        self.down_proj = nn.Linear(ffn, hidden, bias=False)
        self.register_buffer("fault_scale", None)

    def plant_scale_fault(self, planted: bool) -> None:
        """Puts the scale buffer in (at 1: exact until the loop sets it) or takes it out."""
        self.fault_scale = torch.ones((), device=self.down_proj.weight.device) if planted else None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        gate = self.gate_proj(x)
        out = self.down_proj((gate * torch.sigmoid(gate)) * self.up_proj(x))
        return out if self.fault_scale is None else out * self.fault_scale


class DecoderLayer(nn.Module):
    def __init__(self, hidden, heads, kv_heads, head_dim, ffn, eps):
        super().__init__()
        self.input_layernorm = RMSNorm(hidden, eps)
        self.self_attn = Attention(hidden, heads, kv_heads, head_dim)
        self.post_attention_layernorm = RMSNorm(hidden, eps)
        self.mlp = SwiGLU(hidden, ffn)

    def forward(self, x, rope, cache, layer, positions, allowed):
        h = x + self.self_attn(self.input_layernorm(x), rope, cache, layer, positions, allowed)
        return h + self.mlp(self.post_attention_layernorm(h))


class DecoderStack(nn.Module):
    """layers + final norm; subclasses add their heads. forward -> final-normed hidden [1, S, hidden]."""

    def __init__(self, w: BundleWeights, network: str, sizes, eps: float):
        super().__init__()
        ffn = w.array(network, "layers.0.mlp.gate_proj.weight").shape[1]
        self.layers = nn.ModuleList(
            DecoderLayer(sizes.hidden, sizes.heads, sizes.kv_heads, sizes.head_dim, ffn, eps)
            for _ in range(sizes.layers)
        )
        self.norm = RMSNorm(sizes.hidden, eps)
        self.register_buffer("rope_exponents", w.tensor(network, f"const.rope_exponents_{sizes.head_dim}"))
        self.sizes = sizes
        self._load(w, network)

    def _load(self, w: BundleWeights, network: str) -> None:
        with torch.no_grad():
            for i, layer in enumerate(self.layers):
                p = f"layers.{i}."
                layer.input_layernorm.weight.copy_(w.tensor(network, p + "input_layernorm.weight"))
                layer.post_attention_layernorm.weight.copy_(w.tensor(network, p + "post_attention_layernorm.weight"))
                for proj in ("q_proj", "k_proj", "v_proj", "o_proj"):
                    getattr(layer.self_attn, proj).weight.copy_(
                        w.tensor(network, p + f"attn.{proj}.weight", transpose=True)
                    )
                for proj in ("gate_proj", "up_proj", "down_proj"):
                    getattr(layer.mlp, proj).weight.copy_(w.tensor(network, p + f"mlp.{proj}.weight", transpose=True))
            self.norm.weight.copy_(w.tensor(network, "norm.weight"))

    def decode(self, embeds, cache, positions, allowed) -> torch.Tensor:
        rope = rope_tables(self.rope_exponents, positions)
        x = embeds
        for i, layer in enumerate(self.layers):
            x = layer(x, rope, cache, i, positions, allowed)
        return self.norm(x)
