"""shape-varies-across-steps: a KV cache grown by concatenation (docs/capture-check.md#shape-varies-across-steps).

A captured graph replays the shapes of the step it captured; step 3's longer cache does not fit it. The
check reports where each varying shape enters the step (here: both cache arguments, at the torch.cat that
first reads them), not the attention ops whose shapes merely follow.
"""

import torch

RULE = "shape-varies-across-steps"
DIM = 4
MAX_POSITIONS = 8


def unsafe_step(query, key, value, past_keys, past_values):
    """One attention read. query/key/value: [1, DIM] for this step; past_*: [positions so far, DIM]."""
    keys = torch.cat([past_keys, key], dim=0)  # capture-check: shape-varies-across-steps
    values = torch.cat([past_values, value], dim=0)  # capture-check: shape-varies-across-steps
    weights = torch.softmax(query @ keys.T / DIM**0.5, dim=-1)
    return weights @ values, keys, values


def safe_step(query, key, value, key_cache, value_cache, position):
    """Static buffers: caches [MAX_POSITIONS, DIM] written in place at `position` ([1] int64 on the device),
    attention over the whole buffer with the not-yet-written tail masked out."""
    key_cache.index_copy_(0, position, key)
    value_cache.index_copy_(0, position, value)
    visible = torch.arange(MAX_POSITIONS, device=position.device) <= position
    scores = (query @ key_cache.T / DIM**0.5).masked_fill(~visible, float("-inf"))
    return torch.softmax(scores, dim=-1) @ value_cache


def _projections(generator, device):
    return tuple(torch.randn(1, DIM, generator=generator).to(device) for _ in range(3))


def step_inputs(device="cpu"):
    """Decode steps 2 and 3 after a prefill of 2 positions: step 3's caches are step 2's outputs."""
    generator = torch.Generator().manual_seed(19)
    past_keys = torch.randn(2, DIM, generator=generator).to(device)
    past_values = torch.randn(2, DIM, generator=generator).to(device)
    step_2 = (*_projections(generator, device), past_keys, past_values)
    _, keys, values = unsafe_step(*step_2)
    return [step_2, (*_projections(generator, device), keys, values)]


def safe_step_inputs(device="cpu"):
    """The same steps on static buffers: the prefill written at positions 0-1, then positions 2 and 3."""
    generator = torch.Generator().manual_seed(19)
    key_cache = torch.zeros(MAX_POSITIONS, DIM, device=device)
    value_cache = torch.zeros(MAX_POSITIONS, DIM, device=device)
    key_cache[:2] = torch.randn(2, DIM, generator=generator).to(device)
    value_cache[:2] = torch.randn(2, DIM, generator=generator).to(device)
    return [
        (*_projections(generator, device), key_cache, value_cache, torch.tensor([position], device=device))
        for position in (2, 3)
    ]
