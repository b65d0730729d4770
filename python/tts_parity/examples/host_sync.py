"""host-sync: a decode step that reads device values on the host (docs/capture-check.md#host-sync).

Every line marked `capture-check: host-sync` makes the host wait for the device: illegal while a CUDA graph
captures ("operation not permitted when stream is capturing"), seed 001's `int(num_tokens)`.
"""

import torch

RULE = "host-sync"
EOS = 3
PAD = 0


def unsafe_step(logits, finished):
    """Greedy pick of the next token for a batch, written the eager way. logits: [batch, vocab]; finished: [batch] bool."""
    next_token = logits.argmax(-1)
    if finished.all():  # capture-check: host-sync
        next_token = torch.full_like(next_token, PAD)
    eos_count = int((next_token == EOS).sum())  # capture-check: host-sync
    peak = logits.max().item()  # capture-check: host-sync
    tokens = next_token.tolist()  # capture-check: host-sync
    host_logits = logits.cpu()  # capture-check: host-sync
    print("peak logit", logits.max())  # capture-check: host-sync
    return next_token, eos_count, peak, tokens, host_logits


def safe_step(logits, finished):
    """The same step kept on the device: a tensor condition picks with torch.where, values stay tensors."""
    next_token = logits.argmax(-1)
    next_token = torch.where(finished.all(), torch.full_like(next_token, PAD), next_token)
    eos_count = (next_token == EOS).sum()
    peak = logits.max()
    return next_token, eos_count, peak


def step_inputs(device="cpu"):
    """Decode steps 2 and 3 of a batch of two."""
    generator = torch.Generator().manual_seed(19)
    return [
        (torch.randn(2, 8, generator=generator).to(device), torch.tensor([False, False]).to(device)),
        (torch.randn(2, 8, generator=generator).to(device), torch.tensor([False, True]).to(device)),
    ]
