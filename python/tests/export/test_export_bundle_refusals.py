"""What export_bundle refuses, each with one line naming the network, the export and what to fix; and
the one thing it keeps alive on request (a vocoder input a codec decoder has no use for)."""

import copy
import os
import shutil

import onnx
import pytest
import torch

from tts_parity.errors import ParityTypeError
from tts_parity.export import ExportError, export_bundle, find_parity, smoke_check

import export_bundle_model as model
from parity_cli import ROOT, ensure_dist, needs_node

PARITY = ["node", str(ROOT / "bin" / "parity.js")]


def export(out, talker=None, vocoder=None, config=model.CONFIG, **options):
    text_rows, codec = model.embeddings()
    options = {"profiles": ("eager",), "smoke": False, **options}
    return export_bundle(
        out,
        talker=talker or model.Talker(),
        code_predictor=model.CodePredictor(),
        vocoder=vocoder or model.Vocoder(),
        text_embeddings=text_rows,
        codec_embeddings=codec,
        config=config,
        **options,
    )


def refusal(out, **kwargs):
    with pytest.raises(ExportError) as caught:
        export(out, **kwargs)
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_a_declared_input_the_forward_never_reads_is_refused(tmp_path):
    # Positions from the past length, never position_ids: torch.onnx.export drops the input.
    message = refusal(tmp_path / "b", talker=model.TalkerIgnoringPositions())
    assert message.startswith(
        f"talker eager-fp32 ({tmp_path / 'b' / 'talker.eager.fp32.onnx'}): the exported forward never reads input "
        '"position_ids"'
    )
    assert "so torch.onnx.export dropped it" in message and "read it in the forward" in message


class AlwaysAppending(model.Talker):
    """Ignores the flag: its graph export would grow the buffers instead of writing into them."""

    static_cache = property(lambda self: False, lambda self, value: None)


def test_a_graph_export_that_appends_instead_of_writing_the_buffer_is_refused(tmp_path):
    message = refusal(tmp_path / "b", talker=AlwaysAppending(), profiles=("eager", "graph"))
    # The [1, 48] attention mask meets 49 keys, so the forward itself fails; the line says what graph mode needs.
    assert message.startswith(
        f"talker graph-fp32 ({tmp_path / 'b' / 'talker.graph.fp32.onnx'}): the forward failed on the example inputs: "
        "The size of tensor a (48) must match the size of tensor b (49)"
    )
    assert "write the new K/V into the [1, Hkv, M, D] buffers at rows position_ids" in message


def test_a_module_without_the_static_cache_flag_is_refused(tmp_path):
    talker = model.Talker()
    del talker.static_cache
    assert "no static_cache attribute on the module or any submodule" in refusal(tmp_path / "b", talker=talker)


def test_logits_of_another_width_than_the_config_says_are_refused(tmp_path):
    config = copy.deepcopy(model.CONFIG)
    config["talker"]["vocab"] = model.VOCAB + 1
    message = refusal(tmp_path / "b", config=config)
    assert (
        "talker eager-fp32" in message
        and 'output "logits" has shape [1, 3, 24] on the example inputs, expected [1, 3, 25]' in message
    )


def test_config_fields_export_bundle_writes_or_needs(tmp_path):
    config = {k: v for k, v in model.CONFIG.items() if k != "maxFrames"}
    assert refusal(tmp_path / "a", config=config).startswith("config: missing maxFrames")
    config = {**model.CONFIG, "embed": {}}
    assert (
        refusal(tmp_path / "b", config=config)
        == "config: embed is written by export_bundle; leave it out of the config"
    )


def test_a_folder_with_files_is_not_overwritten_unless_asked(tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "notes.txt").write_text("mine")
    assert "the folder exists and is not empty; pass overwrite=True" in refusal(tmp_path / "b")
    assert (tmp_path / "b" / "notes.txt").read_text() == "mine"


class CodecVocoder(model.Vocoder):
    """A codec decoder: no noise (and it returns phase0 as end_phase, as docs/bundle-format.md suggests)."""

    def forward(self, audio_codes, noise, phase0, context_frames):
        audio, _ = super().forward(
            audio_codes, torch.zeros(1, audio_codes.shape[1] * model.HOP), phase0, context_frames
        )
        return audio, phase0


def test_a_vocoder_input_is_kept_alive_only_when_declared_unused(tmp_path):
    message = refusal(tmp_path / "a", vocoder=CodecVocoder())
    assert message.startswith(
        f'vocoder fp32 ({tmp_path / "a" / "vocoder.fp32.onnx"}): the exported forward never reads input "noise"'
    )

    ensure_dist()
    bundle = export(
        tmp_path / "b", vocoder=CodecVocoder(), unused_vocoder_inputs=("noise",), smoke=True, parity_cmd=PARITY
    )
    assert bundle.smoke[-1] == "smoke OK"  # which checks that every declared input is read by a node
    graph = onnx.load(str(bundle.path / "vocoder.fp32.onnx")).graph
    assert any("noise" in node.input for node in graph.node)


def test_gqa_by_repeat_interleave_passes_the_smoke_check_on_torch_2(tmp_path):
    # torch 1.13 baked the example length into the export and the smoke check refused it; torch 2.x exports
    # repeat_interleave with dynamic sizes (test_smoke_natural_exports.py compares it with the module).
    ensure_dist()
    bundle = export(
        tmp_path / "b",
        talker=model.Talker(gqa="repeat_interleave"),
        profiles=("eager", "graph"),
        smoke=True,
        parity_cmd=PARITY,
    )
    assert bundle.smoke[-1] == "smoke OK"


def test_the_callers_training_mode_is_left_as_it_was(tmp_path):
    talker = model.Talker().train()
    export(tmp_path / "b", talker=talker)
    assert talker.training and talker.static_cache is False


def test_fp16_exports_on_torch_2_and_pass_the_smoke_check(tmp_path):
    # torch 2.x runs float16 matmul on the CPU, so fp16 exports are written here (torch 1.13 could not).
    ensure_dist()
    bundle = export(
        tmp_path / "b", precision=("fp32", "fp16"), profiles=("eager", "graph"), smoke=True, parity_cmd=PARITY
    )
    assert set(bundle.files["talker"]) == {"eager-fp32", "graph-fp32", "eager-fp16", "graph-fp16"}
    assert bundle.smoke[-1] == "smoke OK"


class _Float32Rope(model.Talker):
    """The classic fp16 mistake: RoPE cos/sin left in float32, which promotes q and k under half()."""

    def rope(self, x, position_ids):
        angle = position_ids[:, None, :, None].float() * self.inv_freq.float()
        half = self.head_dim // 2
        x1, x2 = x[..., :half], x[..., half:]
        return torch.cat([x1 * angle.cos() - x2 * angle.sin(), x1 * angle.sin() + x2 * angle.cos()], -1)


def test_an_fp16_forward_that_mixes_dtypes_is_refused_naming_the_real_cause(tmp_path):
    message = refusal(tmp_path / "b", talker=_Float32Rope(), precision=("fp32", "fp16"))
    assert message.startswith(
        f"talker eager-fp16 ({tmp_path / 'b' / 'talker.eager.fp16.onnx'}): the forward failed on the example inputs: "
    )
    assert "float16 runs on this device, so the forward mixes float16 and float32 tensors" in message
    assert "torch 1.13" not in message


def test_tables_of_the_wrong_width_are_refused_before_anything_is_written(tmp_path):
    text_rows, codec = model.embeddings()
    with pytest.raises(ExportError) as caught:
        export_bundle(
            tmp_path / "b",
            talker=model.Talker(),
            code_predictor=model.CodePredictor(),
            vocoder=model.Vocoder(),
            text_embeddings=text_rows,
            codec_embeddings=[codec[0], codec[1][:, :20], *codec[2:]],
            config=model.CONFIG,
        )
    assert (
        str(caught.value)
        == "codec_embeddings[1]: rows of 20 values, but config talker.hidden = 24 (the engine adds them to the "
        "talker's inputs_embeds)"
    )
    assert not (tmp_path / "b").exists()


def test_parity_is_found_as_given_then_on_path_then_in_this_checkout(tmp_path, monkeypatch):
    needs_node()  # the last case links the real `node` into a PATH of its own
    fake = tmp_path / "bin" / "parity"
    fake.parent.mkdir()
    fake.write_text('#!/bin/sh\necho "$@" > "$(dirname "$0")/args"\necho "smoke OK"\n')
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}{os.pathsep}{os.environ['PATH']}")
    assert find_parity(["node", "elsewhere.js"]) == ["node", "elsewhere.js"]
    assert find_parity() == [str(fake)]
    assert (
        smoke_check(tmp_path / "b") == ["smoke OK"]
        and (fake.parent / "args").read_text() == f"bundle check {tmp_path / 'b'} --smoke\n"
    )
    only_node = tmp_path / "only-node"  # a PATH with node and no parity: this checkout's bin/parity.js
    only_node.mkdir()
    (only_node / "node").symlink_to(shutil.which("node"))
    monkeypatch.setenv("PATH", str(only_node))
    assert find_parity() == ["node", str(ROOT / "bin" / "parity.js")]


# Issue 27: every refusal names the argument and what it expected; nothing is written before it.


def _with(change):
    config = copy.deepcopy(model.CONFIG)
    change(config)
    return config


@pytest.mark.parametrize(
    "options, kind, message",
    [
        ({"talker": "talker.pt"}, ParityTypeError, "export_bundle: talker: expected a torch.nn.Module, found str"),
        (
            {"vocoder": lambda codes: codes},
            ParityTypeError,
            "export_bundle: vocoder: expected a torch.nn.Module, found function",
        ),
        (
            {"config": [model.CONFIG]},
            ParityTypeError,
            "export_bundle: config: expected a dict (bundle.json without format, embed and the exports), found list",
        ),
        (
            {"config": _with(lambda c: c.__setitem__("sampleRate", float("nan")))},
            ExportError,
            "config.sampleRate: expected a finite number, found nan",
        ),
        (
            {"config": _with(lambda c: c["talker"].__setitem__("layers", "2"))},
            ExportError,
            "config.talker.layers: '2' is not of type 'integer' (docs/bundle-format.md; the loader refuses it)",
        ),
        (
            {"config": _with(lambda c: c.__setitem__("voice", "alto"))},
            ExportError,
            "config: Additional properties are not allowed ('voice' was unexpected) (docs/bundle-format.md; the loader "
            "refuses it)",
        ),
        (
            {"config": _with(lambda c: c["vocoder"].__setitem__("hop", 4))},
            ExportError,
            "config.vocoder: Additional properties are not allowed ('hop' was unexpected) (docs/bundle-format.md; the "
            "loader refuses it)",
        ),
        (
            {"profiles": "eager"},
            ParityTypeError,
            "export_bundle: profiles: expected a list or tuple of names, found 'eager'",
        ),
        ({"opset": "17"}, ParityTypeError, "export_bundle: opset: expected an integer, found '17'"),
    ],
    ids=[
        "non-module",
        "function-vocoder",
        "list-config",
        "nan-sample-rate",
        "string-layers",
        "unknown-key",
        "unknown-nested-key",
        "profiles-string",
        "opset-string",
    ],
)
def test_bad_arguments_are_refused_naming_them_before_anything_is_written(tmp_path, options, kind, message):
    with pytest.raises(kind) as caught:
        export(tmp_path / "b", **options)
    assert str(caught.value) == message
    assert not (tmp_path / "b").exists()


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_non_finite_embedding_tables_are_refused(tmp_path, bad):
    text_rows, codec = model.embeddings()
    codec[2] = torch.full_like(torch.as_tensor(codec[2]), bad)
    with pytest.raises(ExportError) as caught:
        export_bundle(
            tmp_path / "b",
            talker=model.Talker(),
            code_predictor=model.CodePredictor(),
            vocoder=model.Vocoder(),
            text_embeddings=text_rows,
            codec_embeddings=codec,
            config=model.CONFIG,
        )
    assert str(caught.value).startswith("codec_embeddings[2]: ")
    assert "values are NaN or infinite (the first in row 0)" in str(caught.value)
    assert not (tmp_path / "b").exists()


def test_an_out_dir_that_is_a_file_is_refused(tmp_path):
    (tmp_path / "b").write_text("mine")
    assert refusal(tmp_path / "b") == f"out_dir: {tmp_path / 'b'} is a file, not a folder"
    assert (tmp_path / "b").read_text() == "mine"


def test_an_encoder_or_a_missing_code_predictor_outside_the_dia_shape_is_refused(tmp_path):
    """talker.codebooks "all" (Dia) takes an encoder and no code predictor; any other talker the reverse."""
    with pytest.raises(
        ExportError,
        match=r"^encoder: given, but the config\'s talker is a talker with a code predictor; pass encoder=None$",
    ):
        export(tmp_path / "a", encoder=model.Vocoder())
    text_rows, codec = model.embeddings()
    with pytest.raises(
        ParityTypeError, match=r"^export_bundle: code_predictor: expected a torch.nn.Module, found NoneType$"
    ):
        export_bundle(tmp_path / "b", talker=model.Talker(), code_predictor=None, vocoder=model.Vocoder(),
                      text_embeddings=text_rows, codec_embeddings=codec, config=model.CONFIG, smoke=False)  # fmt: skip
    dia = copy.deepcopy(model.CONFIG)
    dia["talker"]["codebooks"] = "all"
    with pytest.raises(
        ExportError,
        match=r"^code_predictor: given, but the config's talker is talker.codebooks \"all\"; pass code_predictor=None$",
    ):
        export(tmp_path / "c", config=dia, encoder=model.Vocoder())
    del dia["codePredictor"]
    with pytest.raises(ParityTypeError, match=r"^export_bundle: encoder: expected a torch.nn.Module, found NoneType$"):
        export_bundle(tmp_path / "d", talker=model.Talker(), code_predictor=None, vocoder=model.Vocoder(),
                      text_embeddings=text_rows, codec_embeddings=codec, config=dia, smoke=False)  # fmt: skip
    assert not any((tmp_path / name).exists() for name in "abcd")  # refused before anything is written
