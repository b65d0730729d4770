"""bundle.json from the user's config (bundle.json without `format`, `embed` and the `exports`), the
embedding table's section and the exported files' tensor lists."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jsonschema

from .._output_files import write_atomically
from ..errors import ExportError, ParityTypeError
from .contract import code_predictor_tensors, encoder_tensors, talker_tensors, vocoder_tensors

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = [
    "BUNDLE_FORMAT",
    "DECODER_SIZES",
    "REQUIRED",
    "WRITTEN_BY_EXPORT",
    "build_manifest",
    "check_config",
    "decoder_tensors",
    "export_entry",
    "hop_length",
    "write_manifest",
]


BUNDLE_FORMAT = "tts-parity-bundle/1"
REQUIRED = (
    "name",
    "sampleRate",
    "frameRate",
    "codebooks",
    "codebookSize",
    "specialCodes",
    "text",
    "maxFrames",
    "talker",
    "vocoder",
)
DECODER_SIZES = ("layers", "heads", "kvHeads", "headDim", "hidden", "maxPositions")


WRITTEN_BY_EXPORT = ("format", "embed", "hopLength")  # hopLength: computed when left out
_BUNDLE_SCHEMA = Path(__file__).resolve().parents[1] / "schema" / "bundle.schema.json"


def _config_validator() -> jsonschema.Draft202012Validator:
    """bundle.json's JSON Schema (generated from the loader's zod schema) without what export_bundle writes: the
    config is checked by the loader's own rules (unknown keys, types, ranges) before anything is exported."""
    schema = json.loads(_BUNDLE_SCHEMA.read_text(encoding="utf-8"))
    schema = copy.deepcopy(schema)
    schema["required"] = [k for k in schema["required"] if k not in WRITTEN_BY_EXPORT]
    for network in ("talker", "codePredictor", "vocoder", "encoder"):
        part = schema["properties"][network]
        if "required" in part:
            part["required"] = [k for k in part["required"] if k != "exports"]
    return jsonschema.Draft202012Validator(schema)


def _non_finite(value: Any, path: str = "config") -> str | None:
    """The path of the first NaN or infinite number in the config, if any."""
    if isinstance(value, float) and not math.isfinite(value):
        return path
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found = _non_finite(item, f"{path}.{key}")
        if found:
            return found
    return None


def check_config(config: Mapping[str, Any]) -> None:
    """Refuses a config the loader would refuse (bundle.json's JSON Schema without the fields export_bundle writes:
    unknown keys, wrong types, out-of-range values), or one export_bundle cannot use, in one line naming the field."""
    if not isinstance(config, dict):
        raise ParityTypeError(
            "export_bundle: config: expected a dict (bundle.json without format, embed and the exports), found "
            f"{type(config).__name__}"
        )
    missing = [k for k in REQUIRED if k not in config]
    all_codebooks = config.get("talker", {}).get("codebooks") == "all"
    missing += [] if all_codebooks or "codePredictor" in config else ["codePredictor"]
    missing += [] if not all_codebooks or "encoder" in config else ["encoder"]
    missing += [
        f"{n}.{k}" for n in ("talker", "codePredictor") if n in config for k in DECODER_SIZES if k not in config[n]
    ]
    missing += [
        f"encoder.{k}" for k in ("hidden", "maxPositions") if "encoder" in config and k not in config["encoder"]
    ]
    missing += ["talker.vocab"] if "vocab" not in config.get("talker", {}) else []
    missing += [f"vocoder.{k}" for k in ("leftContextFrames", "chunkFrames") if k not in config.get("vocoder", {})]
    if missing:
        raise ExportError(f"config: missing {', '.join(missing)} (docs/bundle-format.md names every field)")
    written = [k for k in ("format", "embed") if k in config] + [
        f"{n}.exports"
        for n in ("talker", "codePredictor", "vocoder", "encoder")
        if n in config and "exports" in config[n]
    ]
    if written:
        raise ExportError(f"config: {written[0]} is written by export_bundle; leave it out of the config")
    bad_number = _non_finite(config)
    if bad_number:
        raise ExportError(f"{bad_number}: expected a finite number, found {_at(config, bad_number)!r}")
    error = jsonschema.exceptions.best_match(_config_validator().iter_errors(config))
    if error is not None:
        path = ".".join(str(p) for p in error.absolute_path)
        where = f"config.{path}" if path else "config"
        raise ExportError(f"{where}: {error.message} (docs/bundle-format.md; the loader refuses it)")
    hop = config.get("hopLength", config["sampleRate"] / config["frameRate"])
    if hop != int(hop) or hop * config["frameRate"] != config["sampleRate"]:
        raise ExportError(
            f"config: sampleRate {config['sampleRate']} / frameRate {config['frameRate']} must be a whole hopLength "
            f"(samples per frame), found {hop}"
        )


def _at(config: Any, path: str) -> Any:
    value = config
    for key in path.split(".")[1:]:
        value = value[int(key)] if isinstance(value, list) else value[key]
    return value


def hop_length(config):
    return int(config.get("hopLength", config["sampleRate"] / config["frameRate"]))


def export_entry(file, tensors):
    inputs, outputs = tensors
    return {"file": file, "inputs": inputs, "outputs": outputs}


def decoder_tensors(config, network, mode, precision):
    """(inputs, outputs) of one export of `network` ("talker", "codePredictor" or "encoder")."""
    if network == "talker":
        codebooks = config["codebooks"] if config["talker"].get("codebooks") == "all" else None
        return talker_tensors(config["talker"], mode, precision, codebooks, config.get("encoder"))
    if network == "encoder":
        return encoder_tensors(config["encoder"], mode, precision)
    return code_predictor_tensors(config["codePredictor"], config["codebookSize"], mode, precision)


def build_manifest(config, embed, decoder_files, vocoder_files):
    """decoder_files: {network: {export key: file}}; vocoder_files: {precision: file}."""
    manifest = {
        "format": BUNDLE_FORMAT,
        **{k: v for k, v in config.items() if k not in ("talker", "codePredictor", "encoder", "vocoder")},
    }
    manifest["hopLength"] = hop_length(config)
    manifest["embed"] = embed
    for network in ("talker", "codePredictor", "encoder"):
        if network not in decoder_files:
            continue
        exports = {}
        for key, file in decoder_files[network].items():
            mode, precision = key.split("-")
            exports[key] = export_entry(file, decoder_tensors(config, network, mode, precision))
        manifest[network] = {**config[network], "exports": exports}
    manifest["vocoder"] = {
        **config["vocoder"],
        "exports": {p: export_entry(f, vocoder_tensors(config["codebooks"])) for p, f in vocoder_files.items()},
    }
    return manifest


def write_manifest(out_dir, manifest):
    try:
        text = json.dumps(manifest, indent=2, allow_nan=False) + "\n"
    except (TypeError, ValueError) as error:
        raise ExportError(f"config: not writable as JSON ({error})") from error
    write_atomically(text.encode("utf-8"), out_dir / "bundle.json", force=True, what="export_bundle: bundle.json")
