"""Seed 004 on qwen-tts's real Qwen3-TTS: the manual KV-cached code-predictor loop (written from the seed's
description: a DynamicCache, a 2-token prefill, then explicit decode steps with step-specific codec
embeddings and heads) that replaces `code_predictor.generate()` inside the talker's forward, and the seed's
classes of bug planted in it (docs/real-models-qwen3-tts.md). An example, never imported by `tts_parity`.

Greedy only: the seed's `_sample_token()` draws its random numbers in another order than HF's sampler, so
sampled codes are not expected to match `generate()` code for code.
"""

from __future__ import annotations

import contextlib
import types

import torch
from transformers import DynamicCache

__all__ = ["BUGS", "generate_codes", "manual_code_predictor"]

BUGS = ("position-off-by-one", "generation-step-stuck", "kv-cache-not-reset", "wrong-embedding-table")


def generate_codes(code_predictor, inputs_embeds, *, bug=None, state=None):
    """The seed's `generate_codes()`, greedy.

    Args:
        code_predictor: qwen-tts's `Qwen3TTSTalkerCodePredictorModelForConditionalGeneration`.
        inputs_embeds: [B, 2, talker hidden] float: the talker's last hidden state and the codec
            embedding of code 0, what the talker's forward passes to `code_predictor.generate()`.
        bug: None, or one of BUGS (planted on purpose, for the localisation tests).
        state: a dict kept across calls (the "kv-cache-not-reset" bug keeps its cache there).

    Returns: [B, Q-1] int64, codebooks 1..Q-1.
    """
    steps = code_predictor.config.num_code_groups - 1
    heads, tables = code_predictor.lm_head, code_predictor.model.get_input_embeddings()
    if bug == "kv-cache-not-reset":  # noqa: SIM108 (the two lines say which is the bug)
        cache = state.setdefault("cache", DynamicCache())  # the bug: one cache for every frame
    else:
        cache = DynamicCache()  # a fresh cache per frame
    device = inputs_embeds.device

    def forward(embeds, positions, head):
        out = code_predictor.model(
            inputs_embeds=code_predictor.small_to_mtp_projection(embeds),
            past_key_values=cache,
            use_cache=True,
            cache_position=positions,
            position_ids=positions[None],
        )
        return heads[head](out.last_hidden_state)[:, -1]  # the head over every new position, as generate()'s forward

    token = forward(inputs_embeds, torch.arange(2, device=device), 0).argmax(-1, keepdim=True)  # prefill: codebook 1
    codes = [token]
    generation_step = 1
    for i in range(1, steps):  # decode: codebooks 2..Q-1
        position = i + 1 + (1 if bug == "position-off-by-one" else 0)
        table = generation_step if bug == "wrong-embedding-table" else generation_step - 1
        embeds = tables[table](token)
        token = forward(embeds, torch.tensor([position], device=device), generation_step).argmax(-1, keepdim=True)
        codes.append(token)
        if bug != "generation-step-stuck":
            generation_step += 1
    return torch.cat(codes, dim=1)


@contextlib.contextmanager
def manual_code_predictor(model, bug=None):
    """Inside the block, the talker's forward gets its codebooks 1..Q-1 from `generate_codes` instead of
    `code_predictor.generate()` (the seed's change), for `Qwen3TTSForConditionalGeneration` `model`."""
    if bug is not None and bug not in BUGS:
        raise ValueError(f"bug {bug!r}: expected one of {', '.join(BUGS)}")
    code_predictor = model.talker.code_predictor
    state = {}

    def generate(inputs_embeds, **kwargs):
        if kwargs.get("do_sample"):
            raise ValueError("manual_code_predictor: greedy only (subtalker_dosample=False)")
        return types.SimpleNamespace(sequences=generate_codes(code_predictor, inputs_embeds, bug=bug, state=state))

    code_predictor.generate = generate  # an instance attribute shadows GenerationMixin.generate
    try:
        yield
    finally:
        del code_predictor.generate
