"""bundle.json from the user's config (bundle.json without `format`, `embed` and the `exports`), the
embedding table's section and the exported files' tensor lists."""

import json

from .._output_files import write_atomically
from .contract import code_predictor_tensors, talker_tensors, vocoder_tensors
from ..errors import ExportError

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
    "codePredictor",
    "vocoder",
)
DECODER_SIZES = ("layers", "heads", "kvHeads", "headDim", "hidden", "maxPositions")


def check_config(config):
    """The fields export_bundle itself needs; everything else is checked by the loader (`parity bundle check`)."""
    missing = [k for k in REQUIRED if k not in config]
    missing += [
        f"{n}.{k}" for n in ("talker", "codePredictor") if n in config for k in DECODER_SIZES if k not in config[n]
    ]
    missing += ["talker.vocab"] if "vocab" not in config.get("talker", {}) else []
    missing += [f"vocoder.{k}" for k in ("leftContextFrames", "chunkFrames") if k not in config.get("vocoder", {})]
    if missing:
        raise ExportError(f"config: missing {', '.join(missing)} (docs/bundle-format.md names every field)")
    written = [k for k in ("format", "embed") if k in config] + [
        f"{n}.exports" for n in ("talker", "codePredictor", "vocoder") if "exports" in config[n]
    ]
    if written:
        raise ExportError(f"config: {written[0]} is written by export_bundle; leave it out of the config")
    hop = config.get("hopLength", config["sampleRate"] / config["frameRate"])
    if hop != int(hop) or hop * config["frameRate"] != config["sampleRate"]:
        raise ExportError(
            f"config: sampleRate {config['sampleRate']} / frameRate {config['frameRate']} must be a whole hopLength (samples per frame), found {hop}"
        )


def hop_length(config):
    return int(config.get("hopLength", config["sampleRate"] / config["frameRate"]))


def export_entry(file, tensors):
    inputs, outputs = tensors
    return {"file": file, "inputs": inputs, "outputs": outputs}


def decoder_tensors(config, network, mode, precision):
    if network == "talker":
        return talker_tensors(config["talker"], mode, precision)
    return code_predictor_tensors(config["codePredictor"], config["codebookSize"], mode, precision)


def build_manifest(config, embed, decoder_files, vocoder_files):
    """decoder_files: {network: {export key: file}}; vocoder_files: {precision: file}."""
    manifest = {
        "format": BUNDLE_FORMAT,
        **{k: v for k, v in config.items() if k not in ("talker", "codePredictor", "vocoder")},
    }
    manifest["hopLength"] = hop_length(config)
    manifest["embed"] = embed
    for network in ("talker", "codePredictor"):
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
