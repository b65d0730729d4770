"""A tiny qwen-tts Qwen3-TTS (`Qwen3TTSForConditionalGeneration` + the 12 Hz tokenizer's decoder) built
from small configs with seeded random weights: CPU, offline, about a second. An example and a test fixture
(docs/real-models-qwen3-tts.md), never imported by `tts_parity` itself; needs `qwen-tts` (0.1.1, pinning
transformers 4.57.3) and torch.

The structure is the released 12Hz-0.6B model's (talker with 3-section interleaved M-RoPE, q/k norms, GQA;
code predictor with its own hidden size behind `small_to_mtp_projection`; 16 code groups; special codec ids
in the top 1024 of the talker vocabulary), the sizes are tiny.
"""

from __future__ import annotations

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch

__all__ = [
    "CP_VOCAB",
    "SPECIAL",
    "TALKER_VOCAB",
    "TEXT_VOCAB",
    "Q",
    "build_tiny_qwen3_tts",
    "build_tiny_vocoder",
    "prompt_ids",
]

Q = 16  # num_code_groups, as the released model
CP_VOCAB = 64  # code-predictor vocabulary (codebooks 1..15); 2048 in the released model
TALKER_VOCAB = (
    1024 + 64
)  # codebook 0's codes 0..63, then the 1024 special ids of which generate() suppresses all but EOS
TEXT_VOCAB = 300  # byte-level text ids 0..255, then the chat / tts special ids below
SPECIAL = {  # talker codec ids (top 1024 of the vocabulary) and text ids (past the bytes)
    "codec_pad_id": 64 + 4,
    "codec_bos_id": 64 + 5,
    "codec_eos_token_id": 64 + 6,
    "codec_think_id": 64 + 10,
    "codec_nothink_id": 64 + 11,
    "codec_think_bos_id": 64 + 12,
    "codec_think_eos_id": 64 + 13,
    "im_start_token_id": 256,
    "im_end_token_id": 257,
    "tts_pad_token_id": 258,
    "tts_bos_token_id": 259,
    "tts_eos_token_id": 260,
    "assistant_token_id": 261,
    "newline_token_id": 262,
}


def build_tiny_qwen3_tts(seed: int = 0, *, attn_implementation: str = "eager"):
    """The real `Qwen3TTSForConditionalGeneration` (tts_model_type "custom_voice": no speaker encoder) from a
    tiny config, weights drawn by `torch.manual_seed(seed)`, eval mode, float32, CPU."""
    from qwen_tts.core.models import Qwen3TTSConfig, Qwen3TTSForConditionalGeneration

    cp = {
        "vocab_size": CP_VOCAB,
        "hidden_size": 24,
        "intermediate_size": 48,
        "num_hidden_layers": 2,
        "num_attention_heads": 4,
        "num_key_value_heads": 2,
        "head_dim": 8,
        "num_code_groups": Q,
        "max_position_embeddings": 64,
    }
    talker = dict(
        code_predictor_config=cp,
        vocab_size=TALKER_VOCAB,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        head_dim=8,
        max_position_embeddings=256,
        num_code_groups=Q,
        text_hidden_size=32,
        text_vocab_size=TEXT_VOCAB,
        rope_scaling={"rope_type": "default", "mrope_section": [2, 1, 1], "interleaved": True},
        spk_id={},
        spk_is_dialect={},
        codec_language_id={"english": 64 + 20},
        **{k: v for k, v in SPECIAL.items() if k.startswith("codec_")},
    )
    config = Qwen3TTSConfig(
        talker_config=talker,
        tts_model_type="custom_voice",
        tokenizer_type="qwen3_tts_tokenizer_12hz",
        tts_model_size="tiny",
        **{k: v for k, v in SPECIAL.items() if k.startswith(("im_", "tts_"))},
    )
    config._attn_implementation = attn_implementation
    config.talker_config._attn_implementation = attn_implementation
    config.talker_config.code_predictor_config._attn_implementation = attn_implementation
    torch.manual_seed(seed)
    model = Qwen3TTSForConditionalGeneration(config).eval()
    with torch.no_grad():  # post_init draws N(0, 0.02): too flat for distinct argmaxes; widen, still seeded
        for name, p in model.named_parameters():
            if p.dim() >= 2 and "norm" not in name:
                p.normal_(0.0, 0.3 if "embedding" in name or "head" in name else 0.15)
    return model


def build_tiny_vocoder(seed: int = 0):
    """The 12 Hz tokenizer's real decoder (`Qwen3TTSTokenizerV2Decoder`, the codes -> waveform half of the
    Mimi-based codec), tiny: 16 codebooks of CP_VOCAB codes, 1920 samples per frame (24 kHz at 12.5 Hz)."""
    from qwen_tts.core.tokenizer_12hz.configuration_qwen3_tts_tokenizer_v2 import (
        Qwen3TTSTokenizerV2DecoderConfig,
    )
    from qwen_tts.core.tokenizer_12hz.modeling_qwen3_tts_tokenizer_v2 import (
        Qwen3TTSTokenizerV2Decoder,
    )

    config = Qwen3TTSTokenizerV2DecoderConfig(
        codebook_size=TALKER_VOCAB,
        codebook_dim=16,
        hidden_size=16,
        latent_dim=16,
        num_attention_heads=2,
        num_key_value_heads=2,
        head_dim=8,
        intermediate_size=32,
        num_hidden_layers=1,
        num_quantizers=Q,
        upsample_rates=(8, 5, 4, 3),
        upsampling_ratios=(2, 2),
        decoder_dim=32,
        sliding_window=8,
    )
    config._attn_implementation = "eager"
    torch.manual_seed(seed)
    decoder = Qwen3TTSTokenizerV2Decoder(config).eval()
    give_level(decoder)
    return decoder


# As built, the decoder writes digital silence: its codebooks start at zero and post_init draws every weight
# from N(0, 0.02), zero biases, so every sample is exactly 0 (measured). PyTorch's default init of the
# convolutions and linears with zero biases (non-zero biases through the SnakeBeta activations give a DC
# level as large as the signal), N(0, 1) codebooks, and the last convolution's weights x 64 (exact in
# float32) give a peak around -10 dBFS with no DC: 7 frames of random codes peaked at 0.33, RMS 0.06.
OUTPUT_GAIN = 64.0


def give_level(decoder) -> None:
    """Reinitialises a tiny Qwen3TTSTokenizerV2Decoder so it is audible (the comment above says how and why)."""
    from qwen_tts.core.tokenizer_12hz.modeling_qwen3_tts_tokenizer_v2 import EuclideanCodebook

    with torch.no_grad():
        for module in decoder.modules():
            if isinstance(module, EuclideanCodebook):
                module.embedding_sum.normal_(0.0, 1.0)
            elif isinstance(module, (torch.nn.Conv1d, torch.nn.ConvTranspose1d, torch.nn.Linear)):
                module.reset_parameters()
                if module.bias is not None:
                    module.bias.zero_()
        decoder.decoder[-1].conv.weight.mul_(OUTPUT_GAIN)


def prompt_ids(text: str) -> torch.Tensor:
    """The chat framing `Qwen3TTSForConditionalGeneration.generate` expects, byte-level: `<|im_start|>assistant\\n`
    + text + the 5 trailing ids it cuts off (`<|im_end|>\\n<|im_start|>assistant\\n`). [1, len] int64."""
    s = SPECIAL
    head = [s["im_start_token_id"], s["assistant_token_id"], s["newline_token_id"]]
    tail = [
        s["im_end_token_id"],
        s["newline_token_id"],
        s["im_start_token_id"],
        s["assistant_token_id"],
        s["newline_token_id"],
    ]
    return torch.tensor([head + list(text.encode("utf-8")) + tail])
