"""Export adapters for transformers' Dia (`DiaForConditionalGeneration`; docs/real-models.md, "Dia", "Export"):
the text encoder, the decoder with its q heads (`talker.codebooks: "all"`) and DAC's decoder wrapped in
export_bundle's forward protocol (docs/python-export.md), reusing the real modules and weights; `dia_bundle_inputs`
gives export_bundle's tables and config. An example, never imported by `tts_parity`.
"""

from __future__ import annotations

import torch
from torch import nn

from tts_parity.examples.hf_flat_cache import FlatCache, additive_mask, decoder_shape

__all__ = ["DacDecoderAdapter", "DiaDecoderAdapter", "DiaEncoderAdapter", "dia_bundle_inputs"]


def _key_mask(mask, queries, dtype):
    """[B, 1, queries, T] additive: 0 over the keys `mask` [B, T] marks, the dtype's lowest value elsewhere."""
    low = torch.full((), torch.finfo(dtype).min, dtype=dtype, device=mask.device)
    allowed = (mask[:, None, None, :] > 0).expand(-1, 1, queries, -1)
    return torch.where(allowed, torch.zeros((), dtype=dtype, device=mask.device), low)


class DiaEncoderAdapter(nn.Module):
    """forward(input_ids [1, S], attention_mask [1, S]) -> encoder_hidden_states [1, S, hidden]: `DiaEncoder.forward`
    restated with the padding mask made here as a 4-D additive mask (what `_update_full_mask` makes for sdpa), so
    that the graph export's padded ids are never attended to."""

    def __init__(self, encoder):
        super().__init__()
        self.encoder = encoder

    def forward(self, input_ids, attention_mask):
        e = self.encoder
        hidden = e.embedding(input_ids)
        positions = torch.arange(input_ids.shape[-1], device=input_ids.device)[None, :]
        rope = e.rotary_embeddings(hidden, positions)
        mask = _key_mask(attention_mask, input_ids.shape[-1], hidden.dtype)
        for layer in e.layers:
            hidden = layer(hidden, position_embeddings=rope, attention_mask=mask)[0]
        return e.norm(hidden)


class _CrossRecomputed(FlatCache):
    """Dia's decoder layer hands one cache to its self- and cross-attention. The bundle carries no cross-attention
    cache (the encoder's output is an input of every step), so the cross K/V are computed at every call: nothing
    is marked updated, and the cross side's update returns what it is given."""

    def __init__(self, past, position_ids, static_cache):
        super().__init__(past, position_ids, static_cache)
        self.is_updated = {}
        self.cross_attention_cache = self

    def update(self, key_states, value_states, layer_idx, cache_kwargs=None):
        if cache_kwargs is None:  # the cross-attention's call (DiaCrossAttention passes no kwargs)
            self.is_updated.clear()
            return key_states, value_states
        return super().update(key_states, value_states, layer_idx, cache_kwargs)


class DiaDecoderAdapter(nn.Module):
    """forward(inputs_embeds, attention_mask, position_ids, encoder_hidden_states, encoder_attention_mask, *past)
    -> (logits [1, S, q, vocab], last_hidden_state, *present) over `DiaDecoder`'s layers and norm and
    `logits_dense`. inputs_embeds is the engine's sum of the q codec rows, which is `DiaMultiChannelEmbedding`
    (one table, codebook c's code k at row c·vocab + k, summed over the codebooks)."""

    def __init__(self, model):
        super().__init__()
        self.decoder, self.head = model.model.decoder, model.logits_dense
        self.q, self.vocab = model.num_channels, model.vocab_size
        self.static_cache = False

    def forward(self, inputs_embeds, attention_mask, position_ids, encoder_hidden_states, encoder_attention_mask, *past):
        d = self.decoder
        cache = _CrossRecomputed(past, position_ids, self.static_cache)
        hidden = inputs_embeds
        rope = d.rotary_embeddings(hidden, position_ids)
        mask = additive_mask(attention_mask, position_ids, hidden.dtype)
        cross = _key_mask(encoder_attention_mask, hidden.shape[1], hidden.dtype)
        for layer in d.layers:
            hidden = layer(
                hidden,
                rope,
                mask,
                encoder_hidden_states,
                encoder_attention_mask=cross,
                past_key_values=cache,
                cache_position=position_ids[0],
            )[0]
        hidden = d.norm(hidden)
        logits = self.head(hidden).view(hidden.shape[0], hidden.shape[1], self.q, self.vocab)
        return (logits, hidden, *cache.present)


class DacDecoderAdapter(nn.Module):
    """forward(audio_codes [1, F, q], noise, phase0, context_frames) -> (audio [1, F·hop], phase0): `DacModel.decode`
    (`quantizer.from_codes`, then `decoder`) over all frames; noise and context_frames unused, the phase passed
    through."""

    def __init__(self, dac):
        super().__init__()
        self.dac = dac

    def forward(self, audio_codes, noise, phase0, context_frames):
        latent = self.dac.quantizer.from_codes(audio_codes.transpose(1, 2))[0]
        return self.dac.decoder(latent)[:, 0], phase0


def dia_bundle_inputs(model, dac, *, frames_per_char, max_bytes=16, max_frames=8, max_positions=32):
    """export_bundle's text_embeddings (none: the text goes to the encoder), codec_embeddings and config for a Dia
    whose text ids are the UTF-8 bytes and whose codec is `dac`. The codec tables are the rows of the decoder's
    `DiaMultiChannelEmbedding` ([q·vocab, H]); each holds the codes, then EOS, PAD and BOS (vocab = codes + 3)."""
    config, decoder = model.config, model.config.decoder_config
    encoder = model.config.encoder_config
    q, vocab, eos = decoder.num_channels, decoder.vocab_size, config.eos_token_id
    if dac.config.n_codebooks != q or dac.config.codebook_size != eos:
        raise ValueError(f"dia_bundle_inputs: DAC has {dac.config.n_codebooks} codebooks of {dac.config.codebook_size}, Dia {q} of {eos}")
    table = model.model.decoder.embeddings.embed.weight.detach()
    bundle_config = {
        "name": "dia-tiny",
        "description": "transformers DiaForConditionalGeneration + DacModel, tiny configs, seeded random weights: NOT a trained voice",
        "sampleRate": dac.config.sampling_rate,
        "frameRate": dac.config.sampling_rate / dac.config.hop_length,
        "codebooks": q,
        "codebookSize": eos,
        "specialCodes": {"eos": eos, "pad": config.pad_token_id, "bos": config.bos_token_id},
        "codebookDelays": list(config.delay_pattern),
        "text": {"tokenizer": "byte", "framesPerChar": frames_per_char, "maxBytes": max_bytes},
        "maxFrames": max_frames,
        "encoder": {"hidden": encoder.hidden_size, "maxPositions": max_bytes},
        "talker": {
            **decoder_shape(decoder),
            "maxPositions": max_positions,
            "vocab": vocab,
            "codebooks": "all",
            "specialIds": {
                "suppress": "all-except-eos",
                "names": {str(config.pad_token_id): "audio pad", str(config.bos_token_id): "audio bos"},
            },
        },
        "vocoder": {"leftContextFrames": 0, "chunkFrames": max_frames},
    }
    return torch.zeros(0, decoder.hidden_size), list(table.view(q, vocab, -1)), bundle_config
