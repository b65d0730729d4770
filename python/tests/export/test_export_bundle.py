"""export_bundle on a model written here (python/tests/export_bundle_model.py: 22050 Hz, 21 frames/s, Q = 5
with per-codebook sizes, special codec ids, a code predictor behind a projection): the bundle passes
`parity bundle check --smoke`, and `parity synth` gives the codes and audio of the model's own PyTorch
greedy decode, written from docs/bundle-format.md's rules, in both profiles and with the streaming vocoder."""

import json

import numpy as np
import onnx
import pytest

from tts_parity.export import ExportError, export_bundle, smoke_check

import export_bundle_model as model
from optional_modules import scipy_wavfile
from parity_cli import ROOT, ensure_dist, run_parity

TEXT = "hi there"  # 8 code points x 0.75 = 6 frames


@pytest.fixture(scope="module")
def modules():
    return model.Talker(), model.CodePredictor(), model.Vocoder(), *model.embeddings()


@pytest.fixture(scope="module")
def exported(modules, tmp_path_factory):
    ensure_dist()
    talker, code_predictor, vocoder, text_rows, codec = modules
    return export_bundle(
        tmp_path_factory.mktemp("export") / "bundle",
        talker=talker,
        code_predictor=code_predictor,
        vocoder=vocoder,
        text_embeddings=text_rows,
        codec_embeddings=codec,
        config=model.CONFIG,
        parity_cmd=["node", str(ROOT / "bin" / "parity.js")],
    )


def test_the_exported_bundle_passes_the_smoke_check(exported):
    print(f"export_bundle: {exported.export_seconds:.2f} s exporting (4 decoder exports, vocoder, table)")
    assert exported.smoke[-1] == "smoke OK"
    agreement = next(line for line in exported.smoke if "eager vs graph (fp32)" in line)
    assert "codes identical" in agreement
    for label in (
        "talker eager-fp32",
        "talker graph-fp32",
        "code-predictor eager-fp32",
        "code-predictor graph-fp32",
        "vocoder fp32",
    ):
        assert any(line.strip().startswith(label) and "every declared input read" in line for line in exported.smoke), (
            label
        )


def test_bundle_json_declares_every_export_with_its_tensors(exported):
    manifest = json.loads((exported.path / "bundle.json").read_text())
    assert manifest["format"] == "tts-parity-bundle/1" and manifest["hopLength"] == model.HOP
    assert (
        set(manifest["talker"]["exports"]) == set(manifest["codePredictor"]["exports"]) == {"eager-fp32", "graph-fp32"}
    )
    assert set(manifest["vocoder"]["exports"]) == {"fp32"}
    assert (
        manifest["embed"]["codecRowOffset"] == model.TEXT_ROWS
        and manifest["embed"]["codecRowsPerCodebook"] == model.VOCAB
    )
    graph = manifest["talker"]["exports"]["graph-fp32"]
    names = [t["name"] for t in graph["inputs"]]
    assert names == ["inputs_embeds", "attention_mask", "position_ids"] + [
        f"past_key_values.{i}.{kv}" for i in range(2) for kv in ("key", "value")
    ]
    assert graph["outputs"][0] == {"name": "logits", "dtype": "float32", "shape": [1, 1, model.VOCAB]}
    cp_eager = manifest["codePredictor"]["exports"]["eager-fp32"]
    assert cp_eager["inputs"][:2] == [
        {"name": "generation_step", "dtype": "int64", "shape": [1]},
        {"name": "inputs_embeds", "dtype": "float32", "shape": [1, "sequence_length", model.TALKER["hidden"]]},
    ]
    assert manifest["codePredictor"]["projection"] == {"from": 24, "to": 12}


def test_graph_exports_declare_fixed_output_shapes_in_the_file(exported):
    # What the file says (not what ONNX Runtime infers): CUDA-graph capture and other runtimes read this.
    for file in ("talker.graph.fp32.onnx", "code-predictor.graph.fp32.onnx"):
        for output in onnx.load(str(exported.path / file)).graph.output:
            dims = output.type.tensor_type.shape.dim
            assert dims and all(d.HasField("dim_value") for d in dims), (file, output.name, dims)


# vocoder=stream: chunks of 3 frames with 2 of left context and the phase carried (phase0 <- end_phase),
# which this vocoder (pointwise per frame) turns into the full decode's audio.
@pytest.mark.parametrize("profile", ["eager", "graph", "graph,vocoder=stream"])
def test_parity_synth_reproduces_the_pytorch_greedy_decode(exported, modules, tmp_path, profile):
    talker, code_predictor, vocoder, text_rows, codec = modules
    expected = model.greedy_codes(
        talker, code_predictor, codec, model.byte_prefill(text_rows, TEXT), model.frame_count(TEXT)
    )
    run = run_parity(
        "synth",
        "--bundle",
        exported.path,
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
    assert [s["codes"] for s in steps] == expected  # code for code, all 6 frames x 5 codebooks

    # The masks mattered: the raw talker row (the trace's statistics) led with EOS or a special id at
    # some step, and some code predictor row with an id past its codebook's size.
    assert any(s["logits"]["argmax"] >= model.SIZES[0] for s in steps)
    assert any(
        row["argmax"] >= model.SIZES[cb] for s in steps for cb, row in enumerate(s["codePredictorLogits"], start=1)
    )

    # Audio: ONNX Runtime and PyTorch differ only in float32 summation order (3e-8 seen on peaks of
    # 0.37); 1e-5 leaves room for other BLAS builds and still fails on any wrong frame, noise or phase.
    rate, audio = scipy_wavfile().read(tmp_path / "a.wav")
    reference = model.vocode(vocoder, expected)
    assert rate == model.SAMPLE_RATE and audio.shape == reference.shape == (6 * model.HOP,)
    assert np.abs(audio - reference).max() <= 1e-5


def test_a_smoke_check_that_cannot_run_is_one_line(exported):
    with pytest.raises(ExportError) as caught:
        smoke_check(exported.path, parity_cmd=["/nonexistent/parity"])
    assert str(caught.value).startswith("smoke check: could not run /nonexistent/parity bundle check ")


def test_the_package_offers_it_at_the_top_level():
    import tts_parity

    assert tts_parity.export_bundle is export_bundle
