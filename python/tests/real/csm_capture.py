"""CSM decode steps for capture_check (docs/real-models.md "Capture findings"): the backbone's one-frame
forward over a StaticCache, and the depth decoder's per-codebook decode step, as CSM's generate() calls them."""

from __future__ import annotations

import torch

__all__ = ["backbone_decode_steps", "backbone_step", "depth_decoder_decode_steps", "depth_decoder_step"]


def _static_cache(config, max_cache_len):
    from transformers import StaticCache

    return StaticCache(config=config, max_cache_len=max_cache_len)


def backbone_decode_steps(parts, max_cache_len=32, count=2):
    """Prefill the text prompt into a StaticCache, then yield `count` decode steps' arguments for
    `backbone_step`: (codes [1, 1, q] of the previous frame, cache_position [1], cache)."""
    model = parts.model
    length = parts.input_ids.shape[1]
    cache = _static_cache(model.config, max_cache_len)
    model(input_ids=parts.input_ids, past_key_values=cache, cache_position=torch.arange(length), use_cache=True)
    generator = torch.Generator().manual_seed(9)
    for k in range(count):
        codes = torch.randint(1, parts.q * 8, (1, 1, parts.q), generator=generator) % 60 + 1
        yield (codes, torch.tensor([length + k]), cache)


def backbone_step(parts):
    def step(codes, cache_position, cache):
        return parts.model(input_ids=codes, past_key_values=cache, cache_position=cache_position, use_cache=True).logits

    return step


def depth_decoder_decode_steps(parts, max_cache_len=None):
    """The depth decoder's frame: a 2-position prefill (backbone hidden state in place of position 0, code 0),
    then decode steps for codebooks 2..q-1; yields those steps' arguments for `depth_decoder_step`
    (codes [1, 1], cache_position [1], cache)."""
    decoder = parts.model.depth_decoder
    cache = _static_cache(decoder.config, max_cache_len or parts.q + 1)
    generator = torch.Generator().manual_seed(10)
    hidden = torch.randn(1, decoder.config.backbone_hidden_size, generator=generator)
    out = decoder(
        input_ids=torch.tensor([[0, 5]]),
        backbone_last_hidden_state=hidden,
        past_key_values=cache,
        cache_position=torch.arange(2),
        use_cache=True,
        logits_to_keep=1,
    )
    code = out.logits[:, -1:].argmax(-1)
    for k in range(2, parts.q):
        yield (code, torch.tensor([k]), cache)
        code = torch.full((1, 1), k, dtype=torch.long)


def depth_decoder_step(parts):
    def step(codes, cache_position, cache):
        return parts.model.depth_decoder(
            input_ids=codes, past_key_values=cache, cache_position=cache_position, use_cache=True, logits_to_keep=1
        ).logits

    return step
