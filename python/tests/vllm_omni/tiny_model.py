"""Writes a tiny Qwen3-TTS model folder that vLLM-Omni loads as it loads the released 12Hz checkpoints: config.json,
model.safetensors and a tokenizer at the top, speech_tokenizer/ (the 12 Hz codec: Mimi encoder + decoder) below.

The weights are qwen-tts's own classes (`Qwen3TTSForConditionalGeneration`, `Qwen3TTSTokenizerV2Model`) saved by
`save_pretrained`, so the tensor names are the released checkpoint's; they are drawn from `torch.manual_seed(seed)`
and widened (post_init's N(0, 0.02) gives near-tied logits everywhere), then given decided argmaxes (`decide`:
random heads over 2048 codes leave top-1 - top-2 gaps near 0 in some rows, which bf16 rounding flips). This runs in
the main environment (.venv: qwen-tts 0.1.1 with transformers 4.57.3), not in .venv-vllm; conftest.py calls it once
per fixture version.

Sizes: head_dim 64 (vLLM's CPU attention supports 32, 64, 80, ... only); codebook 2048 and the codec special ids of
the released layout (vLLM-Omni hard-codes codec EOS 2150 as the talker's stop id and a codebook of 2048 in its
stage-input processor). The text tokenizer is byte-level: ids 0..255 are bytes, then the chat markers the prompt
builder slices on.

    python tiny_model.py OUT_DIR [--seed N]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch

FIXTURE_VERSION = 3  # bump when the folder's content changes (conftest.py keys its cache on this file's hash)
Q = 16
CODEBOOK = 2048
TALKER_VOCAB = 3072
CODEC = {  # the released 12Hz models' codec special ids (top of the talker vocabulary)
    "codec_pad_id": 2148,
    "codec_bos_id": 2149,
    "codec_eos_token_id": 2150,
    "codec_think_id": 2154,
    "codec_nothink_id": 2155,
    "codec_think_bos_id": 2156,
    "codec_think_eos_id": 2157,
}
TEXT_SPECIAL = ["<|im_start|>", "<|im_end|>", "<|tts_pad|>", "<|tts_bos|>", "<|tts_eos|>", "<|endoftext|>"]
TEXT_IDS = {
    "im_start_token_id": 256,
    "im_end_token_id": 257,
    "tts_pad_token_id": 258,
    "tts_bos_token_id": 259,
    "tts_eos_token_id": 260,
}
TEXT_VOCAB = 512


def talker_config() -> dict:
    head = {"num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 64}
    code_predictor = {
        "vocab_size": CODEBOOK,
        "hidden_size": 128,
        "intermediate_size": 256,
        "num_hidden_layers": 1,
        "num_code_groups": Q,
        "max_position_embeddings": 64,
        **head,
    }
    return {
        "code_predictor_config": code_predictor,
        "vocab_size": TALKER_VOCAB,
        "hidden_size": 128,
        "intermediate_size": 256,
        "num_hidden_layers": 2,
        "max_position_embeddings": 4096,
        "num_code_groups": Q,
        "text_hidden_size": 128,
        "text_vocab_size": TEXT_VOCAB,
        "rope_scaling": {"rope_type": "default", "mrope_section": [16, 8, 8], "interleaved": True},
        "spk_id": {"tiny": 2200},  # CustomVoice needs a named speaker: a codec id above the specials
        "spk_is_dialect": {},
        "codec_language_id": {"english": 2050},
        **CODEC,
        **head,
    }


def speech_tokenizer_config() -> dict:
    encoder = {  # a tiny Mimi: 960x downsampling then the stride-2 conv = 1920 samples per frame
        "hidden_size": 64,
        "num_hidden_layers": 1,
        "num_attention_heads": 2,
        "num_key_value_heads": 2,
        "head_dim": 32,
        "intermediate_size": 128,
        "num_filters": 8,
        "codebook_size": CODEBOOK,
        "codebook_dim": 16,
        "vector_quantization_hidden_dimension": 16,
        "num_quantizers": Q,
        "num_semantic_quantizers": 1,
        "upsampling_ratios": [8, 6, 5, 4],
        "sliding_window": 16,
        "upsample_groups": 64,
    }
    decoder = {
        "codebook_size": CODEBOOK,
        "codebook_dim": 16,
        "hidden_size": 64,
        "latent_dim": 64,
        "num_attention_heads": 2,
        "num_key_value_heads": 2,
        "head_dim": 32,
        "intermediate_size": 128,
        "num_hidden_layers": 1,
        "num_quantizers": Q,
        "upsample_rates": [8, 5, 4, 3],
        "upsampling_ratios": [2, 2],
        "decoder_dim": 32,
        "sliding_window": 8,
    }
    return {"encoder_config": encoder, "decoder_config": decoder, "encoder_valid_num_quantizers": Q}


def widen(model: torch.nn.Module) -> None:
    """Seeded weights wide enough for decided argmaxes (after `torch.manual_seed`)."""
    with torch.no_grad():
        for name, p in model.named_parameters():
            if p.dim() >= 2 and "norm" not in name:
                p.normal_(0.0, 0.3 if "embedding" in name or "head" in name else 0.15)


# decide(): each head row copies one input embedding's direction, so the winning logit is ~|h| * cos(h, e) with the
# hidden state h (norm sqrt(hidden) after the final RMSNorm) close to one embedding e, and the runner-up is a
# random direction's cosine (~0.34 at most over 2048 in 128 dims): gaps of several logits, decided in bf16.
HEAD_NORM = 1.0
QUIET_TALKER = 0.01  # attention and MLP outputs x this: the residual stream stays close to the step's input
QUIET_CODE_PREDICTOR = 1e-3  # smaller: its residual input (a residual codebook's embedding, x RESIDUAL_EMBED) is
RESIDUAL_EMBED = 0.125  # small against codebook 0's in the talker's input sum
TEXT_OUT = 0.2  # the text projection's output (the tts_pad row at every decode step) small against codebook 0's
BOS_READS_AS = 7  # codec_bos (the prefill's last position) embeds as this code, so the prefill's argmax is decided


def decide(model: torch.nn.Module, seed: int) -> None:
    """Heads that copy a permuted code: the talker's code 0 of a step is perm0[code 0 of the step before] (the
    decode input sums the 16 codebooks' embeddings and the text pad, codebook 0's dominating), the code
    predictor's code g is perm_g[code g-1] (its position g holds code g-1's embedding). The text and the code
    predictor's first position (the talker's hidden state) still reach every row through the quiet attention, so
    a change there moves the statistics, and a different code 0 changes every code after it."""
    talker = model.talker
    cp = talker.code_predictor
    generator = torch.Generator().manual_seed(seed + 2)
    with torch.no_grad():
        for layers, quiet in ((talker.model.layers, QUIET_TALKER), (cp.model.layers, QUIET_CODE_PREDICTOR)):
            for layer in layers:
                layer.self_attn.o_proj.weight.mul_(quiet)
                layer.mlp.down_proj.weight.mul_(quiet)
        for table in cp.model.codec_embedding:
            table.weight.mul_(RESIDUAL_EMBED)
        talker.text_projection.linear_fc2.weight.mul_(TEXT_OUT)
        codes0 = talker.model.codec_embedding.weight
        codes0[CODEC["codec_bos_id"]] = codes0[BOS_READS_AS]
        heads = [(talker.codec_head.weight, codes0[:CODEBOOK])]
        tables = [codes0[:CODEBOOK], *[t.weight for t in cp.model.codec_embedding][: Q - 2]]
        heads += [(head.weight, table) for head, table in zip(cp.lm_head, tables)]
        for head, table in heads:
            directions = torch.nn.functional.normalize(table.clone(), dim=1) * HEAD_NORM
            head.zero_()
            head[torch.randperm(CODEBOOK, generator=generator)] = directions


def write_tokenizer(out: Path) -> None:
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    byte_chars = pre_tokenizers.ByteLevel.alphabet()
    order = {c: i for i, c in enumerate(sorted(byte_chars, key=lambda c: _byte_of(c)))}
    tok = Tokenizer(models.BPE(vocab=order, merges=[]))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens(TEXT_SPECIAL)
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>", additional_special_tokens=TEXT_SPECIAL
    )
    fast.model_max_length = 4096
    fast.save_pretrained(out)
    ids = [fast.convert_tokens_to_ids(t) for t in TEXT_SPECIAL[:5]]
    if ids != list(TEXT_IDS.values()) or fast("A\n").input_ids != [65, 10]:
        sys.exit(f"tiny_model: the tokenizer's ids are not the layout this fixture states ({ids})")


def _byte_of(char: str) -> int:
    from transformers.models.gpt2.tokenization_gpt2 import bytes_to_unicode

    return {v: k for k, v in bytes_to_unicode().items()}[char]


def build(out: Path, seed: int) -> None:
    from qwen_tts.core.models import Qwen3TTSConfig, Qwen3TTSForConditionalGeneration
    from qwen_tts.core.tokenizer_12hz.configuration_qwen3_tts_tokenizer_v2 import Qwen3TTSTokenizerV2Config
    from qwen_tts.core.tokenizer_12hz.modeling_qwen3_tts_tokenizer_v2 import Qwen3TTSTokenizerV2Model

    from tts_parity.examples.qwen_tts_tiny import give_level

    out.mkdir(parents=True, exist_ok=True)
    config = Qwen3TTSConfig(
        talker_config=talker_config(),
        speaker_encoder_config={
            "enc_dim": 128,
            "enc_channels": [32, 32, 32, 32, 96],
            "enc_attention_channels": 16,
            "enc_se_channels": 16,
        },
        tts_model_type="custom_voice",
        tokenizer_type="qwen3_tts_tokenizer_12hz",
        tts_model_size="tiny",
        **TEXT_IDS,
    )
    torch.manual_seed(seed)
    model = Qwen3TTSForConditionalGeneration(config).eval()
    widen(model)
    decide(model, seed)
    model.save_pretrained(out, safe_serialization=True)
    saved = json.loads((out / "config.json").read_text())
    saved["speaker_encoder_config"].pop("model_type", None)  # qwen-tts writes ""; vLLM-Omni's config refuses the key
    (out / "config.json").write_text(json.dumps(saved, indent=2))

    torch.manual_seed(seed + 1)
    codec = Qwen3TTSTokenizerV2Model(Qwen3TTSTokenizerV2Config(**speech_tokenizer_config())).eval()
    give_level(codec.decoder)  # as built the decoder writes digital silence, which no comparison may call a match
    codec.save_pretrained(out / "speech_tokenizer", safe_serialization=True)
    (out / "speech_tokenizer" / "preprocessor_config.json").write_text(
        json.dumps(
            {
                "feature_extractor_type": "EncodecFeatureExtractor",
                "feature_size": 1,
                "sampling_rate": 24000,
                "padding_side": "right",
                "padding_value": 0.0,
                "return_attention_mask": True,
            },
            indent=2,
        )
    )
    write_tokenizer(out)
    (out / "generation_config.json").write_text(json.dumps({"do_sample": False}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    build(args.out, args.seed)
    print(args.out)


if __name__ == "__main__":
    main()
