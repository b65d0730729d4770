"""transformers' CSM exported as a bundle (docs/real-models.md, "CSM", "Export"): `parity synth` of the bundle,
eager and graph, gives CsmForConditionalGeneration.generate()'s greedy codes and Mimi's audio."""

import dataclasses
import json
import traceback
from pathlib import Path

import pytest
import torch
from hf_recipes import build_csm
from real_support import compare_trace, read_trace, wav_of

from parity_cli import ROOT, needs_node, synth_eager_and_graph

TEXT = "tts"
FRAMES = 15  # framesPerChar 5; at frame 15 the backbone's greedy code 0 is 0, the id an EOS logit would take


@pytest.fixture(scope="module")
def csm_byte_text():
    """The recipe with 257 text ids (UTF-8 bytes, BOS 256) and a depth decoder narrower than the backbone."""
    torch.set_num_threads(1)
    parts = build_csm(seed=0, text_vocab_size=257, depth_hidden=16)
    return dataclasses.replace(parts, input_ids=torch.tensor([[256, *TEXT.encode()]]))


@pytest.fixture(scope="module")
def exported(csm_byte_text, tmp_path_factory):
    needs_node()  # export_bundle's smoke check runs `parity bundle check --smoke`
    from hf_tracing import trace_csm

    from tts_parity.examples.csm_export import (
        BackboneAdapter,
        DepthDecoderAdapter,
        MimiDecoderAdapter,
        csm_bundle_inputs,
    )
    from tts_parity.export import export_bundle

    model = csm_byte_text.model
    out = tmp_path_factory.mktemp("csm-bundle")
    text_rows, codec, config = csm_bundle_inputs(
        model, text_bos=256, frames_per_char=FRAMES / len(TEXT), max_frames=16, max_positions=64
    )
    bundle = export_bundle(
        out / "bundle",
        talker=BackboneAdapter(model),
        code_predictor=DepthDecoderAdapter(model.depth_decoder),
        vocoder=MimiDecoderAdapter(model.codec_model),
        text_embeddings=text_rows,
        codec_embeddings=codec,
        config=config,
        unused_vocoder_inputs=("noise", "context_frames"),
        parity_cmd=["node", str(ROOT / "bin" / "parity.js")],
    )
    # The exported bundle decodes with the codec as it is: no gain on its reference (its short take is in [-1, 1]).
    reference = trace_csm(
        csm_byte_text, str(out / "generate.jsonl"), profile="eager", max_new_tokens=FRAMES, codec_gain=1.0
    )
    synth_eager_and_graph(bundle.path, TEXT, out)
    return bundle, reference, out


@pytest.mark.parametrize("profile", ["eager", "graph"])
def test_parity_synth_of_the_exported_bundle_gives_generates_codes_and_audio(exported, profile):
    bundle, reference, out = exported
    assert bundle.smoke[-1] == "smoke OK"
    manifest = json.loads((bundle.path / "bundle.json").read_text())
    assert "eos" not in manifest["specialCodes"]  # CSM's backbone has no EOS logit: nothing is masked
    assert reference.codes[FRAMES - 1, 0] == 0  # so a bundle that masked an EOS id 0 would differ here
    _header, steps = read_trace(out / f"{profile}.jsonl")
    assert [s["codes"] for s in steps] == reference.codes.tolist()  # 15 frames x 4 codes
    report, _ = compare_trace(
        reference.path,
        str(out / f"{profile}.jsonl"),
        str(out / f"report-{profile}"),
        "--wav-a",
        wav_of(reference.path),
        "--wav-b",
        str(out / f"{profile}.wav"),
    )
    # ONNX Runtime vs PyTorch float32 kernels: within the default tolerances (logits 1e-3, audio 1e-4).
    assert report["verdict"] == "within-tolerance", report["divergence"]


def test_stock_mimi_decode_stops_the_torchscript_exporter_in_transformers_mask_creation(csm_byte_text, tmp_path):
    """docs/real-models.md: why MimiDecoderAdapter makes the decoder transformer's mask itself."""
    mimi = csm_byte_text.model.codec_model
    codes = torch.zeros(1, csm_byte_text.q, 4, dtype=torch.int64)
    with pytest.raises(RuntimeError, match="unordered_map::at") as error:
        torch.onnx.export(
            _Decode(mimi),
            (codes,),
            str(tmp_path / "mimi.onnx"),
            dynamo=False,
        )
    import transformers

    packages = str(Path(transformers.__file__).parents[1]) + "/"  # site-packages, or gpu-check unpacked copy
    frames = [(f.filename.removeprefix(packages), f.lineno) for f in traceback.extract_tb(error.tb)]
    assert ("transformers/models/mimi/modeling_mimi.py", 1101) in frames  # MimiTransformerModel: create_causal_mask
    assert ("transformers/masking_utils.py", 392) in frames  # sdpa_mask_recent_torch: _vmap_for_bhqkv(...)(...)


class _Decode(torch.nn.Module):
    def __init__(self, mimi):
        super().__init__()
        self.mimi = mimi

    def forward(self, codes):
        return self.mimi.decode(codes, return_dict=False)[0]
