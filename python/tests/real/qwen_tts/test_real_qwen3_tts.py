"""qwen-tts's real Qwen3-TTS (Qwen3TTSForConditionalGeneration, talker + code predictor, and the 12 Hz
tokenizer's decoder as vocoder), tiny and with seeded random weights (tts_parity/examples/qwen_tts_tiny.py):
traced through its own generate(), seed 004's manual code-predictor loop against it, the loop's planted bugs
localised by `parity compare-trace`, eager vs static cache (docs/real-models-qwen3-tts.md).

Costly state (the model, every generate() run, the traces) is built once per session."""

import json
import os

import pytest
import torch

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from tts_parity.examples.qwen_tts_code_predictor import BUGS, manual_code_predictor
from tts_parity.examples.qwen_tts_tiny import CP_VOCAB, Q, build_tiny_qwen3_tts, build_tiny_vocoder
from tts_parity.examples.qwen_tts_trace import CODE_PREDICTOR_MODULES, generate_codes_of, static_cache, trace_generate

from optional_modules import qwen_tts_models
from parity_cli import run_parity, synth_eager_and_graph

PROMPTS = ["hello", "a b", "tts", "ok go", "hi!"]
FRAMES = 5  # max_new_tokens: 5 talker calls give 4 frames (the last call's code 0 has no code predictor run)


@pytest.fixture(scope="session")
def tiny():
    qwen_tts_models()
    torch.set_num_threads(1)
    return build_tiny_qwen3_tts(0), build_tiny_vocoder(0)


@pytest.fixture(scope="session")
def runs(tiny, tmp_path_factory):
    """Every generate() of the file, once: the traces of prompt 0 and the codes of the others."""
    model, vocoder = tiny
    out = tmp_path_factory.mktemp("qwen3-tts")
    paths = {
        name: out / f"{name}.jsonl" for name in ("eager", "manual", "static", "sampled-eager", "sampled-static", *BUGS)
    }
    codes = {
        "eager": trace_generate(
            model,
            PROMPTS[0],
            paths["eager"],
            profile="eager",
            max_new_tokens=FRAMES,
            vocoder=vocoder,
            modules=CODE_PREDICTOR_MODULES,
        )
    }
    for bug in (None, *BUGS):
        with manual_code_predictor(model, bug):
            codes[bug or "manual"] = trace_generate(
                model,
                PROMPTS[0],
                paths[bug or "manual"],
                profile=f"manual {bug or ''}".strip(),
                max_new_tokens=FRAMES,
                modules=CODE_PREDICTOR_MODULES,
            )
    with static_cache(model):
        codes["static"] = trace_generate(
            model, PROMPTS[0], paths["static"], profile="static", max_new_tokens=FRAMES, vocoder=vocoder
        )
        codes["sampled-static"] = trace_generate(
            model,
            PROMPTS[0],
            paths["sampled-static"],
            profile="static sampled",
            max_new_tokens=FRAMES,
            do_sample=True,
            seed=7,
        )
    codes["sampled-eager"] = trace_generate(
        model,
        PROMPTS[0],
        paths["sampled-eager"],
        profile="eager sampled",
        max_new_tokens=FRAMES,
        do_sample=True,
        seed=7,
    )
    pairs = []
    for text in PROMPTS[1:]:
        stock = generate_codes_of(model, text, max_new_tokens=FRAMES)
        with manual_code_predictor(model):
            pairs.append((stock, generate_codes_of(model, text, max_new_tokens=FRAMES)))
    return paths, codes, pairs


def compare(a, b, *extra):
    done = run_parity("compare-trace", a, b, "--json", *extra)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_recipe_builds_the_real_classes_from_a_tiny_config(tiny):
    model, vocoder = tiny
    from qwen_tts.core.models.modeling_qwen3_tts import (
        Qwen3TTSForConditionalGeneration,
        Qwen3TTSTalkerCodePredictorModelForConditionalGeneration,
    )
    from qwen_tts.core.tokenizer_12hz.modeling_qwen3_tts_tokenizer_v2 import Qwen3TTSTokenizerV2Decoder

    assert type(model) is Qwen3TTSForConditionalGeneration and type(vocoder) is Qwen3TTSTokenizerV2Decoder
    assert type(model.talker.code_predictor) is Qwen3TTSTalkerCodePredictorModelForConditionalGeneration
    assert (
        len(model.talker.code_predictor.lm_head) == Q - 1
        and model.talker.code_predictor.lm_head[0].out_features == CP_VOCAB
    )
    assert isinstance(
        model.talker.code_predictor.small_to_mtp_projection, torch.nn.Linear
    )  # its own hidden size, as 1.7B
    again = build_tiny_qwen3_tts(0)
    assert torch.equal(again.talker.codec_head.weight, model.talker.codec_head.weight)  # seeded
    assert sum(p.numel() for p in model.parameters()) < 200_000


def test_the_trace_holds_the_generated_frames_with_q_minus_1_code_predictor_rows(runs):
    paths, codes, _ = runs
    lines = [json.loads(line) for line in paths["eager"].read_text().splitlines()]
    header, steps = lines[0], lines[1:]
    assert header["q"] == Q and header["modules"] == "eager.modules.safetensors"
    assert [s["codes"] for s in steps] == codes["eager"].tolist() and len(steps) == FRAMES - 1
    for s in steps:  # raw rows: the code predictor is greedy over them, so each row's argmax is its code
        assert len(s["codePredictorLogits"]) == Q - 1
        assert [row["argmax"] for row in s["codePredictorLogits"]] == s["codes"][1:]
    assert paths["eager"].with_suffix(".wav").stat().st_size == 58 + 4 * 1920 * (FRAMES - 1)
    assert compare(paths["eager"], paths["eager"])["verdict"] == "within-tolerance"  # no audio given: never "identical"


def test_seed_004_manual_loop_gives_generates_codes_for_5_prompts(runs):
    _, codes, pairs = runs
    assert torch.equal(codes["manual"], codes["eager"])
    assert len(pairs) == 4 and all(torch.equal(stock, manual) for stock, manual in pairs)
    report = compare(runs[0]["eager"], runs[0]["manual"])
    assert report["divergence"]["firstStep"] is None and report["moduleDrill"]["status"] == "no-divergence"


# (step, stage, codebook, module, call of that module in the step): what each planted bug must be localised to.
# The code predictor's k-th forward in a frame predicts codebook k; rotary_emb and small_to_mtp_projection run
# once per forward, so their call number is the codebook. A wrong embedding table is a call of another
# nn.Embedding (codec_embedding.1 where .0 was due), which no name-paired comparison can flag: the first output
# that differs is the projection it feeds.
EXPECTED = {
    "position-off-by-one": (1, "code-predictor", 2, "talker.code_predictor.model.rotary_emb", 2),
    "generation-step-stuck": (1, "code-predictor", 3, "talker.code_predictor.small_to_mtp_projection", 3),
    "kv-cache-not-reset": (2, "code-predictor", 1, "talker.code_predictor.model.layers.0.self_attn", 1),
    "wrong-embedding-table": (1, "code-predictor", 2, "talker.code_predictor.small_to_mtp_projection", 2),
}


@pytest.mark.parametrize("bug", BUGS)
def test_each_planted_bug_is_localised_to_step_codebook_and_module(runs, bug):
    paths, codes, _ = runs
    assert not torch.equal(codes[bug], codes["eager"])
    report = compare(paths["eager"], paths[bug])
    found = report["divergence"], report["moduleDrill"]
    step, stage, codebook, module, call = EXPECTED[bug]
    assert (found[0]["firstStep"], found[0]["stage"], found[0]["codebook"]) == (step, stage, codebook)
    assert found[1]["status"] == "found" and found[1]["step"] == step
    assert (found[1]["module"]["name"], found[1]["module"]["occurrence"] + 1) == (module, call)


def test_static_cache_gives_eager_codes_with_logits_within_tolerance(runs):
    paths, codes, _ = runs
    assert torch.equal(codes["static"], codes["eager"])
    report = compare(
        paths["eager"],
        paths["static"],
        "--wav-a",
        paths["eager"].with_suffix(".wav"),
        "--wav-b",
        paths["static"].with_suffix(".wav"),
    )
    assert report["verdict"] in ("identical", "within-tolerance"), report["verdict"]
    assert report["divergence"]["largestLogitDiff"]["value"] <= 1e-5  # float32 reordering only (seen: see the docs)


def test_sampled_with_a_fixed_seed_eager_and_static_draw_the_same_codes(runs):
    paths, codes, _ = runs
    assert torch.equal(codes["sampled-eager"], codes["sampled-static"])
    assert not torch.equal(codes["sampled-eager"], codes["eager"])  # it did sample
    assert compare(paths["sampled-eager"], paths["sampled-static"])["divergence"]["firstStep"] is None


# capture_check on qwen-tts 0.1.1 / transformers 4.57.3 as they stand: every finding, (rule, file, line), the
# file relative to site-packages. docs/real-models-qwen3-tts.md explains each.
STOCK_TALKER_FINDINGS = {
    ("python-scalar-varies-across-steps", "qwen_tts/core/models/modeling_qwen3_tts.py", 1690),
    ("host-sync", "qwen_tts/core/models/modeling_qwen3_tts.py", 1696),
    ("tensor-from-python", "transformers/cache_utils.py", 94),
    ("tensor-from-python", "transformers/cache_utils.py", 95),
    ("host-sync", "transformers/generation/utils.py", 2597),
    ("tensor-from-python", "transformers/masking_utils.py", 521),
    ("shape-varies-across-steps", "transformers/masking_utils.py", 723),
}
STOCK_CODE_PREDICTOR_FINDINGS = {
    ("state-tensor-varies-across-steps", "qwen_tts/core/models/modeling_qwen3_tts.py", 1281),
    ("state-tensor-varies-across-steps", "qwen_tts/core/models/modeling_qwen3_tts.py", 1299),
    ("tensor-from-python", "transformers/masking_utils.py", 521),
}


def findings_of(report):
    return {(f.rule, f.filename.split("site-packages/")[-1], f.lineno) for f in report.findings}


@pytest.fixture(scope="session")
def capture(tiny):
    from tts_parity.capture_check import capture_check
    from tts_parity.examples.qwen_tts_capture import (
        CaptureSafeStep,
        prompt_state,
        stock_code_predictor_steps,
        stock_talker_steps,
    )

    model = tiny[0]

    def two_steps():
        yield ()
        yield ()

    with torch.no_grad():
        talker = capture_check(*stock_talker_steps(model, PROMPTS[0]), names=["step 2", "step 3"])
        safe = CaptureSafeStep(model, prompt_state(model, PROMPTS[0]))
        codes = safe.run(FRAMES - 1)
        safe.prefill()
        safe.decode()  # step 2 eager, then steps 3 and 4 under the check
        safe_talker = capture_check(safe.decode, two_steps(), names=["step 3", "step 4"])
        code_predictor = capture_check(
            *stock_code_predictor_steps(model, safe.past_hidden, safe.code0), names=["codebook 2", "codebook 3"]
        )
        safe._code_predictor(safe.code0)  # a frame's code predictor, then codebooks 3 and 4 again under the check
        safe.cp_step.fill_(2)
        safe_code_predictor = capture_check(safe.code_predictor_step, two_steps(), names=["codebook 3", "codebook 4"])
    return {
        "talker": talker,
        "code predictor": code_predictor,
        "safe talker": safe_talker,
        "safe code predictor": safe_code_predictor,
        "safe codes": codes,
    }


def test_capture_check_findings_of_the_stock_steps_are_the_documented_list(capture):
    assert findings_of(capture["talker"]) == STOCK_TALKER_FINDINGS, str(capture["talker"])
    assert findings_of(capture["code predictor"]) == STOCK_CODE_PREDICTOR_FINDINGS, str(capture["code predictor"])


def test_the_capture_safe_step_has_no_findings_and_gives_generates_codes(capture, runs):
    assert capture["safe talker"].ok, str(capture["safe talker"])
    assert capture["safe code predictor"].ok, str(capture["safe code predictor"])
    assert torch.equal(capture["safe codes"], runs[1]["eager"])


@pytest.fixture(scope="session")
def bundle(tiny, tmp_path_factory):
    from tts_parity.examples.qwen_tts_export import (
        CodePredictorAdapter,
        TalkerAdapter,
        VocoderAdapter,
        qwen3_tts_bundle_inputs,
    )
    from tts_parity.export import export_bundle

    from parity_cli import ROOT

    model, vocoder = tiny
    text_rows, codec, config = qwen3_tts_bundle_inputs(model, frames_per_char=(FRAMES - 1) / len(PROMPTS[0]))
    out = tmp_path_factory.mktemp("qwen3-tts-bundle")
    exported = export_bundle(
        out / "bundle",
        talker=TalkerAdapter(model.talker),
        code_predictor=CodePredictorAdapter(model.talker.code_predictor),
        vocoder=VocoderAdapter(vocoder),
        text_embeddings=text_rows,
        codec_embeddings=codec,
        config=config,
        unused_vocoder_inputs=("noise", "context_frames"),
        parity_cmd=["node", str(ROOT / "bin" / "parity.js")],
    )
    synth_eager_and_graph(exported.path, PROMPTS[0], out)
    return exported, out


@pytest.mark.parametrize("profile", ["eager", "graph"])
def test_parity_synth_of_the_exported_bundle_gives_generates_codes_and_audio(bundle, runs, profile):
    exported, out = bundle
    assert exported.smoke[-1] == "smoke OK"
    steps = [json.loads(line) for line in (out / f"{profile}.jsonl").read_text().splitlines()[1:]]
    assert [s["codes"] for s in steps] == runs[1]["eager"].tolist()  # 4 frames x 16 codes
    report = compare(
        runs[0]["eager"],
        out / f"{profile}.jsonl",
        "--wav-a",
        runs[0]["eager"].with_suffix(".wav"),
        "--wav-b",
        out / f"{profile}.wav",
        "--no-modules",
    )
    # ONNX Runtime vs PyTorch float32 kernels: within the default tolerances (logits 1e-3, audio 1e-4).
    assert report["verdict"] == "within-tolerance", report["verdict"]


def test_a_logits_processor_in_the_talkers_generate_sees_rows_already_masked(tiny):
    """docs/python.md's warning, on real transformers 4.57: generate() runs its own processors (qwen-tts's
    suppress_tokens, min_new_tokens) before a LogitsProcessor passed in, so the recorder sees -inf at the special
    ids and says so, once: at call 1, the 1023 suppressed ids and EOS (min_new_tokens=2). The forward hooks on
    the heads (trace_generate) see the raw rows."""
    import functools

    from transformers import LogitsProcessorList

    from tts_parity.hf import RawScoresRecorder

    model = tiny[0]
    recorder = RawScoresRecorder(name="talker")
    model.talker.generate = functools.partial(
        type(model.talker).generate, model.talker, logits_processor=LogitsProcessorList([recorder])
    )
    try:
        with pytest.warns(UserWarning, match=r"holds 1024 -inf entries"):
            generate_codes_of(model, PROMPTS[0], max_new_tokens=3)
    finally:
        del model.talker.generate
    assert len(recorder.stats) == 3
