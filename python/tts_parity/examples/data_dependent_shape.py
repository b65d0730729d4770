"""data-dependent-shape: ops whose output size depends on tensor values (docs/capture-check.md#data-dependent-shape).

Sizing such an output needs the values on the host (a sync, seed 001's `req_rows[decode_mask]`), and a graph
replays fixed sizes. The rewrite keeps every tensor at full size and applies the mask arithmetically.
"""

import torch

RULE = "data-dependent-shape"
VOCAB = 8


def unsafe_step(hidden, active, codes, counts):
    """hidden: [batch, dim]; active: [batch] bool (rows still decoding); codes, counts: [batch] int64."""
    live = hidden[active]  # capture-check: data-dependent-shape
    live_rows = active.nonzero()  # capture-check: data-dependent-shape
    live_codes = torch.masked_select(codes, active)  # capture-check: data-dependent-shape
    distinct = torch.unique(codes)  # capture-check: data-dependent-shape
    expanded = torch.repeat_interleave(codes, counts)  # capture-check: data-dependent-shape
    return live.sum(0), live_rows, live_codes, distinct, expanded


def safe_step(hidden, active, codes, counts):
    """Full-size forms: a multiply for the masked sum, torch.where for the masked codes, a presence vector
    instead of unique, and repeat_interleave told its output size (every row expands to 2 here)."""
    live_sum = (hidden * active.unsqueeze(-1).to(hidden.dtype)).sum(0)
    live_codes = torch.where(active, codes, torch.full_like(codes, -1))
    present = torch.zeros(VOCAB, dtype=torch.bool, device=codes.device).scatter_(0, codes, True)
    expanded = torch.repeat_interleave(codes, counts, output_size=2 * codes.numel())
    return live_sum, live_codes, present, expanded


def step_inputs(device="cpu"):
    """Decode steps 2 and 3 of a batch of three."""
    generator = torch.Generator().manual_seed(19)
    counts = torch.tensor([2, 2, 2])
    return [
        tuple(t.to(device) for t in (torch.randn(3, 4, generator=generator), torch.tensor([True, False, True]),
                                     torch.tensor([5, 1, 5]), counts)),
        tuple(t.to(device) for t in (torch.randn(3, 4, generator=generator), torch.tensor([True, True, True]),
                                     torch.tensor([2, 7, 1]), counts)),
    ]
