#!/usr/bin/env python3
"""Real models on a GPU, the parts a CPU cannot check (docs/real-models-qwen3-tts.md, "On a GPU"). One entry
per model; for scripts/gpu-check to call. qwen-tts's Qwen3-TTS, tiny (tts_parity/examples/qwen_tts_tiny.py):

1. greedy codes of qwen-tts's own generate(), eager (DynamicCache) and static caches;
2. `CaptureSafeStep.decode()` captured once in a real torch.cuda.CUDAGraph and replayed per frame: its codes
   must equal generate()'s (the CPU tests run the same step eagerly);
3. capture_check of the stock talker step and of CaptureSafeStep.decode on CUDA tensors (device->host copies
   are visible only there);
4. `torch.compile(mode="reduce-overhead")` (CUDA graphs by torch) of the talker's and code predictor's decoder
   stacks under static caches: codes, or the error it stops with.

    python3 python/gpu/real_models_gpu.py --model qwen-tts --out OUT     # OUT/qwen-tts.json; JSON on stdout too

Exit codes: 0 all checks passed, 1 a check failed, 2 bad usage, 77 CUDA not available, 78 the model code cannot
be imported here (qwen-tts 0.1.1 pins transformers 4.57.3 and imports librosa; the message names what failed).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, PYTHON_DIR)
os.environ.setdefault("HF_HUB_OFFLINE", "1")

EXIT_NO_CUDA, EXIT_NO_MODEL = 77, 78
TEXT, STEPS = "hello", 8


def qwen_tts(device):
    import torch

    from tts_parity.capture_check import capture_check
    from tts_parity.examples.qwen_tts_capture import CaptureSafeStep, prompt_state, stock_talker_steps
    from tts_parity.examples.qwen_tts_tiny import build_tiny_qwen3_tts
    from tts_parity.examples.qwen_tts_trace import generate_codes_of, static_cache

    result = {"model": "qwen-tts Qwen3-TTS (tiny, random weights)", "checks": {}}
    model = build_tiny_qwen3_tts(0).to(device)
    eager = generate_codes_of(model, TEXT, max_new_tokens=STEPS)
    with static_cache(model):
        static = generate_codes_of(model, TEXT, max_new_tokens=STEPS)
    frames = eager.shape[0]
    result["checks"]["static cache = eager codes"] = bool(torch.equal(static, eager))

    with torch.no_grad():
        step = CaptureSafeStep(model, {k: v.to(device) for k, v in prompt_state(model, TEXT).items()})
        step.prefill()
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            codes = [step.decode().clone()]  # step 2, eager: the warm-up is a real step
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            step.decode()  # captured, not run
        start = time.perf_counter()
        for _ in range(frames - 1):
            graph.replay()
            codes.append(step.frame_codes.clone())
        torch.cuda.synchronize()
        result["replay_ms_per_frame"] = 1000 * (time.perf_counter() - start) / max(frames - 1, 1)
        graphed = torch.cat(codes)
    result["checks"]["CUDA-graph replay of CaptureSafeStep = generate() codes"] = bool(
        torch.equal(graphed, eager.to(device))
    )

    with torch.no_grad():
        stock = capture_check(*stock_talker_steps(model, TEXT), names=["step 2", "step 3"])
        safe = CaptureSafeStep(model, {k: v.to(device) for k, v in prompt_state(model, TEXT).items()})
        safe.prefill()
        safe.decode()
        safe_report = capture_check(safe.decode, iter([(), ()]), names=["step 3", "step 4"])
    result["stock_talker_findings"] = json.loads(stock.to_json())["findings"]
    result["checks"]["capture_check: CaptureSafeStep has no findings on CUDA"] = safe_report.ok

    try:
        with static_cache(model):
            talker, cp = model.talker.model, model.talker.code_predictor.model
            talker.forward = torch.compile(talker.forward, mode="reduce-overhead")
            cp.forward = torch.compile(cp.forward, mode="reduce-overhead")
            generate_codes_of(model, TEXT, max_new_tokens=STEPS)
            compiled = generate_codes_of(model, TEXT, max_new_tokens=STEPS)
        result["reduce_overhead"] = {"codes_equal_eager": bool(torch.equal(compiled, eager))}
    except Exception as error:
        result["reduce_overhead"] = {
            "error": f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
        }
    result["ok"] = all(result["checks"].values())
    return result


MODELS = {"qwen-tts": qwen_tts}


def main(argv=None):
    parser = argparse.ArgumentParser(description="real models on a GPU (docs/real-models-qwen3-tts.md)")
    parser.add_argument("--model", choices=sorted(MODELS), required=True)
    parser.add_argument("--out", help="folder for <model>.json")
    args = parser.parse_args(argv)
    try:
        import torch
    except ImportError:
        print("real_models_gpu: CUDA not available: torch is not installed", file=sys.stderr)
        return EXIT_NO_CUDA
    if not torch.cuda.is_available():
        print(
            "real_models_gpu: CUDA not available (torch.cuda.is_available() is False): nothing checked", file=sys.stderr
        )
        return EXIT_NO_CUDA
    try:
        import qwen_tts.core.models  # noqa: F401
    except Exception as error:
        print(
            f"real_models_gpu: {args.model}: the model code does not import here: {type(error).__name__}: {error}",
            file=sys.stderr,
        )
        return EXIT_NO_MODEL
    try:
        result = MODELS[args.model]("cuda")
    except Exception:
        result = {"model": args.model, "ok": False, "error": traceback.format_exc()}
    text = json.dumps(result, indent=1)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, f"{args.model}.json"), "w") as f:
            f.write(text + "\n")
    print(text)
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
