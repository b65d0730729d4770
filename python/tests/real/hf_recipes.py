"""Tiny real transformers models, offline: the real classes from small configs with seeded random weights
(docs/real-models.md). Test and example fixtures only: `tts_parity` never imports transformers.

Pinned: transformers 4.57.3 (the version qwen-tts pins, so one environment serves both), torch 2.x, CPU.
Every builder seeds torch before constructing, so the same call gives the same weights bit for bit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import torch

__all__ = ["CsmParts", "DiaParts", "OmniParts", "build_csm", "build_dac", "build_dia", "build_omni", "omni_frame_codes"]


# --- Qwen3-Omni MoE: talker (MoE decoder, 3-D RoPE) + code predictor + code2wav ---------------------------------

OMNI_Q = 4  # num_code_groups: codebook 0 from the talker, 1..3 from the code predictor
OMNI_CODEBOOK = 64  # code predictor vocabulary = code2wav codebook size
OMNI_TALKER_VOCAB = 72  # codec ids 0..63, then the special ids below
OMNI_EOS, OMNI_PAD, OMNI_BOS = 65, 66, 67
OMNI_HIDDEN = 32


@dataclass
class OmniParts:
    talker: Any  # Qwen3OmniMoeTalkerForConditionalGeneration (its .code_predictor inside)
    code2wav: Any  # Qwen3OmniMoeCode2Wav
    generate_kwargs: dict = field(default_factory=dict)  # the talker inputs the thinker would give
    q: int = OMNI_Q
    frame_rate: float = 12.5
    sample_rate: int = 24000


def omni_configs():
    """The three configs; the two kwargs marked below are missing from transformers 4.57.3's config classes
    (a real checkpoint's config.json carries them), so a config built from defaults cannot build the model."""
    from transformers.models.qwen3_omni_moe.configuration_qwen3_omni_moe import (
        Qwen3OmniMoeCode2WavConfig,
        Qwen3OmniMoeTalkerCodePredictorConfig,
        Qwen3OmniMoeTalkerConfig,
        Qwen3OmniMoeTalkerTextConfig,
    )

    code_predictor = Qwen3OmniMoeTalkerCodePredictorConfig(
        vocab_size=OMNI_CODEBOOK,
        hidden_size=OMNI_HIDDEN,
        intermediate_size=64,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=1,
        head_dim=16,
        num_code_groups=OMNI_Q,
        max_position_embeddings=64,
    )
    text = Qwen3OmniMoeTalkerTextConfig(
        vocab_size=OMNI_TALKER_VOCAB,
        hidden_size=OMNI_HIDDEN,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=1,
        moe_intermediate_size=16,
        num_experts=4,
        num_experts_per_tok=2,
        max_position_embeddings=256,
        shared_expert_intermediate_size=32,  # missing from the 4.57.3 config class
        rope_scaling={"rope_type": "default", "mrope_section": [2, 3, 3], "interleaved": True},
    )
    talker = Qwen3OmniMoeTalkerConfig(
        code_predictor_config=code_predictor.to_dict(),
        text_config=text.to_dict(),
        num_code_groups=OMNI_Q,
        thinker_hidden_size=24,
        codec_eos_token_id=OMNI_EOS,
        codec_pad_id=OMNI_PAD,
        codec_bos_id=OMNI_BOS,
        spatial_merge_size=2,
    )  # missing from the 4.57.3 config class
    code2wav = Qwen3OmniMoeCode2WavConfig(
        codebook_size=OMNI_CODEBOOK,
        hidden_size=32,
        num_attention_heads=2,
        num_key_value_heads=2,
        intermediate_size=64,
        num_hidden_layers=1,
        num_quantizers=OMNI_Q,
        upsample_rates=(4, 4),
        upsampling_ratios=(2, 2),
        decoder_dim=32,
        sliding_window=16,
    )
    return talker, code2wav


def build_omni(seed: int = 0, prompt_length: int = 6, text_frames: int = 3) -> OmniParts:
    """The talker, its code predictor and code2wav, seeded; `generate_kwargs` are the inputs
    `Qwen3OmniMoeForConditionalGeneration.generate` gives the talker (embeddings the thinker would make),
    as seeded random tensors: inputs_embeds [1, prompt_length, 32], trailing_text_hidden [1, text_frames, 32],
    tts_pad_embed [1, 1, 32], talker_input_ids [1, prompt_length] (plain text ids: 3-D RoPE positions all equal)."""
    from transformers.models.qwen3_omni_moe.modeling_qwen3_omni_moe import (
        Qwen3OmniMoeCode2Wav,
        Qwen3OmniMoeTalkerForConditionalGeneration,
    )

    talker_config, code2wav_config = omni_configs()
    torch.manual_seed(seed)
    talker = Qwen3OmniMoeTalkerForConditionalGeneration(talker_config).eval()
    code2wav = Qwen3OmniMoeCode2Wav(code2wav_config).eval()
    generator = torch.Generator().manual_seed(seed + 1)
    kwargs = {
        "inputs_embeds": torch.randn(1, prompt_length, OMNI_HIDDEN, generator=generator),
        "attention_mask": torch.ones(1, prompt_length, dtype=torch.long),
        "trailing_text_hidden": torch.randn(1, text_frames, OMNI_HIDDEN, generator=generator),
        "tts_pad_embed": torch.randn(1, 1, OMNI_HIDDEN, generator=generator),
        "talker_input_ids": torch.zeros(1, prompt_length, dtype=torch.long),
    }
    sample_rate_per_frame = int(code2wav.total_upsample)
    return OmniParts(talker, code2wav, kwargs, frame_rate=24000 / sample_rate_per_frame)


def omni_frame_codes(generate_output) -> torch.Tensor:
    """[frames, q] codes of one utterance, as Qwen3OmniMoeForConditionalGeneration.generate collects them:
    each talker step after the prefill carries the previous frame's residual codes in hidden_states[-1]."""
    codes = [hidden[-1] for hidden in generate_output.hidden_states if hidden[-1] is not None]
    return torch.cat(codes, dim=0)  # each [1, q]


# --- CSM: backbone + depth decoder + Mimi ------------------------------------------------------------------------

CSM_Q = 4
CSM_CODEBOOK = 64


@dataclass
class CsmParts:
    model: Any  # CsmForConditionalGeneration (.backbone_model, .depth_decoder, .codec_model)
    input_ids: torch.Tensor  # [1, T] text ids
    q: int = CSM_Q
    frame_rate: float = 12.5
    sample_rate: int = 24000


def build_csm(seed: int = 0, prompt_length: int = 6, *, text_vocab_size: int = 128, depth_hidden: int = 32) -> CsmParts:
    """The traces use the defaults; the export (csm_export) takes 257 text ids (UTF-8 bytes, then BOS 256) and a
    depth decoder narrower than the backbone (CSM-1B: 2048 -> 1024), so that its input projection changes width."""
    from transformers import CsmConfig, CsmForConditionalGeneration, MimiConfig

    mimi = MimiConfig(
        hidden_size=32,
        num_filters=4,
        num_residual_layers=1,
        upsampling_ratios=[4, 4],
        codebook_size=CSM_CODEBOOK,
        codebook_dim=16,
        num_quantizers=CSM_Q,
        num_semantic_quantizers=1,
        vector_quantization_hidden_dimension=16,
        upsample_groups=32,
        num_hidden_layers=1,
        intermediate_size=64,
        num_attention_heads=2,
        num_key_value_heads=2,
        sliding_window=16,
        frame_rate=None,
    )
    depth = {
        "num_codebooks": CSM_Q,
        "backbone_hidden_size": 32,
        "vocab_size": CSM_CODEBOOK,
        "hidden_size": depth_hidden,
        "intermediate_size": 64,
        "num_hidden_layers": 1,
        "num_attention_heads": 2,
        "num_key_value_heads": 1,
        "max_position_embeddings": CSM_Q + 1,
    }
    config = CsmConfig(
        num_codebooks=CSM_Q,
        vocab_size=CSM_CODEBOOK,
        text_vocab_size=text_vocab_size,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=128,
        pad_token_id=120,
        bos_token_id=121,
        audio_token_id=122,
        audio_eos_token_id=123,
        codebook_pad_token_id=CSM_CODEBOOK - 1,
        codebook_eos_token_id=0,
        depth_decoder_config=depth,
        codec_config=mimi.to_dict() | {"model_type": "mimi"},
    )
    torch.manual_seed(seed)
    model = CsmForConditionalGeneration(config).eval()
    generator = torch.Generator().manual_seed(seed + 1)
    input_ids = torch.randint(0, 120, (1, prompt_length), generator=generator)
    return CsmParts(
        model, input_ids, frame_rate=float(model.codec_model.config.frame_rate), sample_rate=int(mimi.sampling_rate)
    )


# --- Dia: encoder-decoder, C codebooks in parallel, delay pattern --------------------------------------------------

DIA_DELAYS = (0, 2, 3, 4)  # codebook k is emitted DIA_DELAYS[k] steps after its frame (Dia 1.6B: 0, 8, 9, ..., 15)
DIA_CODEBOOK = 64  # codes 0..63; EOS 64, PAD 65, BOS 66 as in Dia (1024, 1025, 1026)
DIA_EOS, DIA_PAD, DIA_BOS = 64, 65, 66


@dataclass
class DiaParts:
    model: Any  # DiaForConditionalGeneration
    input_ids: torch.Tensor  # [1, T] byte-level text ids
    decoder_input_ids: torch.Tensor  # [1, 1 + max delay, C]: BOS, delayed, as DiaProcessor(generation=True) builds it
    decoder_attention_mask: torch.Tensor
    q: int = len(DIA_DELAYS)
    delays: tuple = DIA_DELAYS
    frame_rate: float = 86.1328125  # DAC 44.1 kHz / 512 (Dia's codec)
    sample_rate: int = 44100


def build_dia(seed: int = 0, text: str = "hello") -> DiaParts:
    from transformers import DiaConfig, DiaForConditionalGeneration
    from transformers.models.dia.processing_dia import DiaProcessor

    q, max_delay = len(DIA_DELAYS), max(DIA_DELAYS)
    config = DiaConfig(
        encoder_config={
            "max_position_embeddings": 64,
            "num_hidden_layers": 1,
            "hidden_size": 32,
            "num_attention_heads": 2,
            "num_key_value_heads": 2,
            "head_dim": 16,
            "intermediate_size": 64,
            "vocab_size": 256,
        },
        decoder_config={
            "max_position_embeddings": 64,
            "num_hidden_layers": 2,
            "hidden_size": 32,
            "intermediate_size": 64,
            "num_attention_heads": 2,
            "num_key_value_heads": 1,
            "head_dim": 16,
            "cross_num_attention_heads": 2,
            "cross_head_dim": 16,
            "cross_num_key_value_heads": 2,
            "cross_hidden_size": 32,
            "vocab_size": DIA_CODEBOOK + 3,
            "num_channels": q,
        },
        pad_token_id=DIA_PAD,
        eos_token_id=DIA_EOS,
        bos_token_id=DIA_BOS,
        delay_pattern=list(DIA_DELAYS),
    )
    torch.manual_seed(seed)
    model = DiaForConditionalGeneration(config).eval()
    input_ids = torch.tensor([list(text.encode("utf-8"))], dtype=torch.long)
    # DiaProcessor(generation=True) without an audio prompt, from its own static helpers (no tokenizer, no DAC)
    length = 1 + max_delay
    prefill = torch.full((1, length, q), DIA_PAD, dtype=torch.int)
    prefill[:, :1] = DIA_BOS
    index = DiaProcessor.build_indices(
        bsz=1, seq_len=length, num_channels=q, delay_pattern=list(DIA_DELAYS), revert=False
    )
    decoder_input_ids = DiaProcessor.apply_audio_delay(
        audio=prefill, pad_token_id=DIA_PAD, bos_token_id=DIA_BOS, precomputed_idx=index
    )
    return DiaParts(model, input_ids, decoder_input_ids.long(), torch.ones(1, length, dtype=torch.long))


def build_dac(seed: int = 1):
    """transformers' DacModel (Dia's codec) at 44.1 kHz, hop 2·4·8·8 = 512 (Dia's 86.13 frames/s), with Dia's tiny
    q = 4 codebooks of DIA_CODEBOOK codes; channels cut to 16 → 1 (DAC 44 kHz: 1536) and codebook_dim 4 (8)."""
    from transformers import DacConfig, DacModel

    config = DacConfig(
        encoder_hidden_size=4,
        downsampling_ratios=[2, 4, 8, 8],
        decoder_hidden_size=16,
        n_codebooks=len(DIA_DELAYS),
        codebook_size=DIA_CODEBOOK,
        codebook_dim=4,
        sampling_rate=44100,
    )
    torch.manual_seed(seed)
    return DacModel(config).eval()
