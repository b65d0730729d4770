"""tensor-from-python: tensors made from Python data inside the step (docs/capture-check.md#tensor-from-python).

`torch.tensor(list, device=...)` copies host memory to the device: during capture that copy is refused (or,
from pinned memory, recorded with whatever the host buffer holds at replay); the values are frozen either way.
"""

import torch

RULE = "tensor-from-python"
CODEBOOK_SIZE = 16
CODEBOOK_WEIGHTS = [1.0, 0.5, 0.25]


def unsafe_step(hidden, codes):
    """codes: [batch, 3] per-codebook codes; hidden: [batch, 3] per-codebook gains."""
    offsets = torch.tensor([0, CODEBOOK_SIZE, 2 * CODEBOOK_SIZE], device=codes.device)  # capture-check: tensor-from-python
    weights = torch.as_tensor(CODEBOOK_WEIGHTS, device=hidden.device)  # capture-check: tensor-from-python
    return codes + offsets, hidden * weights


def make_static_inputs(device="cpu"):
    """The constant built once, outside the step, and passed in like any other static input."""
    return torch.tensor(CODEBOOK_WEIGHTS, device=device)


def safe_step(hidden, codes, weights):
    """Offsets made on the device (arange), weights passed in."""
    offsets = torch.arange(3, device=codes.device) * CODEBOOK_SIZE
    return codes + offsets, hidden * weights


def step_inputs(device="cpu"):
    generator = torch.Generator().manual_seed(19)
    return [
        (torch.randn(2, 3, generator=generator).to(device), torch.randint(0, CODEBOOK_SIZE, (2, 3), generator=generator).to(device)),
        (torch.randn(2, 3, generator=generator).to(device), torch.randint(0, CODEBOOK_SIZE, (2, 3), generator=generator).to(device)),
    ]


def safe_step_inputs(device="cpu"):
    weights = make_static_inputs(device)
    return [(*args, weights) for args in step_inputs(device)]
