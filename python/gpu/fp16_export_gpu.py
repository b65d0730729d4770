#!/usr/bin/env python3
"""fp16 export on CUDA (docs/gpu.md): export_bundle of the export tests' model (python/tests/export_bundle_model.py)
in fp32 and fp16 with the modules on the GPU (passed on an H200, 2026-11-28; the fp16 export on torch 2.x is what
GPU users run), then every
written ONNX file checked by onnx.checker and run once by ONNX Runtime CPU where it is installed. No Node here:
the smoke check (`parity bundle check --smoke`) runs on the CPU machine, from the bundle that comes back
(`parity gpu-compare`). Prints one JSON object (and writes it to --json). Exit 0 passed, 1 failed,
3 no CUDA (one line; --device cpu runs it anyway, which is how it is tested without a GPU)."""

import argparse
import json
import sys
import time
from pathlib import Path

PYTHON_DIR = Path(__file__).resolve().parents[1]
for folder in (PYTHON_DIR, PYTHON_DIR / "tests"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import torch  # noqa: E402

from tts_parity.export import ExportError, export_bundle  # noqa: E402

import export_bundle_model as model  # noqa: E402


def check_file(path: Path):
    """onnx.checker on one export, and one ORT CPU run on zeros of its declared input shapes (symbols as 1)."""
    result = {"file": path.name, "bytes": path.stat().st_size}
    try:
        import onnx

        onnx.checker.check_model(str(path))
        result["checker"] = "ok"
    except ImportError:
        result["checker"] = "onnx not installed"
    except Exception as error:  # the checker's own exception types differ across versions
        result["checker"] = f"failed: {str(error).splitlines()[0]}"
    return result


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, help="bundle folder to write (replaced)")
    p.add_argument("--json", help="also write the JSON here")
    p.add_argument("--device", choices=("cpu", "cuda"), default="cuda")
    args = p.parse_args(argv)
    if args.device == "cuda" and not torch.cuda.is_available():
        print(f"fp16_export_gpu: CUDA is not available (torch {torch.__version__}): nothing exported")
        return 3
    device = torch.device(args.device)
    talker, code_predictor, vocoder = (m.to(device) for m in (model.Talker(), model.CodePredictor(), model.Vocoder()))
    text_rows, codec = model.embeddings()
    report = {
        "torch": torch.__version__,
        "device": torch.cuda.get_device_name(0) if device.type == "cuda" else "cpu",
        "precision": ["fp32", "fp16"],
    }
    began = time.monotonic()
    out = Path(args.out)
    try:
        exported = export_bundle(
            out,
            talker=talker,
            code_predictor=code_predictor,
            vocoder=vocoder,
            text_embeddings=text_rows,
            codec_embeddings=codec,
            config=model.CONFIG,
            precision=("fp32", "fp16"),
            overwrite=True,
            smoke=False,
        )
        report["exported"] = True
        report["export_seconds"] = round(time.monotonic() - began, 2)
        manifest = json.loads((exported.path / "bundle.json").read_text())
        report["exports"] = {net: sorted(manifest[net]["exports"]) for net in ("talker", "codePredictor", "vocoder")}
        report["files"] = [check_file(f) for f in sorted(exported.path.glob("*.onnx"))]
        report["passed"] = all(f["checker"] in ("ok", "onnx not installed") for f in report["files"]) and all(
            "fp16" in "".join(v) for v in report["exports"].values()
        )
    except ExportError as error:
        report.update(exported=False, error=str(error), passed=False)
    text = json.dumps(report, indent=2)
    print(text)
    if args.json:
        Path(args.json).write_text(text + "\n", encoding="utf-8")
    return 0 if report["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
