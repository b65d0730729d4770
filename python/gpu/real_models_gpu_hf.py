#!/usr/bin/env python3
"""GPU checks of the tiny real transformers models (docs/real-models.md "On a GPU"), for the repository's
one-call GPU check (scripts/gpu-check, issue 26). Needs torch 2.x and transformers 4.57.3 (the version the
recipes and the documented file:line findings are written for: on a machine with another transformers, put
this checkout's .venv site-packages/transformers first on PYTHONPATH); no Node.

1. Qwen3-Omni talker through generate(), greedy: eager (DynamicCache) vs StaticCache vs StaticCache with
   transformers' own compile path (CompileConfig mode="reduce-overhead": CUDA graphs on a GPU). Codes equal
   or not, max |Δ| of the talker and code-predictor logit statistics, the traces written to --out.
2. The capture-safe talker step (tests/real/omni_capture.py OmniTalkerGraphStep, dense MoE) captured by hand
   as one torch.cuda.CUDAGraph and replayed: its rows vs the stock talker forward's (eager), and whether the
   stock forward's capture fails (it should: capture_check's host-sync / data-dependent-shape findings).
3. CSM through generate(): eager vs StaticCache vs compiled, as in 1.

On CPU the same script runs every part without CUDA graphs (captured: false, compile left out unless
--compile-on-cpu), which is how it is tested here. `--out FILE.json` (as scripts/gpu-check calls it) writes the
JSON there and the traces into FILE/; `--out FOLDER` writes FOLDER/real-models-hf.json. The JSON is rewritten
after every check, cheap ones first and the compiled profiles last, so a run cut short keeps what it measured.
A check that raises is recorded with its error (e.g. another transformers version). Exit 0 when every check
that ran passed, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback
from pathlib import Path

PYTHON_DIR = Path(__file__).resolve().parents[1]
REAL_DIR = PYTHON_DIR / "tests" / "real"
for path in (PYTHON_DIR, REAL_DIR):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch  # noqa: E402

from tts_parity._lines import read_json_lines  # noqa: E402

STATS = ("mean", "std", "min", "max")


def _read(path):
    return list(read_json_lines(path))[1:]


def trace_diff(path_a, path_b):
    """Codes equal?, and the largest |Δ| of any logit statistic (talker and code predictor) with its place."""
    a, b = _read(path_a), _read(path_b)
    largest, where = 0.0, None
    for sa, sb in zip(a, b):
        pairs = [("talker", sa["logits"], sb["logits"])]
        pairs += [
            (f"codebook {i + 1}", x, y)
            for i, (x, y) in enumerate(zip(sa.get("codePredictorLogits", []), sb.get("codePredictorLogits", [])))
        ]
        for label, x, y in pairs:
            for key in STATS:
                d = abs(float(x[key]) - float(y[key]))
                if d > largest:
                    largest, where = d, f"step {sa['step']} {label} {key}"
    return {
        "steps": [len(a), len(b)],
        "codesEqual": len(a) == len(b) and all(x["codes"] == y["codes"] for x, y in zip(a, b)),
        "maxLogitStatDiff": largest,
        "where": where,
    }


def compile_config(device):
    from transformers import CompileConfig

    config = CompileConfig(
        fullgraph=False, dynamic=False, backend="inductor", mode="reduce-overhead" if device == "cuda" else "default"
    )
    config._compile_all_devices = device != "cuda"  # transformers compiles on CUDA only unless told
    return config


def profiles(trace, parts, out, name, device, with_compile):
    runs, result = {}, {}
    wanted = [("eager", None, None), ("static", "static", None)]
    if with_compile:
        wanted.append(("compiled", "static", compile_config(device)))
    for profile, cache, compiled in wanted:
        path = str(out / f"{name}-{profile}.jsonl")
        start = time.perf_counter()
        try:
            kwargs = {"modules": None} if name == "omni" else {}
            runs[profile] = trace(
                parts, path, profile=profile, cache_implementation=cache, compile_config=compiled, **kwargs
            )
            result[f"{profile}Seconds"] = round(time.perf_counter() - start, 3)
        except Exception as error:
            result[f"{profile}Error"] = "".join(traceback.format_exception_only(type(error), error)).strip()
    for profile in runs:
        if profile != "eager" and "eager" in runs:
            result[f"eagerVs_{profile}"] = trace_diff(runs["eager"].path, runs[profile].path)
    return result


def hand_captured_talker(parts, device):
    from omni_capture import OmniTalkerGraphStep, dense_moe

    talker = parts.talker
    embeds = parts.generate_kwargs["inputs_embeds"].to(device)
    generator = torch.Generator().manual_seed(7)
    inputs = [torch.randn(1, 1, embeds.shape[-1], generator=generator).to(device) for _ in range(4)]
    with torch.no_grad():
        reference = OmniTalkerGraphStep(talker, device=device)
        reference.prefill(embeds)
        rows_eager = []
        for x in inputs:  # the stock forward path through the same static cache layout
            reference.embeds.copy_(x)
            rows_eager.append(reference.decode().clone())
            reference.position.add_(1)
        step = OmniTalkerGraphStep(talker, device=device)
        step.prefill(embeds)
        captured = False
        with dense_moe(talker):
            if device == "cuda":
                start_position = step.position.clone()
                side = torch.cuda.Stream()
                side.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(side):
                    step.decode()  # warm-up, then undo its cache write by re-prefilling
                torch.cuda.current_stream().wait_stream(side)
                step.cache.reset()
                step.prefill(embeds)
                step.position.copy_(start_position)
                graph = torch.cuda.CUDAGraph()
                with torch.cuda.graph(graph):
                    logits = step.decode()
                captured = True

                def replay():
                    graph.replay()
                    return logits
            else:
                replay = step.decode
            rows_graph = []
            for x in inputs:
                step.embeds.copy_(x)
                rows_graph.append(replay().clone())
                step.position.add_(1)
    diffs = [float((a - b).abs().max()) for a, b in zip(rows_eager, rows_graph)]
    result = {
        "captured": captured,
        "steps": len(inputs),
        "maxRowDiff": max(diffs),
        "argmaxEqual": all(int(a.argmax()) == int(b.argmax()) for a, b in zip(rows_eager, rows_graph)),
    }
    if device == "cuda":
        result["stockForwardCapture"] = stock_capture_error(parts, device)
    return result


def stock_capture_error(parts, device):
    """Capturing the stock talker forward (sparse MoE, host branch on cache_position) should fail; its error."""
    from omni_capture import talker_decode_steps, talker_step

    talker = parts.talker
    steps = talker_decode_steps(talker, parts.generate_kwargs["inputs_embeds"].to(device))
    try:
        with torch.no_grad():
            args = tuple(a.to(device) if torch.is_tensor(a) else a for a in next(steps))
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                talker_step(talker)(*args)
        return {"failed": False}
    except Exception as error:
        return {"failed": True, "error": str(error).splitlines()[0][:300]}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out",
        default="real-models-hf",
        help="the JSON file (FILE.json, as scripts/gpu-check passes it; the traces go to a folder beside it named "
        "after it) or a folder (FOLDER/real-models-hf.json and the traces in it)",
    )
    parser.add_argument("--compile-on-cpu", action="store_true", help="also run the compiled profile on CPU (minutes)")
    args = parser.parse_args(argv)
    target = Path(args.out)
    if target.suffix == ".json":
        json_path, out = target, target.with_suffix("")
    else:
        json_path, out = target / "real-models-hf.json", target
    out.mkdir(parents=True, exist_ok=True)
    json_path.parent.mkdir(parents=True, exist_ok=True)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    import transformers

    result: dict = {
        "device": torch.cuda.get_device_name(0) if device == "cuda" else "cpu",
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "checks": {},
        "ok": False,
    }
    if not transformers.__version__.startswith("4.57."):
        result["note"] = "the recipes and the documented file:line findings are for transformers 4.57.3"
    checks = result["checks"]

    def write():  # after every check: a run cut short by the caller's time limit keeps what it measured
        json_path.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")

    def check(name, fn):
        try:
            checks[name] = fn()
        except Exception as error:  # the error is the finding
            checks[name] = {"error": "".join(traceback.format_exception_only(type(error), error)).strip()[:2000]}
        write()

    with_compile = device == "cuda" or args.compile_on_cpu
    from hf_recipes import build_csm, build_omni
    from hf_tracing import trace_csm, trace_omni

    parts = {}

    def build():
        parts["omni"] = build_omni()
        parts["omni"].talker.to(device)
        parts["omni"].code2wav.to(device)
        parts["csm"] = build_csm()
        parts["csm"].model.to(device)
        return {"built": sorted(parts)}

    check("build", build)
    if "omni" in parts:
        # the cheap checks first, the compiled profiles last (inductor compiles for tens of seconds)
        check("omniHandCaptured", lambda: hand_captured_talker(parts["omni"], device))
        check("omniTalker", lambda: profiles(trace_omni, parts["omni"], out, "omni", device, False))
        check("csm", lambda: profiles(trace_csm, parts["csm"], out, "csm", device, False))
        if with_compile:
            check("omniTalkerCompiled", lambda: compiled_profile(trace_omni, parts["omni"], out, "omni", device))
            check("csmCompiled", lambda: compiled_profile(trace_csm, parts["csm"], out, "csm", device))
    failed = [name for name, c in checks.items() if "error" in c or any(k.endswith("Error") for k in c)]
    codes = [v["codesEqual"] for c in checks.values() for k, v in c.items() if k.startswith("eagerVs_")]
    hand = checks.get("omniHandCaptured", {})
    result["failed"] = failed
    result["ok"] = not failed and all(codes) and hand.get("argmaxEqual", False)
    write()
    print(json.dumps(result, indent=2))
    return 0 if result["ok"] else 1


def compiled_profile(trace, parts, out, name, device):
    """StaticCache + transformers' compile path vs the eager trace written by `profiles` before it."""
    path = str(out / f"{name}-compiled.jsonl")
    kwargs = {"modules": None} if name == "omni" else {}
    start = time.perf_counter()
    trace(
        parts, path, profile="compiled", cache_implementation="static", compile_config=compile_config(device), **kwargs
    )
    seconds = round(time.perf_counter() - start, 3)
    return {"compiledSeconds": seconds, "eagerVs_compiled": trace_diff(str(out / f"{name}-eager.jsonl"), path)}


if __name__ == "__main__":
    sys.exit(main())
