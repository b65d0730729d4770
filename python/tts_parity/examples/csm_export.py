"""Export adapters for transformers' CSM (`CsmForConditionalGeneration`; docs/real-models.md, "CSM", "Export"):
the backbone, the depth decoder and the Mimi decoder wrapped in export_bundle's forward protocol
(docs/python-export.md), reusing the real modules and weights; `csm_bundle_inputs` gives export_bundle's tables
and config. An example, never imported by `tts_parity`.
"""

from __future__ import annotations

import torch
from torch import nn

from tts_parity.examples.hf_flat_cache import FlatCache, additive_mask, decoder_shape

__all__ = ["BackboneAdapter", "DepthDecoderAdapter", "MimiDecoderAdapter", "csm_bundle_inputs"]


class BackboneAdapter(nn.Module):
    """forward(inputs_embeds, attention_mask, position_ids, *past) -> (logits, last_hidden_state, *present) over
    `backbone_model` (its layers and final norm) and `lm_head` (codebook 0's codes, no EOS logit)."""

    def __init__(self, model):
        super().__init__()
        self.backbone, self.lm_head = model.backbone_model, model.lm_head
        self.static_cache = False

    def forward(self, inputs_embeds, attention_mask, position_ids, *past):
        cache = FlatCache(past, position_ids, self.static_cache)
        hidden = self.backbone(
            inputs_embeds=inputs_embeds,
            attention_mask=additive_mask(attention_mask, position_ids, inputs_embeds.dtype),
            position_ids=position_ids,
            cache_position=position_ids[0],
            past_key_values=cache,
            use_cache=True,
        ).last_hidden_state
        return (self.lm_head(hidden), hidden, *cache.present)


class DepthDecoderAdapter(nn.Module):
    """forward(generation_step, inputs_embeds, attention_mask, position_ids, *past) -> (logits, *present) over
    `depth_decoder.model`: given inputs_embeds it skips its embedding (position 0 = the backbone's hidden state, as
    CSM writes it over the embedding) and applies `inputs_embeds_projector` inside; its RoPE positions come from
    `cache_position`. `codebooks_head.weight` [Q-1, hidden, V] is already one stacked parameter: CSM picks
    head `position - 1`, the protocol head `generation_step`, the same head at every call."""

    def __init__(self, depth_decoder):
        super().__init__()
        self.model, self.heads = depth_decoder.model, depth_decoder.codebooks_head.weight
        self.static_cache = False

    def forward(self, generation_step, inputs_embeds, attention_mask, position_ids, *past):
        cache = FlatCache(past, position_ids, self.static_cache)
        hidden = self.model(
            inputs_embeds=inputs_embeds,
            attention_mask=additive_mask(attention_mask, position_ids, inputs_embeds.dtype),
            cache_position=position_ids[0],
            past_key_values=cache,
            use_cache=True,
        ).last_hidden_state
        return (hidden @ self.heads.index_select(0, generation_step)[0], *cache.present)


class MimiDecoderAdapter(nn.Module):
    """forward(audio_codes [1, F, Q], noise, phase0, context_frames) -> (audio [1, F·hop], phase0): MimiModel.decode
    over all frames (its quantizer, upsampling, decoder transformer and SEANet decoder); noise and context_frames
    unused, the phase passed through."""

    def __init__(self, mimi):
        super().__init__()
        self.mimi = mimi

    def forward(self, audio_codes, noise, phase0, context_frames):
        # MimiModel._decode_frame with the decoder transformer's causal mask made here: transformers' own mask
        # creation (masking_utils.py:392, a torch.func.vmap) stops the TorchScript exporter with
        # "unordered_map::at". Full causal, as create_causal_mask gives it: Mimi's sliding_window reaches only
        # flash attention.
        m = self.mimi
        hidden = m.upsample(m.quantizer.decode(audio_codes.transpose(1, 2))).transpose(1, 2)
        positions = torch.arange(hidden.shape[1], device=hidden.device)
        low = torch.full((), torch.finfo(hidden.dtype).min, dtype=hidden.dtype, device=hidden.device)
        zero = torch.zeros((), dtype=hidden.dtype, device=hidden.device)
        mask = torch.where(positions[None, :] <= positions[:, None], zero, low)
        hidden = m.decoder_transformer(
            hidden,
            attention_mask=mask[None, None],
            position_ids=positions[None],
            cache_position=positions,
            use_cache=False,
            return_dict=False,
        )[0]
        return m.decoder(hidden.transpose(1, 2))[:, 0], phase0


def csm_bundle_inputs(model, *, text_bos, frames_per_char, max_bytes=16, max_frames=8, max_positions=32):
    """export_bundle's text_embeddings, codec_embeddings and config for a CSM whose text ids are the UTF-8 bytes
    after `text_bos` (rows of `embed_text_tokens`). The codec tables are the backbone's `embed_audio_tokens`
    ([Q·V, H], code k of codebook c at row c·V + k), which the depth decoder's `embed_tokens` shares
    (`tie_codebooks_embeddings`); CSM's talker logits are the V codes only, so `specialCodes` has no EOS."""
    config, depth = model.config, model.depth_decoder.config
    if not config.tie_codebooks_embeddings:
        raise ValueError("csm_bundle_inputs: the depth decoder's embed_tokens is not the backbone's table")
    q, v = config.num_codebooks, config.vocab_size
    audio = model.backbone_model.embed_tokens.embed_audio_tokens.weight.detach()
    mimi = model.codec_model.config

    bundle_config = {
        "name": "csm-tiny",
        "description": "transformers CsmForConditionalGeneration, tiny config, seeded random weights: NOT a trained voice",
        "sampleRate": mimi.sampling_rate,
        "frameRate": mimi.frame_rate,
        "codebooks": q,
        "codebookSize": v,
        "specialCodes": {"bos": config.codebook_pad_token_id},
        "text": {"tokenizer": "byte", "bos": text_bos, "framesPerChar": frames_per_char, "maxBytes": max_bytes},
        "maxFrames": max_frames,
        "talker": {**decoder_shape(config), "maxPositions": max_positions, "vocab": v},
        "codePredictor": {
            **decoder_shape(depth),
            "maxPositions": q,
            "projection": {"from": depth.backbone_hidden_size, "to": depth.hidden_size},
        },
        "vocoder": {"leftContextFrames": 0, "chunkFrames": max_frames},
    }
    return model.embed_text_tokens.weight.detach(), list(audio.view(q, v, -1)), bundle_config
