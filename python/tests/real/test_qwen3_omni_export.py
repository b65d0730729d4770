"""transformers' Qwen3-Omni talker + code predictor + code2wav exported as a bundle (docs/real-models.md,
"Qwen3-Omni", "Export"): `parity synth`, eager and graph, gives the talker generate()'s greedy codes and code2wav's
audio. The thinker is not built: a seeded random text table stands in for text_projection(thinker word embeddings),
and the talker's prompt is made from its rows as Qwen3OmniMoeForConditionalGeneration.generate lays it out."""

import contextlib
import json

import numpy as np
import pytest
import torch
from hf_recipes import OMNI_BOS, OMNI_CODEBOOK, OMNI_EOS, OMNI_PAD, OMNI_TALKER_VOCAB, build_omni, omni_frame_codes

from optional_modules import scipy_wavfile
from parity_cli import ROOT, needs_node, synth_eager_and_graph

TEXT = "hey"
FRAMES = 6
IM_START, ASSISTANT, NEWLINE, TTS_PAD, TTS_BOS, TTS_EOS = range(256, 262)  # text ids after the 256 bytes
TEMPLATE = [  # _get_talker_assistant_parts' layout, less the think/speaker codec ids the tiny vocabulary lacks
    {"text": IM_START},
    {"text": ASSISTANT},
    {"text": NEWLINE},
    {"text": TTS_PAD, "codec": OMNI_PAD},
    {"text": TTS_BOS, "codec": OMNI_PAD},
    {"tokens": "first", "codec": OMNI_BOS},
]


def talker_inputs(text_rows, codec0, text):
    """generate()'s talker kwargs from the table rows, by bundle-format.md's template and conditioning rules."""
    ids = list(text.encode())
    rows = [text_rows[IM_START], text_rows[ASSISTANT], text_rows[NEWLINE]]
    rows += [text_rows[TTS_PAD] + codec0[OMNI_PAD], text_rows[TTS_BOS] + codec0[OMNI_PAD]]
    rows += [text_rows[ids[0]] + codec0[OMNI_BOS]]
    prompt = torch.stack(rows)[None]
    return {
        "inputs_embeds": prompt,
        "attention_mask": torch.ones(1, prompt.shape[1], dtype=torch.long),
        "trailing_text_hidden": torch.stack([text_rows[i] for i in [*ids[1:], TTS_EOS]])[None],
        "tts_pad_embed": text_rows[TTS_PAD][None, None],
        "talker_input_ids": torch.zeros(1, prompt.shape[1], dtype=torch.long),
    }


@contextlib.contextmanager
def greedy_code_predictor(talker):
    """The talker calls code_predictor.generate(do_sample=True, top_k=50, top_p=0.8) whatever its own settings
    (modeling_qwen3_omni_moe.py:3177-3186): made greedy, as the bundle's greedy synth is."""
    cp = talker.code_predictor
    stock = cp.generate
    cp.generate = lambda **kwargs: stock(**{**kwargs, "do_sample": False, "top_k": None, "top_p": None})
    try:
        yield
    finally:
        del cp.generate


def bundle_config(hop, talker_config, cp_config):
    from tts_parity.examples.hf_flat_cache import decoder_shape

    return {
        "name": "qwen3-omni-talker-tiny",
        "description": "transformers Qwen3-Omni talker, tiny config, seeded random weights: NOT a trained voice",
        "sampleRate": 24000,
        "frameRate": 24000 / hop,
        "codebooks": 4,
        "codebookSize": OMNI_CODEBOOK,
        "specialCodes": {"eos": OMNI_EOS, "bos": OMNI_BOS},
        "text": {"tokenizer": "byte", "framesPerChar": FRAMES / len(TEXT), "maxBytes": 8},
        "maxFrames": 8,
        "talker": {
            **decoder_shape(talker_config.text_config),
            "maxPositions": 32,
            "vocab": OMNI_TALKER_VOCAB,
            "specialIds": {"suppress": "all-except-eos"},
            "prefill": {"template": TEMPLATE},
            "textConditioning": {"pad": TTS_PAD, "end": TTS_EOS},
        },
        "codePredictor": {**decoder_shape(cp_config), "maxPositions": 4},
        "vocoder": {"leftContextFrames": 0, "chunkFrames": 8},
    }


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    needs_node()  # export_bundle's smoke check runs `parity bundle check --smoke`
    from omni_capture import dense_moe
    from omni_export import Code2WavAdapter, OmniCodePredictorAdapter
    from transformers import LogitsProcessorList, SuppressTokensLogitsProcessor

    from tts_parity.examples.qwen_tts_export import TalkerAdapter
    from tts_parity.export import export_bundle

    specials = SuppressTokensLogitsProcessor(list(range(OMNI_CODEBOOK, OMNI_TALKER_VOCAB)))
    torch.set_num_threads(1)
    parts = build_omni(seed=0)
    talker = parts.talker
    text_rows = torch.randn(262, 32, generator=torch.Generator().manual_seed(3)) * 0.5
    codec0 = talker.get_input_embeddings().weight.detach()
    codec = [codec0] + [e.weight.detach() for e in talker.code_predictor.model.get_input_embeddings()]
    with torch.no_grad(), greedy_code_predictor(talker):
        out = talker.generate(
            **talker_inputs(text_rows, codec0, TEXT),
            max_new_tokens=FRAMES + 1,  # call k + 1 fills frame k's codebooks 1..3
            do_sample=False,
            eos_token_id=OMNI_EOS,
            pad_token_id=OMNI_EOS,
            # the engine masks every id from 64 up, EOS included (the frame count ends the loop)
            logits_processor=LogitsProcessorList([specials]),
            output_hidden_states=True,
            return_dict_in_generate=True,
        )
        codes = omni_frame_codes(out)
        audio = parts.code2wav(codes.T.unsqueeze(0))[0, 0]
    out_dir = tmp_path_factory.mktemp("omni-bundle")
    config = bundle_config(int(parts.code2wav.total_upsample), talker.config, talker.code_predictor.config)
    with dense_moe(talker):
        bundle = export_bundle(
            out_dir / "bundle",
            talker=TalkerAdapter(talker),  # the Qwen3-TTS talker adapter serves: same model call, same head
            code_predictor=OmniCodePredictorAdapter(talker.code_predictor),
            vocoder=Code2WavAdapter(parts.code2wav),
            text_embeddings=text_rows,
            codec_embeddings=codec,
            config=config,
            unused_vocoder_inputs=("noise", "context_frames"),
            parity_cmd=["node", str(ROOT / "bin" / "parity.js")],
        )
    synth_eager_and_graph(bundle.path, TEXT, out_dir)
    return bundle, codes, audio, out_dir


@pytest.mark.parametrize("profile", ["eager", "graph"])
def test_parity_synth_of_the_exported_bundle_gives_generates_codes_and_code2wavs_audio(exported, profile):
    bundle, codes, audio, out = exported
    assert bundle.smoke[-1] == "smoke OK"
    steps = [json.loads(line) for line in (out / f"{profile}.jsonl").read_text().splitlines()[1:]]
    assert [s["codes"] for s in steps] == codes.tolist()  # 6 frames x 4 codes
    _rate, wav = scipy_wavfile().read(out / f"{profile}.wav")
    assert len(wav) == FRAMES * 64  # F·hop: code2wav's F·hop − 20, then 20 zero samples
    assert np.abs(wav[: audio.numel()] - audio.numpy()).max() < 1e-4  # the documented audio tolerance
    assert not wav[audio.numel() :].any()
