"""KV caches behind one interface, HF's: `update(key_states, value_states, layer_idx, cache_kwargs)` -> (keys,
values) [1, kvHeads, T, D], with the step's positions as `cache_kwargs["cache_position"]` (as transformers'
StaticCache takes them).

DynamicCache (profile eager): K/V grow by concatenation each step, as HF's DynamicCache and the
engine's eager export do. StaticKVCache (profile graph): fixed [1, kvHeads, maxPositions, D] buffers
written in place at the step's positions (index_copy_ with a device index, so a captured graph
replays the write at whatever position the position buffer holds); attention then spans the whole
buffer and the caller masks the rows not yet written.
"""

from __future__ import annotations

from typing import Any

import torch

from ..errors import ParityValueError

__all__ = ["DynamicCache", "StaticKVCache", "causal_mask"]


class DynamicCache:
    def __init__(self, layers: int):
        self.keys: list[Any] = [None] * layers
        self.values: list[Any] = [None] * layers

    def update(
        self,
        key_states: torch.Tensor,
        value_states: torch.Tensor,
        layer_idx: int,
        cache_kwargs: dict[str, Any] | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Appends the step's K/V [1, kvHeads, S, D] to layer `layer_idx`'s and returns them all (positions unused)."""
        layer, k, v = layer_idx, key_states, value_states
        if self.keys[layer] is not None:
            k = torch.cat([self.keys[layer], k], dim=2)
            v = torch.cat([self.values[layer], v], dim=2)
        self.keys[layer], self.values[layer] = k, v
        return k, v


class StaticKVCache:
    def __init__(self, layers: int, kv_heads: int, max_positions: int, head_dim: int, device):
        shape = (1, kv_heads, max_positions, head_dim)
        self.keys = [torch.zeros(shape, device=device) for _ in range(layers)]
        self.values = [torch.zeros(shape, device=device) for _ in range(layers)]
        self.max_positions = max_positions

    def update(
        self,
        key_states: torch.Tensor,
        value_states: torch.Tensor,
        layer_idx: int,
        cache_kwargs: dict[str, Any] | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Writes the step's K/V [1, kvHeads, S, D] into layer `layer_idx`'s buffers at rows
        `cache_kwargs["cache_position"]` [S] int64 (a device tensor) and returns the whole buffers."""
        positions = (cache_kwargs or {}).get("cache_position")
        if positions is None:
            raise ParityValueError(
                'StaticKVCache.update: cache_kwargs: expected {"cache_position": positions [S] int64}'
            )
        self.keys[layer_idx].index_copy_(2, positions, key_states)
        self.values[layer_idx].index_copy_(2, positions, value_states)
        return self.keys[layer_idx], self.values[layer_idx]

    def zero_(self) -> None:
        for t in self.keys + self.values:
            t.zero_()


def causal_mask(positions: torch.Tensor, total: int) -> torch.Tensor:
    """bool [S, total]: key t visible to the query at positions[s] when t <= positions[s]. Over a static
    buffer this also hides every row not written yet (they all lie after the current position)."""
    keys = torch.arange(total, device=positions.device)
    return keys[None, :] <= positions[:, None]
