"""python-scalar-varies-across-steps: a Python step counter inside the step (docs/capture-check.md#python-scalar-varies-across-steps).

A captured graph holds the numbers it saw at capture: replayed at step 3 it still reads row 2 of the rotary
table and still scales by 0.9**2 — no error, silently stale output (the class of seed 000's stale state).
"""

import torch

RULE = "python-scalar-varies-across-steps"
DIM = 4
MAX_POSITIONS = 8


def unsafe_step(hidden, rope_table, step):
    """hidden: [1, DIM]; rope_table: [MAX_POSITIONS, DIM] angles; step: the decode position, a Python int."""
    angle = rope_table[step]  # capture-check: python-scalar-varies-across-steps
    decay = hidden * 0.9**step  # capture-check: python-scalar-varies-across-steps
    return hidden * angle.cos() + decay


def safe_step(hidden, rope_table, step):
    """step: [1] int64 device tensor the caller updates in place (`step.fill_(n)`) before each replay."""
    angle = rope_table.index_select(0, step)
    decay = hidden * torch.pow(0.9, step.to(hidden.dtype))
    return hidden * angle.cos() + decay


def _table(device):
    return (torch.arange(MAX_POSITIONS * DIM, dtype=torch.float32).reshape(MAX_POSITIONS, DIM) / 10).to(device)


def step_inputs(device="cpu"):
    generator = torch.Generator().manual_seed(19)
    table = _table(device)
    return [(torch.randn(1, DIM, generator=generator).to(device), table, step) for step in (2, 3)]


def safe_step_inputs(device="cpu"):
    generator = torch.Generator().manual_seed(19)
    table = _table(device)
    return [(torch.randn(1, DIM, generator=generator).to(device), table, torch.tensor([step], device=device))
            for step in (2, 3)]
