"""Export adapters for transformers' Qwen3-Omni talker, code predictor and code2wav (docs/real-models.md,
"Qwen3-Omni", "Export"): the real modules in export_bundle's forward protocol (docs/python-export.md). Export the
talker inside `omni_capture.dense_moe(talker)`: the sparse MoE block loops over the experts an input hits, which
a trace would keep as the example's."""

from __future__ import annotations

import torch
from torch import nn

from tts_parity.examples.hf_flat_cache import FlatCache, additive_mask
from tts_parity.examples.qwen_tts_export import decode_frames, fix_causal_conv_padding

__all__ = ["Code2WavAdapter", "OmniCodePredictorAdapter"]


class OmniCodePredictorAdapter(nn.Module):
    """forward(generation_step, inputs_embeds, attention_mask, position_ids, *past) -> (logits, *present): the code
    predictor's model with its q-1 heads stacked and picked by `generation_step` (it picks `lm_head[generation_steps]`
    by a Python int, which a trace would fix)."""

    def __init__(self, code_predictor):
        super().__init__()
        self.model = code_predictor.model
        self.heads = nn.Parameter(torch.stack([h.weight for h in code_predictor.lm_head]).transpose(1, 2).contiguous())
        self.static_cache = False

    def forward(self, generation_step, inputs_embeds, attention_mask, position_ids, *past):
        cache = FlatCache(past, position_ids, self.static_cache)
        hidden = self.model(
            inputs_embeds=inputs_embeds,
            attention_mask=additive_mask(attention_mask, position_ids, inputs_embeds.dtype),
            position_ids=position_ids,
            cache_position=position_ids[0],
            past_key_values=cache,
            use_cache=True,
        ).last_hidden_state
        return (hidden @ self.heads.index_select(0, generation_step)[0], *cache.present)


class Code2WavAdapter(nn.Module):
    """forward(audio_codes [1, F, Q], noise, phase0, context_frames) -> (audio [1, F·hop], phase0):
    Qwen3OmniMoeCode2Wav.forward restated as Qwen3-TTS's VocoderAdapter restates its sibling decoder (masks made
    here, stride-1 causal convs' right padding fixed at its value 0), then zero samples appended up to F·hop:
    code2wav gives F·hop − 20 samples here (its causal transposed convs trim), the bundle's vocoder F·hop."""

    def __init__(self, code2wav):
        super().__init__()
        self.code2wav = code2wav
        fix_causal_conv_padding(code2wav, "Code2WavAdapter")

    def forward(self, audio_codes, noise, phase0, context_frames):
        c = self.code2wav
        hidden = c.code_embedding(audio_codes.transpose(1, 2) + c.code_offset).mean(1)
        audio = decode_frames(c, hidden)
        return nn.functional.pad(audio, (0, audio_codes.shape[1] * int(c.total_upsample) - audio.shape[-1])), phase0
