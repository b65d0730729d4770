"""The forward protocol export_bundle exports (docs/python-export.md), and the three helpers that make
one module serve both the eager (dynamic KV) and the graph (static KV buffer) export.

Talker:          forward(inputs_embeds, attention_mask, position_ids, *past) -> (logits, last_hidden_state, *present)
Code predictor:  forward(generation_step, inputs_embeds, attention_mask, position_ids, *past) -> (logits, *present)
Vocoder:         forward(audio_codes, noise, phase0, context_frames) -> (audio, end_phase)

`past` and `present` are flat: past_key_values.0.key, past_key_values.0.value, past_key_values.1.key, ...
Each decoder has a boolean attribute `static_cache`, which export_bundle sets: False for the eager export
(past [1, Hkv, P, D], present [1, Hkv, P+S, D]: the new K/V appended), True for the graph export (past and
present [1, Hkv, M, D] buffers: the new K/V written at rows position_ids, everything else unchanged).
"""

from __future__ import annotations

import torch

__all__ = ["attention_allowed", "repeat_kv", "write_kv"]


def write_kv(past, new, position_ids, static_cache):
    """The layer's K or V after this call. past: [B, Hkv, P, D] (eager) or the [B, Hkv, M, D] buffer
    (graph); new: [B, Hkv, S, D]; position_ids: [B, S] int64.

    Eager: `cat` along the positions. Graph: ScatterElements of the S new rows at position_ids, so the
    shape never changes and the engine can bind the same buffer as input and output."""
    if not static_cache:
        return torch.cat([past, new], dim=2)
    b, h, s, d = new.shape
    rows = position_ids[:, None, :, None].expand(b, h, s, d)
    return past.scatter(2, rows, new)


def attention_allowed(attention_mask, position_ids):
    """[B, 1, S, T] bool: key k is visible to the query at position p when k <= p and attention_mask[k] > 0.

    T is attention_mask's width, which is the key length in both exports (eager: past + new positions,
    graph: the buffer's M rows), and key k sits at position k in both. Reads both inputs, as the engine
    feeds both."""
    keys = torch.arange(attention_mask.shape[1], device=attention_mask.device)
    causal = keys[None, None, None, :] <= position_ids[:, None, :, None]
    return causal & (attention_mask[:, None, None, :] > 0)


def repeat_kv(x, times):
    """Grouped-query attention: [B, Hkv, T, D] -> [B, Hkv * times, T, D], each KV head repeated `times`
    times in place (as repeat_interleave on dim 1), with expand + reshape and sizes read from x.shape:
    repeat_interleave traces the example length into a Reshape (torch.onnx.export, TorchScript exporter)."""
    if times == 1:
        return x
    b, h, t, d = x.shape
    return x[:, :, None].expand(b, h, times, t, d).reshape(b, h * times, t, d)
