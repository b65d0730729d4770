"""transformers' Dia exported as a bundle (docs/real-models.md, "Dia", "Export"): `parity synth` of the bundle,
eager and graph, gives DiaForConditionalGeneration.generate()'s greedy codes, step for step as emitted (delay
pattern, BOS lead-in, EOS and PAD tail) and frame for frame once the delay is undone, and DacModel.decode's audio."""

import json
import re
import shutil

import jsonschema
import numpy as np
import pytest
import torch
from hf_recipes import DIA_DELAYS, build_dac, build_dia
from real_support import compare_trace

from conftest import PYTHON_DIR
from optional_modules import scipy_wavfile
from parity_cli import ROOT, needs_node, run_parity, synth_eager_and_graph

TEXT = "hello"
FRAMES = 5  # framesPerChar 1: codebook 0's EOS is forced at step 6, the last codebook's at step 6 + 4
STEPS = FRAMES + 1 + max(DIA_DELAYS)
AUDIO_TOLERANCE = 1e-6  # DAC with random weights is quiet (peak 5.5e-3), so 1e-4 would be 2 % of it; measured 1.4e-9


def undelayed(emitted):
    """[steps, q] as emitted -> [FRAMES, q]: frame f (from 1) of codebook k was emitted at step f + delays[k]."""
    return torch.stack(
        [emitted[f - 1 + torch.tensor(DIA_DELAYS), torch.arange(len(DIA_DELAYS))] for f in range(1, FRAMES + 1)]
    )


@pytest.fixture(scope="module")
def dia_and_dac():
    torch.set_num_threads(1)
    return build_dia(seed=0, text=TEXT), build_dac(seed=1)


@pytest.fixture(scope="module")
def generated(dia_and_dac, tmp_path_factory):
    """generate()'s trace (raw logit rows and sequences after the BOS column, [STEPS, q] as emitted; hf_tracing's
    trace_dia), and DAC's audio of its frames."""
    from hf_tracing import trace_dia

    parts, dac = dia_and_dac
    # max_new_tokens = STEPS: Dia forces codebook 0's EOS at step max_new_tokens - max delay (generation_dia.py)
    run = trace_dia(
        parts, str(tmp_path_factory.mktemp("dia-generate") / "generate.jsonl"), profile="generate", max_new_tokens=STEPS
    )
    with torch.no_grad():
        audio = dac.decode(audio_codes=undelayed(run.codes).T[None]).audio_values[0]
    return run, audio


@pytest.fixture(scope="module")
def exported(dia_and_dac, tmp_path_factory):
    needs_node()  # export_bundle's smoke check runs `parity bundle check --smoke`
    from tts_parity.examples.dia_export import (
        DacDecoderAdapter,
        DiaDecoderAdapter,
        DiaEncoderAdapter,
        dia_bundle_inputs,
    )
    from tts_parity.export import export_bundle

    parts, dac = dia_and_dac
    out = tmp_path_factory.mktemp("dia-bundle")
    text_rows, codec, config = dia_bundle_inputs(parts.model, dac, frames_per_char=FRAMES / len(TEXT))
    bundle = export_bundle(
        out / "bundle",
        talker=DiaDecoderAdapter(parts.model),
        code_predictor=None,
        encoder=DiaEncoderAdapter(parts.model.model.encoder),
        vocoder=DacDecoderAdapter(dac),
        text_embeddings=text_rows,
        codec_embeddings=codec,
        config=config,
        unused_vocoder_inputs=("noise", "context_frames"),
        parity_cmd=["node", str(ROOT / "bin" / "parity.js")],
    )
    synth_eager_and_graph(bundle.path, TEXT, out)
    return bundle, out


@pytest.mark.parametrize("profile", ["eager", "graph"])
def test_parity_synth_of_the_exported_bundle_gives_generates_codes_and_dacs_audio(exported, generated, profile):
    bundle, out = exported
    run, audio = generated
    emitted = run.codes
    assert bundle.smoke[-1] == "smoke OK"
    lines = (out / f"{profile}.jsonl").read_text().splitlines()
    header, steps = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    assert header["codebookDelays"] == list(DIA_DELAYS)
    assert [s["codes"] for s in steps] == emitted.tolist()  # 10 steps x 4 codes as emitted: BOS, codes, EOS, PAD
    assert undelayed(torch.tensor([s["codes"] for s in steps])).tolist() == undelayed(emitted).tolist()
    _rate, wav = scipy_wavfile().read(out / f"{profile}.wav")
    assert len(wav) == audio.numel() == FRAMES * 512  # DAC's decoder gives F·hop samples
    assert np.abs(wav - audio.numpy()).max() < AUDIO_TOLERANCE
    # Every step's raw rows too (logit statistics of all q codebooks): ONNX Runtime vs PyTorch, default tolerance.
    report, _ = compare_trace(run.path, str(out / f"{profile}.jsonl"), str(out / f"report-{profile}"))
    assert report["verdict"] == "within-tolerance", report["divergence"]


def test_the_models_own_eos_ends_the_take_as_in_generate(exported, dia_and_dac, tmp_path):
    """Asked for 8 frames, the tiny Dia (seed 0) puts EOS on top of codebook 0 at step 8 itself, before the frame
    count would force it at step 9: generate() ends the take there (7 frames, 12 steps), and so must the engine."""
    from hf_tracing import trace_dia

    bundle, _ = exported
    asked = 8
    longer = tmp_path / "bundle"
    shutil.copytree(bundle.path, longer)
    manifest = json.loads((longer / "bundle.json").read_text())
    manifest["text"]["framesPerChar"] = asked / len(TEXT)
    (longer / "bundle.json").write_text(json.dumps(manifest))
    run = trace_dia(dia_and_dac[0], str(tmp_path / "generate.jsonl"), profile="generate", max_new_tokens=asked + 1 + 4)
    eos_step = run.codes[:, 0].tolist().index(64) + 1
    assert eos_step < asked + 1  # the model's own EOS: what this test is about
    done = run_parity(
        "synth", "--bundle", longer, "--text", TEXT, "--profile", "graph",
        "--out", tmp_path / "graph.wav", "--trace", tmp_path / "graph.jsonl",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"{eos_step - 1} frames" in done.stdout
    steps = [json.loads(line)["codes"] for line in (tmp_path / "graph.jsonl").read_text().splitlines()[1:]]
    assert steps == run.codes.tolist()


def test_parity_compare_reports_a_divergence_at_its_frame(exported):
    """`parity compare` of two profiles of the bundle maps steps to frames by the bundle's delays: fault
    stale-feedback@3 feeds step 3 step 1's emission, and the first differing frame is step 3 minus the delay of the
    codebook that differs there (codebook 1's frame 1 comes before codebook 0's frame 3)."""
    bundle, out = exported
    done = run_parity(
        "compare", "--bundle", bundle.path, "--text", TEXT, "--a", "eager", "--b", "eager,fault=stale-feedback@3",
        "--out", out / "stale",
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    d = json.loads((out / "stale" / "report.json").read_text())["divergence"]
    assert d["firstStep"] == 3 and d["codebookDelays"] == list(DIA_DELAYS)
    assert d["frame"]["step"] == 3
    assert d["frame"]["frame"] == 3 - DIA_DELAYS[d["frame"]["codebook"]]


def test_the_generate_reference_has_the_delay_patterns_lead_in_and_tail(generated):
    """What the exact comparison above covers: each codebook's BOS lead-in, codebook 0's EOS at step FRAMES + 1,
    codebook k's at FRAMES + 1 + delays[k], PAD after (Dia's DiaEOSDelayPatternLogitsProcessor and padding)."""
    emitted = generated[0].codes
    bos, eos, pad = 66, 64, 65
    for k, delay in enumerate(DIA_DELAYS):
        column = emitted[:, k].tolist()
        assert column[:delay] == [bos] * delay
        assert column[FRAMES + delay] == eos and set(column[FRAMES + delay + 1 :]) <= {pad}
        assert all(0 <= c < 64 for c in column[delay : FRAMES + delay])


def test_the_bundle_json_is_the_one_docs_bundle_format_md_shows(exported):
    bundle, _ = exported
    page = (ROOT / "docs" / "bundle-format.md").read_text(encoding="utf-8")
    documented = re.search(r"<!-- example: bundle-json-dia -->\n```json\n(.*?)\n```", page, re.S)
    assert documented and json.loads(documented.group(1)) == json.loads((bundle.path / "bundle.json").read_text())


def test_the_schema_before_the_dia_shape_refuses_the_bundle_and_todays_accepts_it(exported):
    """Old bundles load unchanged (every field added is optional); the Dia bundle needs the new fields, which the
    schema as it was before them (a copy of bundle.schema.json at commit 85c4eb1) refuses."""
    bundle, _ = exported
    manifest = json.loads((bundle.path / "bundle.json").read_text())
    before = json.loads((PYTHON_DIR / "tests" / "fixtures" / "bundle.schema.before-dia.json").read_text())
    today = json.loads((PYTHON_DIR / "tts_parity" / "schema" / "bundle.schema.json").read_text())
    jsonschema.Draft202012Validator(today).validate(manifest)
    errors = sorted(jsonschema.Draft202012Validator(before).iter_errors(manifest), key=lambda e: list(e.path))
    assert {e.message for e in errors} >= {"'codePredictor' is a required property"}
    assert any("codebookDelays" in e.message and "encoder" in e.message for e in errors)
