"""Example inputs for tracing: sizes unlike the smoke check's and unlike each other (so a length traced
into the graph shows there), values in range, from a fixed seed."""

from __future__ import annotations

import torch

__all__ = ["decoder_example", "encoder_example", "vocoder_example"]


def _generator():
    return torch.Generator().manual_seed(20261125)


def decoder_example(sizes, input_hidden, mode, dtype, device, generation_step=None, encoder=None):
    """(args, symbol sizes). Eager: 3 new positions after 2 past ones (fewer when maxPositions is small);
    graph: one position at row 3 (or the last row) of [1, Hkv, M, D] buffers, mask ones up to it. With an
    `encoder` section: its output after position_ids (eager: 5 positions, the last masked out; graph: maxPositions,
    the first 2 unmasked) and its mask."""
    g = _generator()
    m, hkv, d = sizes["maxPositions"], sizes["kvHeads"], sizes["headDim"]
    if mode == "eager":
        past = 2 if m >= 5 else 1
        new = min(3, m - past)
        positions = torch.arange(past, past + new)[None]
        mask = torch.ones(1, past + new, dtype=torch.long)
        kv_rows = past
    else:
        new, row = 1, min(3, m - 1)
        positions = torch.tensor([[row]])
        mask = (torch.arange(m) <= row).long()[None]
        kv_rows = past = m
    embeds = torch.randn(1, new, input_hidden, generator=g).to(dtype)
    kv = [torch.randn(1, hkv, kv_rows, d, generator=g).to(dtype) for _ in range(2 * sizes["layers"])]
    args = [embeds, mask, positions, *kv]
    if generation_step is not None:
        args.insert(0, torch.tensor([generation_step]))
    symbols = {"sequence_length": new, "past_sequence_length": past, "total_sequence_length": past + new}
    if encoder is not None:
        length = 5 if mode == "eager" else encoder["maxPositions"]
        valid = 4 if mode == "eager" else min(2, length)
        states = torch.randn(1, length, encoder["hidden"], generator=g).to(dtype)
        args[3:3] = [states, (torch.arange(length) < valid).long()[None]]
        symbols["encoder_sequence_length"] = length
    return [a.to(device) for a in args], symbols


def encoder_example(encoder, mode, device, vocab=256):
    """(args, symbol sizes): 6 text ids (eager), or maxPositions with the first 3 unmasked (graph)."""
    g = _generator()
    length = 6 if mode == "eager" else encoder["maxPositions"]
    valid = length if mode == "eager" else min(3, length)
    ids = torch.randint(0, vocab, (1, length), generator=g)
    args = [ids, (torch.arange(length) < valid).long()[None]]
    return [a.to(device) for a in args], {"sequence_length": length}


def vocoder_example(codebook_sizes, hop, device, frames=4, context=1):
    g = _generator()
    codes = torch.stack([torch.randint(0, size, (frames,), generator=g) for size in codebook_sizes], dim=1)[None]
    noise = torch.rand(1, frames * hop, generator=g) * 2 - 1
    args = [codes, noise, torch.tensor([0.25], dtype=torch.float64), torch.tensor([context])]
    return [a.to(device) for a in args], {"frames": frames, "samples": frames * hop}
