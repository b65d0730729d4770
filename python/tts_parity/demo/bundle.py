"""Where the demo bundle lives and what its bundle.json says, read the way `parity` reads them.

The cache folder follows electron/engine/demo/resolve-demo-bundle.ts: PARITY_CACHE_DIR, else
$XDG_CACHE_HOME/tts-parity-studio, else ~/.cache/tts-parity-studio; the bundle is the folder
`demo-bundle-v{DEMO_BUNDLE_VERSION}-{DEMO_SEED}` in it. tests/demo/test_demo_twin_bundle.py checks
both numbers against the TypeScript source so they cannot drift apart silently.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from ..errors import ParityValueError

__all__ = [
    "BUILD_COMMAND",
    "DEMO_BUNDLE_VERSION",
    "DEMO_SEED",
    "DecoderSizes",
    "Manifest",
    "demo_bundle_dir",
    "demo_cache_root",
    "read_manifest",
]


# electron/engine/demo/resolve-demo-bundle.ts DEMO_BUNDLE_VERSION and demo-config.ts DEMO_SEED.
DEMO_BUNDLE_VERSION = 5
DEMO_SEED = 20240611
BUILD_COMMAND = "node bin/parity.js bundle build-demo --out"


def demo_cache_root() -> Path:
    if os.environ.get("PARITY_CACHE_DIR"):
        return Path(os.environ["PARITY_CACHE_DIR"])
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg) / "tts-parity-studio"


def demo_bundle_dir() -> Path:
    """The built-in demo bundle's folder, or a ParityValueError saying how to build it."""
    target = demo_cache_root() / f"demo-bundle-v{DEMO_BUNDLE_VERSION}-{DEMO_SEED}"
    if not (target / "bundle.json").is_file():
        raise ParityValueError(
            f"the demo bundle is not built yet (looked for {target / 'bundle.json'}): build it with "
            f"`{BUILD_COMMAND} {target}` (or any `parity synth` once), or pass --bundle DIR"
        )
    return target


@dataclass(frozen=True)
class DecoderSizes:
    layers: int
    heads: int
    kv_heads: int
    head_dim: int
    hidden: int
    max_positions: int


@dataclass(frozen=True)
class Manifest:
    """The parts of bundle.json the twin needs (docs/bundle-format.md)."""

    folder: Path
    name: str
    sample_rate: int
    frame_rate: float
    hop_length: int
    codebooks: int
    codebook_size: int
    eos: int
    bos: int
    text_bos: int
    frames_per_char: float
    max_bytes: int
    max_frames: int
    codec_row_offset: int
    codec_rows_per_codebook: int
    talker: DecoderSizes
    talker_vocab: int
    code_predictor: DecoderSizes
    files: dict  # network -> fp32 ONNX file name (the eager export: the graph export has the same initializers)


def _sizes(d: dict) -> DecoderSizes:
    return DecoderSizes(d["layers"], d["heads"], d["kvHeads"], d["headDim"], d["hidden"], d["maxPositions"])


def _fp32_file(section: dict, where: str, keys: tuple) -> str:
    exports = section.get("exports", {})
    for key in keys:
        if key in exports:
            return exports[key]["file"]
    raise ParityValueError(
        f"bundle.json: {where}.exports has none of {', '.join(keys)} (found: {', '.join(exports) or 'none'})"
    )


def read_manifest(folder: Path) -> Manifest:
    """bundle.json of a demo-architecture bundle, or a ParityValueError naming the field."""
    path = Path(folder) / "bundle.json"
    if not path.is_file():
        raise ParityValueError(f"--bundle {folder}: no bundle.json in it")
    try:
        m = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ParityValueError(f"{path}: not readable JSON ({error})") from None
    text = m.get("text", {})
    if text.get("tokenizer") != "byte":
        raise ParityValueError(
            f"{path}: text.tokenizer is {text.get('tokenizer')!r}; "
            "the twin reads byte-level bundles only (the demo architecture)"
        )
    try:
        return Manifest(
            folder=Path(folder),
            name=m["name"],
            sample_rate=m["sampleRate"],
            frame_rate=m["frameRate"],
            hop_length=m["hopLength"],
            codebooks=m["codebooks"],
            codebook_size=m["codebookSize"],
            eos=m["specialCodes"]["eos"],
            bos=m["specialCodes"]["bos"],
            text_bos=text["bos"],
            frames_per_char=text["framesPerChar"],
            max_bytes=text["maxBytes"],
            max_frames=m["maxFrames"],
            codec_row_offset=m["embed"]["codecRowOffset"],
            codec_rows_per_codebook=m["embed"]["codecRowsPerCodebook"],
            talker=_sizes(m["talker"]),
            talker_vocab=m["talker"]["vocab"],
            code_predictor=_sizes(m["codePredictor"]),
            files={
                "embed": m["embed"]["export"]["file"],
                "talker": _fp32_file(m["talker"], "talker", ("eager-fp32", "graph-fp32")),
                "code_predictor": _fp32_file(m["codePredictor"], "codePredictor", ("eager-fp32", "graph-fp32")),
                "vocoder": _fp32_file(m["vocoder"], "vocoder", ("fp32",)),
            },
        )
    except KeyError as error:
        raise ParityValueError(f"{path}: missing field {error.args[0]!r} (docs/bundle-format.md)") from None
