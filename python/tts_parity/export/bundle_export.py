"""export_bundle: PyTorch talker, code predictor and vocoder -> a `tts-parity-bundle/1` folder, smoke-checked."""

from __future__ import annotations

import copy
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import torch
from torch import nn

from .._errors_text import first_line
from ..errors import ExportError, ParityTypeError
from .contract import EAGER, GRAPH, vocoder_tensors
from .embed_table import TABLE_FILE, embed_table, write_embed_table
from .example_inputs import decoder_example, encoder_example, vocoder_example
from .manifest import build_manifest, check_config, decoder_tensors, hop_length, write_manifest
from .onnx_export import check_trial_outputs, export_onnx
from .smoke import find_parity, smoke_check

if TYPE_CHECKING:
    import os
    from collections.abc import Iterator, Sequence

    import numpy as np

__all__ = ["ExportedBundle", "export_bundle"]

FILE_STEMS = {"talker": "talker", "codePredictor": "code-predictor"}
VOCODER_AUX_INPUTS = ("noise", "phase0", "context_frames")
GRAPH_HINT = (
    "in the graph export (static_cache=True) the module must write the new K/V into the [1, Hkv, M, D] buffers at "
    "rows position_ids and return the buffers (tts_parity.export.write_kv does), not append them"
)
EAGER_HINT = (
    "in the eager export (static_cache=False) present is the past with the new K/V appended "
    "(tts_parity.export.write_kv does)"
)


@dataclass
class ExportedBundle:
    """What export_bundle wrote: the folder, the ONNX files by network and key, the smoke check's lines
    (empty with smoke=False), and the seconds spent exporting (ONNX and table, not the smoke check)."""

    path: Path
    files: dict[str, dict[str, str]] = field(default_factory=dict)
    smoke: list[str] = field(default_factory=list)
    export_seconds: float = 0.0


def export_bundle(
    out_dir: str | os.PathLike[str],
    *,
    talker: nn.Module,
    code_predictor: nn.Module | None,
    vocoder: nn.Module,
    text_embeddings: torch.Tensor | np.ndarray,
    codec_embeddings: Sequence[torch.Tensor | np.ndarray],
    config: dict[str, Any],
    profiles: Sequence[str] = (EAGER, GRAPH),
    precision: Sequence[str] = ("fp32",),
    unused_vocoder_inputs: Sequence[str] = (),
    embed_dtype: str = "float32",
    opset: int = 17,
    overwrite: bool = False,
    smoke: bool = True,
    parity_cmd: str | Sequence[str] | None = None,
    encoder: nn.Module | None = None,
) -> ExportedBundle:
    """Exports the three modules (written to the forward protocol, docs/python-export.md) as a bundle in `out_dir`:
    for each profile and precision a talker and a code predictor export, a vocoder export per precision, the
    embedding table (text rows, then one block per codebook) and bundle.json; then, unless smoke=False, runs
    `parity bundle check out_dir --smoke`.

    Args:
        out_dir: the bundle folder; created (with its parents) when missing; one holding files is refused unless
            `overwrite=True`; a file is refused.
        talker: `nn.Module`, forward(inputs_embeds [1, S, hidden], attention_mask [1, T] int64, position_ids [1, S]
            int64, *past [1, Hkv, P, D] x 2 per layer) -> (logits [1, S, vocab], last_hidden_state [1, S, hidden],
            *present), with a `static_cache` attribute (docs/python-export.md, "The forward protocol").
        code_predictor: `nn.Module`, forward(generation_step [1] int64, inputs_embeds, attention_mask, position_ids,
            *past) -> (logits [1, S, codebookSize], *present), with `static_cache`; None when the config's talker
            emits every codebook (`talker.codebooks: "all"`, Dia).
        vocoder: `nn.Module`, forward(audio_codes [1, frames, Q] int64, noise [1, samples] float32, phase0 [1]
            float64, context_frames [1] int64) -> (audio [1, samples] float32, end_phase [1] float64).
        text_embeddings: the talker's text embedding rows, [text_vocab, talker.hidden] float, all finite.
        codec_embeddings: one table per codebook, each [codebook_size, talker.hidden] float, all finite.
        config: bundle.json (docs/bundle-format.md) without `format`, `embed` and the networks' `exports`; checked
            against bundle.json's JSON Schema (unknown keys, types, ranges) before anything is written.
        profiles: "eager" (dynamic KV cache, required) and/or "graph" (static KV buffers).
        precision: "fp32" (required) and/or "fp16".
        unused_vocoder_inputs: vocoder inputs its forward does not read ("noise", "phase0", "context_frames"),
            kept in the graph by an exact zero.
        embed_dtype: "float32" or "float16", the embedding table's dtype in the bundle.
        opset: the ONNX opset.
        overwrite: write into a folder that holds files.
        smoke: run `parity bundle check --smoke` on the result.
        parity_cmd: the `parity` command (a path or an argv list); default: on PATH, then this checkout's.
        encoder: `nn.Module`, forward(input_ids [1, S] int64, attention_mask [1, S] int64) ->
            encoder_hidden_states [1, S, encoder.hidden], required with `talker.codebooks: "all"` (and only then);
            the talker's forward then takes encoder_hidden_states and encoder_attention_mask after position_ids
            (docs/python-export.md, "Every codebook per step").

    Raises ExportError (a ValueError, one line naming the network, the export and what to fix) for what it
    refuses, ParityTypeError for an argument of the wrong type.
    """
    started = time.perf_counter()
    all_codebooks = isinstance(config, dict) and config.get("talker", {}).get("codebooks") == "all"
    needed: list[tuple[str, object]] = [("talker", talker), ("vocoder", vocoder)]
    needed += [("encoder", encoder)] if all_codebooks else [("code_predictor", code_predictor)]
    for name, given in needed:
        if not isinstance(given, nn.Module):
            raise ParityTypeError(f"export_bundle: {name}: expected a torch.nn.Module, found {type(given).__name__}")
    for name, value in (
        ("profiles", profiles),
        ("precision", precision),
        ("unused_vocoder_inputs", unused_vocoder_inputs),
    ):
        if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
            raise ParityTypeError(f"export_bundle: {name}: expected a list or tuple of names, found {value!r}")
    if isinstance(opset, bool) or not isinstance(opset, int):
        raise ParityTypeError(f"export_bundle: opset: expected an integer, found {opset!r}")
    for name, unwanted in (("code_predictor", code_predictor),) if all_codebooks else (("encoder", encoder),):
        if unwanted is not None:
            shape = 'talker.codebooks "all"' if all_codebooks else "a talker with a code predictor"
            raise ExportError(f"{name}: given, but the config's talker is {shape}; pass {name}=None")
    profiles, precision = tuple(profiles), tuple(precision)
    _check_choices(profiles, precision, unused_vocoder_inputs, embed_dtype)
    check_config(config)
    # Everything that can be refused without running the modules is, before anything is written.
    table, offset, per_codebook = embed_table(
        text_embeddings, codec_embeddings, config["codebooks"], config["talker"]["hidden"]
    )
    parity = find_parity(parity_cmd) if smoke else None
    out = _prepare(Path(out_dir), overwrite)
    embed = write_embed_table(out, table, offset, per_codebook, embed_dtype)

    files = {}
    for network, decoder in (("talker", talker), ("codePredictor", code_predictor)):
        if decoder is not None:
            files[network] = _export_decoder(out, network, decoder, config, profiles, precision, opset)
    if encoder is not None:
        files["encoder"] = _export_encoder(out, encoder, config, profiles, precision, opset)
    files["vocoder"] = _export_vocoder(out, vocoder, config, precision, unused_vocoder_inputs, opset)

    write_manifest(out, build_manifest(config, embed, files, files["vocoder"]))  # last: only a complete bundle has one
    result = ExportedBundle(out, files, export_seconds=time.perf_counter() - started)
    if smoke:
        result.smoke = smoke_check(out, parity)
    return result


def _check_choices(
    profiles: tuple[str, ...], precision: tuple[str, ...], unused: Sequence[str], embed_dtype: str
) -> None:
    for value, known, what in ((profiles, (EAGER, GRAPH), "profiles"), (precision, ("fp32", "fp16"), "precision")):
        bad = [v for v in value if v not in known]
        if bad:
            raise ExportError(f'{what}: unknown "{bad[0]}" (known: {", ".join(known)})')
    if EAGER not in profiles or "fp32" not in precision:
        raise ExportError(
            'profiles must include "eager" and precision "fp32": '
            "eager-fp32 and the fp32 vocoder are the exports every bundle needs"
        )
    if embed_dtype not in TABLE_FILE:
        raise ExportError(f'embed_dtype "{embed_dtype}": expected "float32" or "float16"')
    bad = [u for u in unused if u not in VOCODER_AUX_INPUTS]
    if bad:
        raise ExportError(
            f'unused_vocoder_inputs: "{bad[0]}" cannot be left unread (only {", ".join(VOCODER_AUX_INPUTS)} may be)'
        )


def _prepare(out: Path, overwrite: bool) -> Path:
    if out.exists() and not out.is_dir():
        raise ExportError(f"out_dir: {out} is a file, not a folder")
    if out.exists() and any(out.iterdir()) and not overwrite:
        raise ExportError(f"{out}: the folder exists and is not empty; pass overwrite=True to write into it")
    out.mkdir(parents=True, exist_ok=True)
    return out


def _device(module: nn.Module) -> torch.device:
    return next((p.device for p in module.parameters()), torch.device("cpu"))


@contextmanager
def _static_cache(module: nn.Module, label: str, on: bool) -> Iterator[None]:
    """Sets `static_cache` on the module and each submodule that has it; restores them after."""
    holders = [m for m in module.modules() if hasattr(m, "static_cache")]
    if not holders:
        raise ExportError(
            f"{label}: no static_cache attribute on the module or any submodule: the protocol needs one, "
            "False for the eager export (KV appended), True for the graph export (KV written into buffers)"
        )
    before = [m.static_cache for m in holders]
    try:
        for m in holders:
            setattr(m, "static_cache", on)  # noqa: B010 - a plain attribute torch types as Tensor | Module
        yield
    finally:
        for m, value in zip(holders, before):
            m.static_cache = value


def _for_precision(module: nn.Module, precision: str) -> nn.Module:
    return module if precision == "fp32" else copy.deepcopy(module).half()


@contextmanager
def _evaluating(module: nn.Module) -> Iterator[nn.Module]:
    """eval() for the trial run and the export (as torch.onnx.export does), the caller's mode restored after."""
    training = module.training
    module.eval()
    try:
        yield module
    finally:
        module.train(training)


def _float16_hint(args: list[torch.Tensor]) -> str:
    """Why an fp16 forward failed: this torch has no float16 matmul on the device (torch 1.13's CPU), or the
    forward itself mixes float16 with float32 (half() converts parameters and buffers, not tensors the forward
    makes, such as RoPE angles taken with .float() and never cast back)."""
    device = next((a.device for a in args if isinstance(a, torch.Tensor)), torch.device("cpu"))
    try:
        probe = torch.ones(2, 2, dtype=torch.float16, device=device)
        _ = probe @ probe
    except RuntimeError:
        return (
            f"this torch {torch.__version__} has no float16 matmul on {device.type} (torch 1.13's CPU lacks it): "
            "export fp16 with the modules on CUDA, or with torch 2.x"
        )
    return (
        "float16 runs on this device, so the forward mixes float16 and float32 tensors: "
        "half() converts parameters and buffers, "
        "not tensors the forward makes (e.g. RoPE cos/sin from .float() angles): "
        "cast those to the inputs' dtype, as transformers does"
    )


def _trial(
    module: nn.Module,
    label: str,
    args: list[torch.Tensor],
    outputs: list[dict[str, Any]],
    symbols: dict[str, int],
    precision: str,
    shape_hint: str = "",
    failure_hint: str = "",
) -> None:
    """Runs the forward once on the example inputs and checks the outputs against the protocol; the
    hints say what the export mode requires, after a wrong shape or a failure."""
    try:
        with torch.no_grad():
            got = module(*args)
    except Exception as error:
        first = first_line(error, with_type=False)
        hint = _float16_hint(args) if precision == "fp16" else failure_hint
        raise ExportError(
            f"{label}: the forward failed on the example inputs: {first}" + (f"; {hint}" if hint else "")
        ) from error
    check_trial_outputs(label, got, outputs, symbols, f": {shape_hint}" if shape_hint else "")


def _export_decoder(
    out: Path,
    network: str,
    module: nn.Module,
    config: dict[str, Any],
    profiles: tuple[str, ...],
    precisions: tuple[str, ...],
    opset: int,
) -> dict[str, str]:
    sizes = config[network]
    input_hidden = sizes.get("projection", {}).get("from", sizes["hidden"])
    step = (1 if config["codebooks"] > 2 else 0) if network == "codePredictor" else None
    files = {}
    for precision in precisions:
        exported = _for_precision(module, precision)
        dtype = torch.float16 if precision == "fp16" else torch.float32
        for mode in profiles:
            key = f"{mode}-{precision}"
            file = f"{FILE_STEMS[network]}.{mode}.{precision}.onnx"
            label = f"{network} {key} ({out / file})"
            inputs, outputs = decoder_tensors(config, network, mode, precision)
            encoder_sizes = config.get("encoder") if network == "talker" else None
            args, symbols = decoder_example(sizes, input_hidden, mode, dtype, _device(exported), step, encoder_sizes)
            with _static_cache(exported, label, mode == GRAPH), _evaluating(exported):
                graph = mode == GRAPH
                _trial(
                    exported,
                    label,
                    args,
                    outputs,
                    symbols,
                    precision,
                    GRAPH_HINT if graph else EAGER_HINT,
                    GRAPH_HINT if graph else "",
                )
                export_onnx(exported, out / file, label, inputs, outputs, args, opset)
            files[key] = file
    return files


def _export_encoder(
    out: Path,
    encoder: nn.Module,
    config: dict[str, Any],
    profiles: tuple[str, ...],
    precisions: tuple[str, ...],
    opset: int,
) -> dict[str, str]:
    """The text encoder per profile and precision: eager on the text's ids, graph on encoder.maxPositions ids."""
    files = {}
    for precision in precisions:
        exported = _for_precision(encoder, precision)
        for mode in profiles:
            key = f"{mode}-{precision}"
            file = f"encoder.{mode}.{precision}.onnx"
            label = f"encoder {key} ({out / file})"
            inputs, outputs = decoder_tensors(config, "encoder", mode, precision)
            text_ids = 256 if config["text"]["tokenizer"] == "byte" else 1  # bytes; a tokenizer.json: id 0 only
            args, symbols = encoder_example(config["encoder"], mode, _device(exported), text_ids)
            with _evaluating(exported):
                _trial(exported, label, args, outputs, symbols, precision)
                export_onnx(exported, out / file, label, inputs, outputs, args, opset)
            files[key] = file
    return files


def _zero_reading(x: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """An exact 0 of shape [1] computed from x's first element, so that the exporter keeps x as an input
    (0 also when that element is NaN or ±Inf, as under fault=nan@vocoder)."""
    z = (x.reshape(-1)[:1] * 0).to(dtype)
    return torch.where(torch.isnan(z), torch.zeros_like(z), z)


class _VocoderForExport(nn.Module):
    """The user's vocoder as the bundle feeds it: float16 inside for fp16 (noise cast in, audio cast out),
    and the inputs it declares unused kept in the graph by an exact zero added to the audio."""

    def __init__(self, inner: nn.Module, unused: Sequence[str], float16: bool) -> None:
        super().__init__()
        self.inner, self.unused, self.float16 = inner, tuple(unused), float16

    def forward(
        self, audio_codes: torch.Tensor, noise: torch.Tensor, phase0: torch.Tensor, context_frames: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        audio, end_phase = self.inner(audio_codes, noise.half() if self.float16 else noise, phase0, context_frames)
        audio = audio.float() if self.float16 else audio
        given = {"noise": noise, "phase0": phase0, "context_frames": context_frames}
        for name in self.unused:
            audio = audio + _zero_reading(given[name], audio.dtype)
        return audio, end_phase


def _export_vocoder(
    out: Path,
    vocoder: nn.Module,
    config: dict[str, Any],
    precisions: tuple[str, ...],
    unused: Sequence[str],
    opset: int,
) -> dict[str, str]:
    sizes = config.get("codebookSizes") or [config["codebookSize"]] * config["codebooks"]
    inputs, outputs = vocoder_tensors(config["codebooks"])
    files = {}
    for precision in precisions:
        module = _for_precision(vocoder, precision)
        if precision == "fp16" or unused:
            module = _VocoderForExport(module, unused, precision == "fp16")
        file = f"vocoder.{precision}.onnx"
        label = f"vocoder {precision} ({out / file})"
        args, symbols = vocoder_example(sizes, hop_length(config), _device(module))
        with _evaluating(module):
            _trial(module, label, args, outputs, symbols, precision)
            export_onnx(module, out / file, label, inputs, outputs, args, opset)
        files[precision] = file
    return files
