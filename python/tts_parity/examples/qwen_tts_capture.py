"""What breaks if you CUDA-graph qwen-tts's Qwen3-TTS talker, and a decode step that does not break
(docs/real-models-qwen3-tts.md). An example, never imported by `tts_parity`; needs qwen-tts and torch.

- `stock_talker_steps` / `stock_code_predictor_steps`: the talker's decode forward over a StaticCache and
  the code predictor's per-token forward, as qwen-tts 0.1.1 runs them, for `capture_check`.
- `CaptureSafeStep`: one talker decode step built from the same modules and weights, with static buffers
  (StaticCache for both decoders, stacked per-codebook tables and heads, a text-conditioning table padded
  with tts_pad), device-side counters (position, generation step) and no host branch: its `decode()` takes
  no arguments and changes only its buffers, so a CUDA graph can capture it once and replay it per frame.
  Greedy; it gives `generate()`'s codes (tests/real/qwen_tts).
"""

from __future__ import annotations

import torch
from transformers import StaticCache

__all__ = ["CaptureSafeStep", "prompt_state", "stock_code_predictor_steps", "stock_talker_steps"]


class _Stop(Exception):
    pass


def prompt_state(model, text):
    """What `Qwen3TTSForConditionalGeneration.generate` hands the talker's `generate()` for `text` (language
    "english", no speaker): {inputs_embeds [1, L, H], attention_mask [1, L], trailing_text_hidden [1, T, H],
    tts_pad_embed [1, 1, H]}, taken from the call itself so the prompt is built by qwen-tts's own code."""
    from tts_parity.examples.qwen_tts_tiny import prompt_ids

    seen = {}

    def take(**kwargs):
        seen.update(kwargs)
        raise _Stop

    model.talker.generate = take
    try:
        with torch.no_grad():
            model.generate(
                input_ids=[prompt_ids(text).to(model.device)], languages=["english"], speakers=[None], max_new_tokens=2
            )
    except _Stop:
        pass
    finally:
        del model.talker.generate
    return {k: seen[k] for k in ("inputs_embeds", "attention_mask", "trailing_text_hidden", "tts_pad_embed")}


def _first_code(logits, config):
    """Greedy code 0 as generate() picks it (repetition penalty off): the special ids (the top 1024 of the
    vocabulary) suppressed except EOS."""
    row = logits[:, -1].clone()
    row[:, config.vocab_size - 1024 :] = -float("inf")
    row[:, config.codec_eos_token_id] = logits[:, -1, config.codec_eos_token_id]
    return row.argmax(-1, keepdim=True)


def stock_talker_steps(model, text, count=2, max_cache_len=64):
    """(talker_step, generator of its arguments): the talker's decode forward, as the talker's generate()
    calls it on a StaticCache (2-D mask, see qwen_tts_trace.static_cache), for decode steps 2..count+1; the
    prefill runs eagerly first. talker_step(input_ids, attention_mask, cache_position, past_hidden,
    generation_step) returns the forward's output."""
    talker = model.talker
    state = prompt_state(model, text)
    cache = StaticCache(config=talker.config, max_cache_len=max_cache_len)
    common = {
        "past_key_values": cache,
        "use_cache": True,
        "trailing_text_hidden": state["trailing_text_hidden"],
        "tts_pad_embed": state["tts_pad_embed"],
        "subtalker_dosample": False,
        "subtalker_top_k": 50,
        "subtalker_top_p": 1.0,
        "subtalker_temperature": 0.9,
    }

    def talker_step(input_ids, attention_mask, cache_position, past_hidden, generation_step):
        return talker(
            input_ids=input_ids,
            attention_mask=attention_mask,
            cache_position=cache_position,
            past_hidden=past_hidden,
            generation_step=generation_step,
            **common,
        )

    def steps():
        length = state["inputs_embeds"].shape[1]
        mask_device = state["attention_mask"].device
        talker.rope_deltas = None
        out = talker(
            inputs_embeds=state["inputs_embeds"],
            attention_mask=state["attention_mask"],
            cache_position=torch.arange(length, device=mask_device),
            **common,
        )
        mask = state["attention_mask"]
        for k in range(count):
            mask = torch.cat([mask, mask.new_ones(1, 1)], dim=1)
            token = _first_code(out.logits, talker.config)
            yield token, mask, torch.tensor([length + k], device=mask_device), out.past_hidden, out.generation_step
            out = last[0]

    last = [None]

    def recording_step(*args):
        last[0] = talker_step(*args)
        return last[0]

    return recording_step, steps()


def stock_code_predictor_steps(model, past_hidden, code0, count=2):
    """(cp_step, generator of its arguments): the code predictor's per-token decode forward
    (`Qwen3TTSTalkerCodePredictorModelForConditionalGeneration.forward`) over a StaticCache, codebooks
    2..count+1 of one frame, after its 2-position prefill. cp_step(input_ids, cache_position, generation_steps)."""
    cp = model.talker.code_predictor
    cache = StaticCache(config=cp.config, max_cache_len=cp.config.num_code_groups)

    def cp_step(input_ids, cache_position, generation_steps):
        return cp(
            input_ids=input_ids,
            cache_position=cache_position,
            past_key_values=cache,
            use_cache=True,
            generation_steps=generation_steps,
        )

    def steps():
        embeds = torch.cat([past_hidden, model.talker.get_input_embeddings()(code0)], dim=1)
        out = cp(
            inputs_embeds=embeds,
            cache_position=torch.arange(2, device=code0.device),
            past_key_values=cache,
            use_cache=True,
        )
        for k in range(count):
            yield out.logits[:, -1:].argmax(-1), torch.tensor([2 + k], device=code0.device), out.generation_steps
            out = last[0]

    last = [None]

    def recording_step(*args):
        last[0] = cp_step(*args)
        return last[0]

    return recording_step, steps()


class CaptureSafeStep:
    """qwen-tts's talker decode step (code predictor for the previous frame, audio feedback, talker) with
    static buffers, device-side counters and no host branch. `prefill()` runs eagerly (as vLLM's
    FULL_DECODE_ONLY); each `decode()` — the function a CUDA graph captures — then reads and writes only
    `self.code0`, `self.past_hidden`, `self.position`, `self.generation_step`, the two StaticCaches and
    `self.frame_codes` (the previous frame's Q codes), `self.logits` (this step's raw talker row)."""

    def __init__(self, model, state, *, max_positions=64, max_frames=32):
        talker, cp = model.talker, model.talker.code_predictor
        self.talker, self.cp, self.config = talker, cp, talker.config
        q = self.config.num_code_groups
        device = state["inputs_embeds"].device
        self.prompt = state
        self.cache = StaticCache(config=talker.config, max_cache_len=max_positions)
        self.cp_cache = StaticCache(config=cp.config, max_cache_len=q)
        # Per-codebook tables and heads stacked once: a device index picks one (no Python index per step).
        self.cp_tables = torch.stack([e.weight for e in cp.model.get_input_embeddings()])  # [Q-1, V, H]
        self.cp_heads = torch.stack([h.weight for h in cp.lm_head])  # [Q-1, V, Hcp]
        # Text conditioning: the trailing text rows, then tts_pad up to max_frames (replaces the host branch
        # `if generation_step < trailing_text_hidden.shape[1]`).
        trailing = state["trailing_text_hidden"]
        pad = state["tts_pad_embed"].expand(1, max(max_frames - trailing.shape[1], 0), -1)
        self.text_rows = torch.cat([trailing, pad], dim=1)[0]  # [max_frames, H]
        self.suppress = torch.zeros(self.config.vocab_size, device=device)
        self.suppress[self.config.vocab_size - 1024 :] = -float("inf")
        self.suppress[self.config.codec_eos_token_id] = 0.0
        self.key_index = torch.arange(max_positions, device=device)
        self.cp_positions = torch.arange(q, device=device)
        self.cp_codebooks = torch.arange(q - 1, device=device)
        allowed = self.cp_positions[None, :] <= self.cp_positions[:2, None]  # the prefill's 2 rows
        self.cp_prefill_mask = torch.where(allowed, 0.0, torch.finfo(torch.float32).min)[None, None]
        # State, written in place by decode().
        self.code0 = torch.zeros(1, 1, dtype=torch.long, device=device)
        self.past_hidden = torch.zeros(1, 1, self.config.hidden_size, device=device)
        self.position = torch.zeros(1, dtype=torch.long, device=device)
        self.generation_step = torch.zeros(1, dtype=torch.long, device=device)
        self.frame_codes = torch.zeros(1, q, dtype=torch.long, device=device)
        self.logits = torch.zeros(1, self.config.vocab_size, device=device)
        self.cp_codes = torch.zeros(1, q - 1, dtype=torch.long, device=device)
        self.cp_token = torch.zeros(1, 1, dtype=torch.long, device=device)
        self.cp_step = torch.zeros(1, dtype=torch.long, device=device)

    def prefill(self):
        """Eager: the prompt through the talker; sets code 0 of frame 1 and the counters."""
        state = self.prompt
        length = state["inputs_embeds"].shape[1]
        out = self.talker.model(
            inputs_embeds=state["inputs_embeds"],
            attention_mask=state["attention_mask"],
            cache_position=torch.arange(length, device=self.position.device),
            past_key_values=self.cache,
            use_cache=True,
        )
        logits = self.talker.codec_head(out.last_hidden_state)
        self.logits.copy_(logits[:, -1])
        self.code0.copy_((logits[:, -1] + self.suppress).argmax(-1, keepdim=True))
        self.past_hidden.copy_(out.last_hidden_state[:, -1:])
        self.position.fill_(length)
        self.generation_step.zero_()

    def _code_predictor(self, first):
        """Codebooks 1..Q-1 of the frame whose code 0 is `first`: the 2-position prefill, then Q-2
        `code_predictor_step()`s, a fixed sequence at every replay."""
        cp = self.cp
        embeds = torch.cat([self.past_hidden, self.talker.get_input_embeddings()(first)], dim=1)
        positions = self.cp_positions[:2]
        hidden = cp.model(
            inputs_embeds=cp.small_to_mtp_projection(embeds),
            attention_mask={"full_attention": self.cp_prefill_mask},
            position_ids=positions[None],
            cache_position=positions,
            past_key_values=self.cp_cache,
            use_cache=True,
        ).last_hidden_state
        token = (hidden[:, -1] @ self.cp_heads[0].T).argmax(-1, keepdim=True)
        self.cp_codes[:, :1].copy_(token)
        self.cp_token.copy_(token)
        self.cp_step.fill_(1)  # the same value at every replay: a constant, not a varying one
        for _ in range(self.config.num_code_groups - 2):
            self.code_predictor_step()
        return self.cp_codes

    def code_predictor_step(self):
        """One code-predictor decode forward, capturable on its own (seed 004's Phase 1a): the codec row of
        `self.cp_token` from table `cp_step - 1`, position `cp_step + 1`, head `cp_step`, all picked on the
        device; writes the code into `self.cp_codes[:, cp_step]` and advances `self.cp_step`."""
        cp, j = self.cp, self.cp_step
        embeds = torch.nn.functional.embedding(self.cp_token, self.cp_tables.index_select(0, j - 1)[0])
        position = j + 1
        mask = torch.where(self.cp_positions <= position, 0.0, torch.finfo(torch.float32).min)[None, None, None]
        hidden = cp.model(
            inputs_embeds=cp.small_to_mtp_projection(embeds),
            attention_mask={"full_attention": mask},
            position_ids=position[None],
            cache_position=position,
            past_key_values=self.cp_cache,
            use_cache=True,
        ).last_hidden_state
        token = (hidden[:, -1] @ self.cp_heads.index_select(0, j)[0].T).argmax(-1, keepdim=True)
        self.cp_codes.index_copy_(1, j, token)
        self.cp_token.copy_(token)
        self.cp_step.add_(1)

    def decode(self):
        """One decode step, capturable: the previous frame's codebooks 1..Q-1, its audio feedback plus this
        step's text row, the talker over the static cache, code 0 of the next frame."""
        rest = self._code_predictor(self.code0)
        feedback = self.talker.get_input_embeddings()(self.code0)[:, 0]  # [1, H]
        feedback = feedback + self.cp_tables[self.cp_codebooks, rest[0]].sum(0, keepdim=True)  # codebooks 1..Q-1
        embeds = (feedback + self.text_rows.index_select(0, self.generation_step))[:, None]
        mask = torch.where(self.key_index <= self.position, 0.0, torch.finfo(torch.float32).min)[None, None, None]
        out = self.talker.model(
            inputs_embeds=embeds,
            attention_mask=mask,
            position_ids=self.position.view(1, 1, 1).expand(3, 1, 1),
            cache_position=self.position,
            past_key_values=self.cache,
            use_cache=True,
        )
        logits = self.talker.codec_head(out.last_hidden_state)[:, -1]
        self.frame_codes.copy_(torch.cat([self.code0, rest], dim=1))
        self.logits.copy_(logits)
        self.code0.copy_((logits + self.suppress).argmax(-1, keepdim=True))
        self.past_hidden.copy_(out.last_hidden_state[:, -1:])
        self.position.add_(1)
        self.generation_step.add_(1)
        return self.frame_codes

    def run(self, frames):
        """Eager driver (a CUDA graph would replay decode()): prefill, then frames decode steps; returns the
        [frames, Q] codes, stopping at EOS as generate() does."""
        self.prefill()
        out = []
        for _ in range(frames):
            if int(self.code0) == self.config.codec_eos_token_id:  # host work between replays, not in the step
                break
            out.append(self.decode().clone())
        return torch.cat(out) if out else torch.zeros(0, self.config.num_code_groups, dtype=torch.long)
