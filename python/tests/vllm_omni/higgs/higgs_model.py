"""A tiny random-weight Higgs-Audio-v3 model folder, as vLLM-Omni 0.30.0 loads `bosonai/higgs-audio-v3-tts-4b`:
config.json (model_type higgs_multimodal_qwen3), one model.safetensors with the checkpoint's own key names
(talker under tied./body., the codec for code2wav bundled under tied.embedding.modality_embeddings.0.model.),
and a byte-level tokenizer with the specials the config resolves (<|tts|>, <|text|>, <|audio|>, eos).

Sizes that are not free: the text vocabulary is at least 151,672 (the pipeline hard-codes stop ids 151643 and
151671, pipeline.py), the head size is 64 (CPU attention takes 32, 64, 80, ...), and the codec decoder is the
real DAC layout (channels 1024, rates 8/5/4/2/3: its builder hard-codes them), so most of the bytes are codec.
Seeded: the same seed writes the same bytes.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import torch

if TYPE_CHECKING:
    from pathlib import Path

TEXT_VOCAB = 151_680
HIDDEN = 64
LAYERS = 2
NUM_CODEBOOKS = 8
CODEBOOK_SIZE = 1026  # 1024 codes + BOC 1024 + EOC 1025
CODEC_HIDDEN = 64  # the RVQ's project_out width (free: the loader reads it from the weights)
CODEC_CODEBOOK_DIM = 64  # fixed by the loader (_load_from_bundled_state)
# The DAC config the loader builds for the OmniVoice layout (higgs_audio_v3_code2wav.py, _load_from_bundled_state).
DAC_CONFIG = {
    "codebook_dim": 8,
    "codebook_size": 1024,
    "decoder_hidden_size": 1024,
    "downsampling_ratios": [8, 5, 4, 2, 3],
    "encoder_hidden_size": 64,
    "hidden_size": 256,
    "hop_length": 960,
    "n_codebooks": 9,
    "sampling_rate": 16000,
    "upsampling_ratios": [8, 5, 4, 2, 3],
}
SPECIALS = ("<|endoftext|>", "<|tts|>", "<|text|>", "<|audio|>", "<|audio_end|>")
CODEC_PREFIX = "tied.embedding.modality_embeddings.0.model."
LAYER_SUFFIXES = {
    "input_layernorm.weight": (HIDDEN,),
    "post_attention_layernorm.weight": (HIDDEN,),
    "self_attn.q_norm.weight": (64,),
    "self_attn.k_norm.weight": (64,),
    "self_attn.q_proj.weight": (64, HIDDEN),
    "self_attn.k_proj.weight": (64, HIDDEN),
    "self_attn.v_proj.weight": (64, HIDDEN),
    "self_attn.o_proj.weight": (HIDDEN, 64),
    "mlp.gate_proj.weight": (128, HIDDEN),
    "mlp.up_proj.weight": (128, HIDDEN),
    "mlp.down_proj.weight": (HIDDEN, 128),
}


def config() -> dict:
    return {
        "model_type": "higgs_multimodal_qwen3",
        "architectures": ["HiggsMultimodalQwen3ForConditionalGeneration"],
        "torch_dtype": "bfloat16",
        "num_codebooks": NUM_CODEBOOKS,
        "codebook_size": CODEBOOK_SIZE,
        "audio_encoder_config": {
            "encoder_type": "discrete",
            "num_codebooks": NUM_CODEBOOKS,
            "vocab_size": CODEBOOK_SIZE,
            "tie_word_embeddings": True,
        },
        # The talker's own MLP CUDA graph: on by default; there is no CUDA here.
        "enable_mlp_cudagraph": False,
        "sample_rate": 24000,
        "frame_rate": 25,
        "text_config": {
            "model_type": "qwen3",
            "vocab_size": TEXT_VOCAB,
            "hidden_size": HIDDEN,
            "intermediate_size": 128,
            "num_hidden_layers": LAYERS,
            "num_attention_heads": 1,
            "num_key_value_heads": 1,
            "head_dim": 64,
            "max_position_embeddings": 4096,
            "rms_norm_eps": 1e-6,
            "tie_word_embeddings": True,
            "torch_dtype": "bfloat16",
        },
    }


def talker_weights(generator: torch.Generator) -> dict[str, torch.Tensor]:
    def randn(*shape: int, scale: float = 0.05) -> torch.Tensor:
        return (torch.randn(*shape, generator=generator) * scale).to(torch.bfloat16)

    weights = {
        "tied.embedding.text_embedding.weight": randn(TEXT_VOCAB, HIDDEN),
        "body.norm.weight": torch.ones(HIDDEN, dtype=torch.bfloat16),
        "tied.embedding.modality_embeddings.0.embedding.weight": randn(
            NUM_CODEBOOKS * CODEBOOK_SIZE, HIDDEN, scale=0.5
        ),
    }
    for layer in range(LAYERS):
        for suffix, shape in LAYER_SUFFIXES.items():
            norm = suffix.endswith("norm.weight")
            weights[f"body.layers.{layer}.{suffix}"] = (
                torch.ones(*shape, dtype=torch.bfloat16) if norm else randn(*shape, scale=0.2)
            )
    return weights


def codec_weights(generator: torch.Generator) -> dict[str, torch.Tensor]:
    """The decoder side of the codec, under the bundled prefix: RVQ (8 quantizers), fc2, and the DAC decoder with
    exactly the keys the library's own builder makes (its load_state_dict refuses missing or extra keys)."""
    from vllm_omni.model_executor.models.higgs_audio_v2.higgs_audio_decoder import build_higgs_audio_acoustic_decoder

    def randn(*shape: int, scale: float) -> torch.Tensor:
        return torch.randn(*shape, generator=generator) * scale

    state: dict[str, torch.Tensor] = {}
    for i in range(NUM_CODEBOOKS):
        state[f"quantizer.quantizers.{i}.codebook.weight"] = randn(1024, CODEC_CODEBOOK_DIM, scale=1.0)
        state[f"quantizer.quantizers.{i}.project_out.weight"] = randn(CODEC_HIDDEN, CODEC_CODEBOOK_DIM, scale=0.1)
        state[f"quantizer.quantizers.{i}.project_out.bias"] = torch.zeros(CODEC_HIDDEN)
    state["fc2.weight"] = randn(DAC_CONFIG["hidden_size"], CODEC_HIDDEN, scale=0.1)
    state["fc2.bias"] = torch.zeros(DAC_CONFIG["hidden_size"])
    decoder = build_higgs_audio_acoustic_decoder(
        {"acoustic_model_config": {**DAC_CONFIG, "model_type": "dac"}}, torch.device("cpu")
    )
    for key, value in decoder.state_dict().items():
        # snake alphas of 1 and weights at the builder's fan-in scale keep the random decoder's output finite
        scale = 1.0 / max(1, value[0].numel()) ** 0.5 if value.dim() > 1 else 0.0
        state[f"acoustic_decoder.{key}"] = (
            torch.ones_like(value) if key.endswith("alpha") else randn(*value.shape, scale=scale)
        )
    # At that scale the random decoder peaks in the hundreds; the last convolution x 2^-10 (exact in bfloat16) brings
    # its output inside [-1, 1], where a WAV's float samples live (the trace writer refuses others).
    last = [key for key, value in decoder.state_dict().items() if value.dim() > 1][-1]
    state[f"acoustic_decoder.{last}"] = state[f"acoustic_decoder.{last}"] * 2.0**-10
    return {CODEC_PREFIX + key: value.to(torch.bfloat16) for key, value in state.items()}


def write_tokenizer(folder: Path) -> None:
    """A byte-level BPE over the 256 bytes (no merges) with the specials added after them."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    byte_chars = pre_tokenizers.ByteLevel.alphabet()
    vocab = {char: index for index, char in enumerate(sorted(byte_chars))}
    tokenizer = Tokenizer(models.BPE(vocab=vocab, merges=[]))
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    tokenizer.add_special_tokens(list(SPECIALS))
    tokenizer.save(str(folder / "tokenizer.json"))
    (folder / "tokenizer_config.json").write_text(
        json.dumps(
            {
                "tokenizer_class": "PreTrainedTokenizerFast",
                "eos_token": "<|endoftext|>",
                "pad_token": "<|endoftext|>",
                "model_max_length": 4096,
            },
            indent=2,
        )
    )


def build_model_folder(folder: Path, seed: int = 0) -> Path:
    """Writes the model folder (about 60 MB, most of it the codec) and returns it."""
    from safetensors.torch import save_file

    folder.mkdir(parents=True, exist_ok=True)
    generator = torch.Generator().manual_seed(seed)
    weights = {**talker_weights(generator), **codec_weights(generator)}
    save_file(weights, str(folder / "model.safetensors"), metadata={"format": "pt"})
    (folder / "config.json").write_text(json.dumps(config(), indent=2))
    write_tokenizer(folder)
    return folder


def special_ids(folder: Path) -> dict[str, int]:
    tokenizer = json.loads((folder / "tokenizer.json").read_text())
    return {token["content"]: token["id"] for token in tokenizer["added_tokens"]}
