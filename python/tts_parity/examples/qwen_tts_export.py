"""Export adapters for qwen-tts's real Qwen3-TTS (docs/real-models-qwen3-tts.md, "Export"): the talker, the code
predictor and the 12 Hz decoder wrapped in export_bundle's forward protocol (docs/python-export.md), reusing the
real modules and weights; `qwen3_tts_bundle_inputs` gives export_bundle's tables and config (prefill template,
per-step text conditioning, special ids, projection). An example, never imported by `tts_parity`.
"""

from __future__ import annotations

import torch
from torch import nn

from tts_parity.examples.hf_flat_cache import FlatCache, additive_mask, decoder_shape

__all__ = [
    "CodePredictorAdapter",
    "TalkerAdapter",
    "VocoderAdapter",
    "decode_frames",
    "fix_causal_conv_padding",
    "qwen3_tts_bundle_inputs",
]


class TalkerAdapter(nn.Module):
    """forward(inputs_embeds, attention_mask, position_ids, *past) -> (logits, last_hidden_state, *present) over
    `talker.model` (Qwen3TTSTalkerModel) and `talker.codec_head`. Text-only M-RoPE: the three position sections
    are the same position, as qwen-tts's get_rope_index gives for text."""

    def __init__(self, talker):
        super().__init__()
        self.talker = talker
        self.static_cache = False

    def forward(self, inputs_embeds, attention_mask, position_ids, *past):
        cache = FlatCache(past, position_ids, self.static_cache)
        out = self.talker.model(
            inputs_embeds=inputs_embeds,
            attention_mask=additive_mask(attention_mask, position_ids, inputs_embeds.dtype),
            position_ids=position_ids[None].expand(3, -1, -1),
            cache_position=position_ids[0],
            past_key_values=cache,
            use_cache=True,
        )
        hidden = out.last_hidden_state
        return (self.talker.codec_head(hidden), hidden, *cache.present)


class CodePredictorAdapter(nn.Module):
    """forward(generation_step, inputs_embeds, attention_mask, position_ids, *past) -> (logits, *present) over the
    code predictor: `small_to_mtp_projection` inside, the 15 heads stacked and picked by `generation_step`."""

    def __init__(self, code_predictor):
        super().__init__()
        self.cp = code_predictor
        self.heads = nn.Parameter(torch.stack([h.weight for h in code_predictor.lm_head]).transpose(1, 2).contiguous())
        self.static_cache = False

    def forward(self, generation_step, inputs_embeds, attention_mask, position_ids, *past):
        cache = FlatCache(past, position_ids, self.static_cache)
        x = self.cp.small_to_mtp_projection(inputs_embeds)
        out = self.cp.model(
            inputs_embeds=x,
            attention_mask={"full_attention": additive_mask(attention_mask, position_ids, x.dtype)},
            position_ids=position_ids,
            cache_position=position_ids[0],
            past_key_values=cache,
            use_cache=True,
        )
        return (out.last_hidden_state @ self.heads.index_select(0, generation_step)[0], *cache.present)


def _no_extra_padding(hidden_state):
    return 0


def fix_causal_conv_padding(decoder, owner):
    """Qwen3TTSTokenizerV2CausalConvNet._get_extra_padding_for_conv1d (and Qwen3-Omni code2wav's copy of it)
    computes its right padding with math.ceil from the input length: traced, `ideal_length` becomes a constant
    of the example and the padding (constant - traced length) crops every other length to the example's. For
    stride 1 (every causal conv of these decoders) it is 0 for any length; say so on each instance."""
    for module in decoder.modules():
        if hasattr(module, "_get_extra_padding_for_conv1d"):
            if module.stride != 1:
                raise ValueError(f"{owner}: a causal conv of stride {module.stride}: its padding varies")
            module._get_extra_padding_for_conv1d = _no_extra_padding


def decode_frames(decoder, hidden):
    """The 12 Hz decoder's (and code2wav's) transformer, upsampling and convolutions over `hidden` [1, F, D],
    with the transformer's causal masks made here: transformers' own mask creation stops the TorchScript
    exporter ("unordered_map::at"). Returns audio [1, samples] in [-1, 1]."""
    positions = torch.arange(hidden.shape[1], device=hidden.device)
    query, key = positions[:, None], positions[None, :]
    low = torch.full((), torch.finfo(hidden.dtype).min, dtype=hidden.dtype, device=hidden.device)
    zero = torch.zeros((), dtype=hidden.dtype, device=hidden.device)
    window = decoder.config.sliding_window
    masks = {
        "full_attention": torch.where(key <= query, zero, low)[None, None],
        "sliding_attention": torch.where((key <= query) & (key > query - window), zero, low)[None, None],
    }
    hidden = decoder.pre_transformer(
        inputs_embeds=hidden,
        attention_mask=masks,
        position_ids=positions[None],
        cache_position=positions,
        use_cache=False,
    ).last_hidden_state.permute(0, 2, 1)
    for blocks in decoder.upsample:
        for block in blocks:
            hidden = block(hidden)
    for block in decoder.decoder:
        hidden = block(hidden)
    return hidden.clamp(min=-1, max=1)[:, 0]


class VocoderAdapter(nn.Module):
    """forward(audio_codes [1, F, Q], noise, phase0, context_frames) -> (audio [1, F·1920], phase0): the 12 Hz
    tokenizer's decoder over all frames; noise and context_frames unused, the phase passed through."""

    def __init__(self, decoder):
        super().__init__()
        self.decoder = decoder
        fix_causal_conv_padding(decoder, "VocoderAdapter")

    def forward(self, audio_codes, noise, phase0, context_frames):
        # Qwen3TTSTokenizerV2Decoder.forward, its transformer's masks made in decode_frames.
        d = self.decoder
        hidden = d.pre_conv(d.quantizer.decode(audio_codes.transpose(1, 2))).transpose(1, 2)
        return decode_frames(d, hidden), phase0


def qwen3_tts_bundle_inputs(model, *, frames_per_char=1.4, max_bytes=32, max_frames=16, max_positions=64):
    """export_bundle's text_embeddings, codec_embeddings and config for the tiny Qwen3-TTS
    (tts_parity.examples.qwen_tts_tiny), language "english", no speaker, as qwen-tts's generate() builds it."""
    from tts_parity.examples.qwen_tts_tiny import CP_VOCAB, SPECIAL, TEXT_VOCAB

    talker, cp = model.talker, model.talker.code_predictor
    tc, cc = talker.config, cp.config
    with torch.no_grad():  # text rows after text_projection: per token, so a table holds them exactly
        text_rows = talker.text_projection(talker.get_text_embeddings().weight[None])[0]
    codec = [talker.get_input_embeddings().weight.detach()] + [
        e.weight.detach() for e in cp.model.get_input_embeddings()
    ]
    s, pad = SPECIAL, SPECIAL["tts_pad_token_id"]
    english = tc.codec_language_id["english"]
    template = [
        {"text": s["im_start_token_id"]},
        {"text": s["assistant_token_id"]},
        {"text": s["newline_token_id"]},
        {"text": pad, "codec": s["codec_think_id"]},
        {"text": pad, "codec": s["codec_think_bos_id"]},
        {"text": pad, "codec": english},
        {"text": pad, "codec": s["codec_think_eos_id"]},
        {"text": s["tts_bos_token_id"], "codec": s["codec_pad_id"]},
        {"tokens": "first", "codec": s["codec_bos_id"]},
    ]

    config = {
        "name": "qwen3-tts-tiny",
        "description": "qwen-tts 0.1.1 Qwen3-TTS, tiny config, seeded random weights: NOT a trained voice",
        "sampleRate": 24000,
        "frameRate": 12.5,
        "codebooks": tc.num_code_groups,
        "codebookSize": CP_VOCAB,
        "specialCodes": {"eos": tc.codec_eos_token_id, "bos": tc.codec_bos_id},
        "text": {"tokenizer": "byte", "framesPerChar": frames_per_char, "maxBytes": max_bytes},
        "maxFrames": max_frames,
        "talker": {
            **decoder_shape(tc),
            "maxPositions": max_positions,
            "vocab": tc.vocab_size,
            "specialIds": {"suppress": "all-except-eos"},
            "prefill": {"template": template},
            "textConditioning": {"pad": pad, "end": s["tts_eos_token_id"]},
        },
        "codePredictor": {
            **decoder_shape(cc),
            "maxPositions": tc.num_code_groups,
            "projection": {"from": tc.hidden_size, "to": cc.hidden_size},
        },
        "vocoder": {"leftContextFrames": 0, "chunkFrames": 8},
    }
    assert text_rows.shape[0] == TEXT_VOCAB
    return text_rows.detach(), codec, config
