"""Qwen3-Omni talker decode step and CUDA graphs (docs/real-models.md "Capture findings").

`talker_decode_steps` drives the talker's own forward over a StaticCache for two consecutive decode steps, as
generate() calls it, for capture_check. `OmniTalkerGraphStep` is the capture-safe wrapper: static input and
position buffers, a device-side step counter, a float mask built on the device, the MoE block computed densely
over every expert (no nonzero/where), no host branches. It gives the talker's rows bit for bit (tested).
"""

from __future__ import annotations

import contextlib

import torch
import torch.nn.functional as F

__all__ = [
    "OmniTalkerGraphStep",
    "code_predictor_decode_steps",
    "code_predictor_step",
    "dense_moe",
    "talker_decode_steps",
    "talker_step",
]


def _static_cache(config, max_cache_len):
    from transformers import StaticCache

    return StaticCache(config=config, max_cache_len=max_cache_len)


def talker_decode_steps(talker, inputs_embeds, max_cache_len=32, count=2):
    """Prefill the talker over `inputs_embeds` [1, T, D] into a StaticCache, then yield the arguments of
    `count` decode steps (one token each) for `talker_step`: (input_ids [1, 1] the previous code 0,
    embeds [1, 1, D], cache_position [1], attention_mask [1, max_cache_len], cache). Consumed inside
    capture_check one step at a time."""
    length = inputs_embeds.shape[1]
    cache = _static_cache(talker.config.text_config, max_cache_len)
    mask = torch.ones(1, max_cache_len, dtype=torch.long)
    talker.rope_deltas = None
    talker(
        inputs_embeds=inputs_embeds,
        attention_mask=mask[:, :length],
        past_key_values=cache,
        cache_position=torch.arange(length),
        use_cache=True,
        talker_input_ids=torch.zeros(1, length, dtype=torch.long),
    )
    generator = torch.Generator().manual_seed(7)
    for k in range(count):
        embeds = torch.randn(1, 1, inputs_embeds.shape[-1], generator=generator)
        yield (torch.tensor([[k]]), embeds, torch.tensor([length + k]), mask, cache)


def talker_step(talker):
    """The talker's decode forward as generate() calls it (a fixed-size 2-D mask, the cache position, a StaticCache)."""

    def step(input_ids, embeds, cache_position, attention_mask, cache):
        out = talker(
            input_ids=input_ids,
            inputs_embeds=embeds,
            attention_mask=attention_mask,
            past_key_values=cache,
            cache_position=cache_position,
            use_cache=True,
            generation_step=0,
        )
        return out.logits

    return step


def code_predictor_decode_steps(talker, max_cache_len=8):
    """The code predictor's per-frame loop as its generate() runs it: a 2-position prefill (talker hidden
    state, codebook-0 embedding), then decode steps k = 1..q-2 with `generation_steps=k`; yields the decode
    steps' arguments for `code_predictor_step` (codes [1, 1], cache_position [1], generation_steps int, cache)."""
    predictor = talker.code_predictor
    cache = _static_cache(predictor.config, max_cache_len)
    generator = torch.Generator().manual_seed(8)
    hidden = torch.randn(1, 2, predictor.config.hidden_size, generator=generator)
    out = predictor(inputs_embeds=hidden, past_key_values=cache, cache_position=torch.arange(2), use_cache=True)
    code = out.logits[:, -1:].argmax(-1)
    for k in range(1, predictor.config.num_code_groups - 1):
        yield (code, torch.tensor([1 + k]), k, cache)
        code = torch.zeros(1, 1, dtype=torch.long)


def code_predictor_step(talker):
    def step(codes, cache_position, generation_steps, cache):
        out = talker.code_predictor(
            input_ids=codes,
            past_key_values=cache,
            cache_position=cache_position,
            use_cache=True,
            generation_steps=generation_steps,
        )
        return out.logits

    return step


def _dense_moe_forward(block, hidden_states):
    """Qwen3OmniMoeTalkerTextSparseMoeBlock.forward without data-dependent shapes: every expert runs on every
    token, weighted by its routing weight (0 where not selected). Same float operations per selected expert in
    the same order (expert index), and x + 0·y == x, so the result equals the sparse block's bit for bit."""
    batch_size, sequence_length, hidden_dim = hidden_states.shape
    hidden_states = hidden_states.view(-1, hidden_dim)
    router_logits = block.gate(hidden_states)
    routing_weights = F.softmax(router_logits, dim=1, dtype=torch.float)
    routing_weights, selected_experts = torch.topk(routing_weights, block.top_k, dim=-1)
    if block.norm_topk_prob:
        routing_weights /= routing_weights.sum(dim=-1, keepdim=True)
    routing_weights = routing_weights.to(hidden_states.dtype)
    dense = torch.zeros(
        hidden_states.shape[0], block.num_experts, dtype=hidden_states.dtype, device=hidden_states.device
    )
    dense.scatter_(1, selected_experts, routing_weights)  # [tokens, experts]
    final_hidden_states = torch.zeros_like(hidden_states)
    for expert_idx, expert_layer in enumerate(block.experts):
        final_hidden_states = final_hidden_states + expert_layer(hidden_states) * dense[:, expert_idx, None]
    shared_expert_output = block.shared_expert(hidden_states)
    shared_expert_output = F.sigmoid(block.shared_expert_gate(hidden_states)) * shared_expert_output
    final_hidden_states = final_hidden_states + shared_expert_output
    return final_hidden_states.reshape(batch_size, sequence_length, hidden_dim), router_logits


@contextlib.contextmanager
def dense_moe(talker):
    """Within the block, the talker's MoE blocks compute densely (_dense_moe_forward); restored after."""
    blocks = [layer.mlp for layer in talker.model.layers]
    for block in blocks:
        block.forward = _dense_moe_forward.__get__(block)
    try:
        yield
    finally:
        for block in blocks:
            del block.forward


class OmniTalkerGraphStep:
    """A capture-safe talker decode step: `decode()` reads `embeds` [1, 1, D] and the device-side `position`
    [1] (both static buffers the host fills before each replay) and returns the raw codec-head row [1, 1, V],
    with the KV cache in a StaticCache written in place at `position`. Prefill with `prefill(inputs_embeds)`
    (eager, as FULL_DECODE_ONLY). Call `decode()` inside `with dense_moe(talker):` (and capture it there)."""

    def __init__(self, talker, max_cache_len=32, device="cpu"):
        self.talker = talker
        config = talker.config.text_config
        self.cache = _static_cache(config, max_cache_len)
        self.max_cache_len = max_cache_len
        self.embeds = torch.zeros(1, 1, config.hidden_size, device=device)
        self.position = torch.zeros(1, dtype=torch.long, device=device)
        self.slots = torch.arange(max_cache_len, device=device)

    def prefill(self, inputs_embeds):
        length, device = inputs_embeds.shape[1], inputs_embeds.device
        self.talker.rope_deltas = None
        out = self.talker(
            inputs_embeds=inputs_embeds,
            attention_mask=torch.ones(1, length, dtype=torch.long, device=device),
            past_key_values=self.cache,
            cache_position=torch.arange(length, device=device),
            use_cache=True,
            talker_input_ids=torch.zeros(1, length, dtype=torch.long, device=device),
        )
        self.position.fill_(length)
        return out.logits[:, -1:]

    def decode(self):
        dtype = self.embeds.dtype
        visible = self.slots <= self.position  # [max_cache_len], on the device
        mask = torch.where(visible, 0.0, torch.finfo(dtype).min).to(dtype).view(1, 1, 1, self.max_cache_len)
        position_ids = self.position.view(1, 1, 1).expand(3, 1, 1)  # 3-D RoPE: text positions in all sections
        out = self.talker.model(
            inputs_embeds=self.embeds,
            attention_mask=mask,
            position_ids=position_ids,
            past_key_values=self.cache,
            cache_position=self.position,
            use_cache=True,
        )
        return self.talker.codec_head(out.last_hidden_state)
