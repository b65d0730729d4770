"""state-tensor-varies-across-steps: one head per codebook picked by a Python index (docs/capture-check.md#state-tensor-varies-across-steps).

Qwen3-TTS's code predictor does this (`self.lm_head[generation_steps]`). No error at capture; replayed for
the next codebook, the graph still multiplies by the head it saw at capture — silently the wrong logits.
"""

import torch

RULE = "state-tensor-varies-across-steps"
DIM = 4
VOCAB = 6
CODEBOOKS = 4


class Heads(torch.nn.Module):
    """One output head per codebook, as a ModuleList (unsafe) and the same weights stacked (capture-safe)."""

    def __init__(self):
        super().__init__()
        generator = torch.Generator().manual_seed(23)
        self.heads = torch.nn.ModuleList(torch.nn.Linear(DIM, VOCAB, bias=False) for _ in range(CODEBOOKS))
        for head in self.heads:
            head.weight.data = torch.randn(VOCAB, DIM, generator=generator)
        self.register_buffer("stacked", torch.stack([head.weight.data for head in self.heads]))


def unsafe_step(heads, hidden, codebook):
    """hidden: [1, DIM]; codebook: which head, a Python int."""
    return heads.heads[codebook](hidden)  # capture-check: state-tensor-varies-across-steps


def safe_step(heads, hidden, codebook):
    """codebook: [1] int64 device tensor the caller updates in place (`codebook.fill_(n)`) before each replay."""
    weight = heads.stacked.index_select(0, codebook)[0]
    return hidden @ weight.T


def step_inputs(device="cpu"):
    generator = torch.Generator().manual_seed(29)
    heads = Heads().to(device)
    return [(heads, torch.randn(1, DIM, generator=generator).to(device), codebook) for codebook in (1, 2)]


def safe_step_inputs(device="cpu"):
    generator = torch.Generator().manual_seed(29)
    heads = Heads().to(device)
    return [
        (heads, torch.randn(1, DIM, generator=generator).to(device), torch.tensor([codebook], device=device))
        for codebook in (1, 2)
    ]
