"""export_bundle with a Qwen3-TTS-shaped config: the test model of export_bundle_model.py with a prefill
template (special text ids, codec ids added to text rows, only the first text token in the prefill) and
per-step text conditioning (the other tokens, then tts_eos, then tts_pad). The config passes through
export_bundle as written; `parity synth` reproduces the PyTorch decode of those rules (docs/bundle-format.md,
"Prefill template and per-step text conditioning"), written here, code for code."""

import copy
import json

import pytest
import torch

from tts_parity.export import export_bundle

import export_bundle_model as model
from parity_cli import ROOT, ensure_dist, run_parity

IM_START, TTS_BOS, TTS_EOS, TTS_PAD = 256, 257, 258, 259  # text ids past the bytes
CODEC_PAD = 22
TEXT = "hi there"  # 8 tokens; 1.5 frames per character = 12 frames: the conditioning runs out of text at step 10
FRAMES_PER_CHAR = 1.5

CONFIG = copy.deepcopy(model.CONFIG)
CONFIG["text"] = {
    "tokenizer": "byte",
    "framesPerChar": FRAMES_PER_CHAR,
    "maxBytes": model.MAX_BYTES,
}  # no bos beside a template
CONFIG["talker"]["prefill"] = {
    "template": [{"text": IM_START}, {"text": TTS_BOS, "codec": CODEC_PAD}, {"tokens": "first", "codec": model.BOS}]
}
CONFIG["talker"]["textConditioning"] = {"pad": TTS_PAD, "end": TTS_EOS}


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    ensure_dist()
    talker, code_predictor, vocoder = model.Talker(), model.CodePredictor(), model.Vocoder()
    text_rows, codec = model.embeddings(text_rows=260)
    bundle = export_bundle(
        tmp_path_factory.mktemp("qwen3") / "bundle",
        talker=talker,
        code_predictor=code_predictor,
        vocoder=vocoder,
        text_embeddings=text_rows,
        codec_embeddings=codec,
        config=CONFIG,
        parity_cmd=["node", str(ROOT / "bin" / "parity.js")],
    )
    return bundle, talker, code_predictor, text_rows, codec


def test_the_template_and_conditioning_pass_through_to_bundle_json_and_the_smoke_check(exported):
    bundle = exported[0]
    manifest = json.loads((bundle.path / "bundle.json").read_text())
    assert (
        manifest["talker"]["prefill"] == CONFIG["talker"]["prefill"]
        and manifest["talker"]["textConditioning"] == CONFIG["talker"]["textConditioning"]
    )
    assert "bos" not in manifest["text"] and manifest["embed"]["codecRowOffset"] == 260
    assert bundle.smoke[-1] == "smoke OK"


@pytest.mark.parametrize("profile", ["eager", "graph"])
def test_parity_synth_reproduces_the_pytorch_decode_of_the_template_rules(exported, tmp_path, profile):
    _, talker, code_predictor, text_rows, codec = exported
    tokens = list(TEXT.encode("utf-8"))
    # Each prefill position is the sum of the rows its part names, text then codec, from zero.
    prefill = torch.stack(
        [
            text_rows[IM_START],
            text_rows[TTS_BOS] + codec[0][CODEC_PAD],
            text_rows[tokens[0]] + codec[0][model.BOS],
        ]
    )[None]
    trailing = [*tokens[1:], TTS_EOS]  # decode step s adds trailing[s - 2], then the pad once they run out

    def step_text(step):
        return text_rows[trailing[step - 2] if step - 2 < len(trailing) else TTS_PAD]

    frames = model.frame_count(TEXT, FRAMES_PER_CHAR)
    assert frames == 12 and len(trailing) == 8  # steps 2..9 add the trailing tokens and tts_eos, 10..12 tts_pad
    expected = model.greedy_codes(talker, code_predictor, codec, prefill, frames, step_text)
    run = run_parity(
        "synth",
        "--bundle",
        exported[0].path,
        "--text",
        TEXT,
        "--profile",
        profile,
        "--trace",
        tmp_path / "t.jsonl",
        "--out",
        tmp_path / "a.wav",
    )
    assert run.returncode == 0, run.stderr
    steps = [json.loads(line) for line in (tmp_path / "t.jsonl").read_text().splitlines()[1:]]
    assert [s["codes"] for s in steps] == expected
    # The conditioning changes the codes: the same prefill without it decodes otherwise.
    assert model.greedy_codes(talker, code_predictor, codec, prefill, frames) != expected
