"""What export adapters over transformers decoders share (qwen_tts_export, csm_export, dia_export): the protocol's
flat past/present tensors seen by transformers' attention as a Cache, the protocol's mask as a 4-D additive mask
(transformers passes a 4-D mask through unchanged), and a decoder config's shape as bundle.json states it. An
example, never imported by `tts_parity`."""

from __future__ import annotations

import torch
from transformers.cache_utils import Cache

from tts_parity.export import attention_allowed, write_kv

__all__ = ["FlatCache", "additive_mask", "decoder_shape"]


class FlatCache(Cache):
    """update() appends (eager export) or writes at position_ids (graph export) with tts_parity.export.write_kv;
    `present` holds the results in the protocol's order."""

    def __init__(self, past, position_ids, static_cache):  # no super().__init__: only update() is used
        self.past, self.position_ids, self.static_cache = list(past), position_ids, static_cache
        self.present = [None] * len(self.past)

    def update(self, key_states, value_states, layer_idx, cache_kwargs=None):
        i = 2 * layer_idx
        self.present[i] = write_kv(self.past[i], key_states, self.position_ids, self.static_cache)
        self.present[i + 1] = write_kv(self.past[i + 1], value_states, self.position_ids, self.static_cache)
        return self.present[i], self.present[i + 1]


def additive_mask(attention_mask, position_ids, dtype):
    """[B, 1, S, T]: 0 where the key is visible (tts_parity.export.attention_allowed), the dtype's lowest value
    elsewhere."""
    allowed = attention_allowed(attention_mask, position_ids)
    zero = torch.zeros((), dtype=dtype, device=allowed.device)
    return torch.where(allowed, zero, torch.full((), torch.finfo(dtype).min, dtype=dtype, device=allowed.device))


def decoder_shape(config) -> dict:
    """bundle.json's layers/heads/kvHeads/headDim/hidden of a talker or code predictor from its transformers config
    (a config without `head_dim` has hidden / heads, as transformers' attention assumes)."""
    return {
        "layers": config.num_hidden_layers,
        "heads": config.num_attention_heads,
        "kvHeads": config.num_key_value_heads,
        "headDim": getattr(config, "head_dim", None) or config.hidden_size // config.num_attention_heads,
        "hidden": config.hidden_size,
    }
