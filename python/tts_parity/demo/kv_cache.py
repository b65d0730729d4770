"""KV caches behind one interface, update(layer, k, v, positions) -> (keys, values) [1, kvHeads, T, D].

DynamicCache (profile eager): K/V grow by concatenation each step, as HF's DynamicCache and the
engine's eager export do. StaticKVCache (profile graph): fixed [1, kvHeads, maxPositions, D] buffers
written in place at the step's positions (index_copy_ with a device index, so a captured graph
replays the write at whatever position the position buffer holds); attention then spans the whole
buffer and the caller masks the rows not yet written.
"""

import torch


class DynamicCache:
    def __init__(self, layers: int):
        self.keys = [None] * layers
        self.values = [None] * layers

    def update(self, layer, k, v, positions):
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

    def update(self, layer, k, v, positions):
        self.keys[layer].index_copy_(2, positions, k)
        self.values[layer].index_copy_(2, positions, v)
        return self.keys[layer], self.values[layer]

    def zero_(self) -> None:
        for t in self.keys + self.values:
            t.zero_()


def causal_mask(positions: torch.Tensor, total: int) -> torch.Tensor:
    """bool [S, total]: key t visible to the query at positions[s] when t <= positions[s]. Over a static
    buffer this also hides every row not written yet (they all lie after the current position)."""
    keys = torch.arange(total, device=positions.device)
    return keys[None, :] <= positions[:, None]
