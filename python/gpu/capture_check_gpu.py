#!/usr/bin/env python3
"""The capture check's rules tested against CUDA itself (docs/capture-check.md#on-a-gpu).

For every example in tts_parity.examples: the unsafe step must break a real torch.cuda.CUDAGraph (capture
fails, or a replay cannot take the next step's inputs, or a replay differs from eager), and the capture-safe
rewrite must capture and replay equal to eager at every step. Each case runs in its own process (a refused
capture can leave the CUDA context unusable for the next one), CHILDREN at a time (each spends seconds importing
torch and starting CUDA: one after another, the 14 cases ran past gpu-check's 45 s), and also runs capture_check on
the CUDA tensors. A line per finished case goes to stderr as it finishes.

    python3 python/gpu/capture_check_gpu.py            # all cases, JSON on stdout
    python3 python/gpu/capture_check_gpu.py --case host_sync:unsafe_step

Exit codes: 0 every case confirmed, 1 some case not confirmed, 2 bad usage, 77 CUDA not available (one line).
"""

import argparse
import concurrent.futures
import contextlib
import importlib
import json
import os
import subprocess
import sys
import time

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, PYTHON_DIR)

try:
    import torch
except ImportError:  # reported as "CUDA not available" by main()
    torch = None

EXIT_NO_CUDA = 77
RULE_MODULES = [
    "host_sync",
    "data_dependent_shape",
    "tensor_from_python",
    "shape_varies",
    "python_scalar_varies",
    "state_tensor_varies",
]
# Replays run the same kernels as eager on the same inputs; the tolerance only admits a different kernel
# choice under capture (a few float32 ulps on these ≤16-term sums). Stale values differ by O(0.1).
RTOL, ATOL = 1e-5, 1e-6
CHILDREN = 4


def cases():
    """(case id, module, step function, step-inputs function, expectation) for every example."""
    found = []
    for name in RULE_MODULES:
        found.append((f"{name}:unsafe_step", name, "unsafe_step", "step_inputs", "breaks"))
        found.append((f"{name}:safe_step", name, "safe_step", "safe_step_inputs", "captures"))
    found.append(
        (
            "seed_001_talker:decode_request_token_positions",
            "seed_001_talker",
            "decode_request_token_positions",
            "step_inputs",
            "breaks",
        )
    )
    found.append(
        (
            "seed_001_talker:decode_request_token_positions_fixed",
            "seed_001_talker",
            "decode_request_token_positions_fixed",
            "step_inputs",
            "captures",
        )
    )
    return found


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", help="run one case in this process (CASE as listed in the JSON)")
    options = parser.parse_args(argv)
    if torch is None or not torch.cuda.is_available():
        version = "torch not installed" if torch is None else f"torch {torch.__version__}"
        print(
            f"capture_check_gpu: CUDA is not available ({version}): nothing captured, no rule confirmed",
            file=sys.stderr,
        )
        return EXIT_NO_CUDA
    known = {case[0]: case for case in cases()}
    if options.case is not None:
        if options.case not in known:
            print(f'capture_check_gpu: unknown case "{options.case}" (known: {", ".join(known)})', file=sys.stderr)
            return 2
        print(json.dumps(run_case(*known[options.case])))
        return 0
    results = run_all(list(known))
    summary = {
        "torch": torch.__version__,
        "device": torch.cuda.get_device_name(0),
        "confirmed": all(result.get("confirmed") for result in results),
        "cases": results,
    }
    print(json.dumps(summary, indent=2))
    return 0 if summary["confirmed"] else 1


def run_all(case_ids, run_one=None, children=CHILDREN):
    """Every case in its own process, `children` at a time; results in `case_ids`' order, a progress line per
    case on stderr as it finishes."""
    run_one = run_one or _run_in_child
    began = time.monotonic()
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=children) as pool:
        pending = {pool.submit(run_one, case_id): case_id for case_id in case_ids}
        for done in concurrent.futures.as_completed(pending):
            case_id = pending[done]
            results[case_id] = done.result()
            verdict = "confirmed" if results[case_id].get("confirmed") else "NOT confirmed"
            print(
                f"capture_check_gpu: [{len(results)}/{len(case_ids)}] {case_id}: {verdict} "
                f"({results[case_id].get('observed')}) at {time.monotonic() - began:.1f} s",
                file=sys.stderr,
                flush=True,
            )
    return [results[case_id] for case_id in case_ids]


def _run_in_child(case_id):
    done = subprocess.run(
        [sys.executable, os.path.abspath(__file__), "--case", case_id], capture_output=True, text=True
    )
    if done.returncode != 0 or not done.stdout.strip():
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {
            "case": case_id,
            "confirmed": False,
            "observed": f"the case's process failed (exit {done.returncode}): {last}",
        }
    return json.loads(done.stdout.strip().splitlines()[-1])


def run_case(case_id, module_name, step_name, inputs_name, expect):
    from tts_parity.capture_check import capture_check

    module = importlib.import_module(f"tts_parity.examples.{module_name}")
    fn = getattr(module, step_name)
    make_inputs = getattr(module, inputs_name, module.step_inputs)
    result = {"case": case_id, "expect": expect}
    with contextlib.redirect_stdout(sys.stderr):
        report = capture_check(fn, make_inputs("cuda"))
    result["check_rules_on_cuda"] = sorted({finding.rule for finding in report.findings})
    steps = make_inputs("cuda")
    eager = _eager_outputs(fn, steps)
    result.update(_capture_and_replay(fn, steps, eager))
    if expect == "breaks":
        result["confirmed"] = result["observed"] != "replays equal eager"
    else:
        result["confirmed"] = result["observed"] == "replays equal eager"
    return result


def _eager_outputs(fn, steps):
    """fn on copies of each step's inputs, in order; an argument shared by several steps (a cache) stays shared."""
    memo = {}
    outputs = []
    with contextlib.redirect_stdout(sys.stderr):
        for args in steps:
            outputs.append(_tensors(fn(*[_copy(a, memo) for a in args]), clone=True))
    return outputs


def _capture_and_replay(fn, steps, eager):
    static = [_copy(a, {}) for a in steps[0]]
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    graph = torch.cuda.CUDAGraph()
    try:
        with contextlib.redirect_stdout(sys.stderr):
            with torch.cuda.stream(side):
                fn(*static)  # warm-up: lazy initialisation outside the capture
            torch.cuda.current_stream().wait_stream(side)
            with torch.cuda.graph(graph):
                captured = _tensors(fn(*static))
    except Exception as error:
        return {"observed": "capture failed", "error": _first_line(error)}
    replays = []
    for index, args in enumerate(steps):
        refused = _load_inputs(static, steps[0], args, index)
        if refused:
            return {"observed": "replay cannot take the step's inputs", "error": refused, "replays": replays}
        graph.replay()
        torch.cuda.synchronize()
        replays.append(_compare(index, captured, eager[index]))
    observed = "replays equal eager" if all(r["equal"] for r in replays) else "replay differs from eager"
    return {"observed": observed, "replays": replays}


def _load_inputs(static, first, args, index):
    """Copies step `index`'s inputs into the captured ones; arguments shared with the captured step (state such
    as a cache) are left to the graph. Returns why it cannot, or None."""
    for position, (held, original, value) in enumerate(zip(static, first, args)):
        if value is original and index > 0:
            continue
        if isinstance(value, torch.Tensor):
            if value.shape != held.shape or value.dtype != held.dtype:
                return (
                    f"steps[{index}] argument {position} is {list(value.shape)} {value.dtype}, "
                    f"the graph was captured with {list(held.shape)} {held.dtype}"
                )
            held.copy_(value)
    return None


def _compare(index, captured, expected):
    if len(captured) != len(expected) or any(a.shape != b.shape for a, b in zip(captured, expected)):
        return {"step": index, "equal": False, "note": "output shapes differ from eager"}
    diffs = [float((a.double() - b.double()).abs().max()) if a.numel() else 0.0 for a, b in zip(captured, expected)]
    equal = all(torch.allclose(a.double(), b.double(), rtol=RTOL, atol=ATOL) for a, b in zip(captured, expected))
    return {"step": index, "equal": equal, "max_abs_diff": max(diffs, default=0.0)}


def _copy(value, memo):
    if isinstance(value, torch.Tensor):
        if id(value) not in memo:
            memo[id(value)] = value.clone()
        return memo[id(value)]
    return value


def _tensors(output, clone=False):
    """The tensors of a step's output (nested tuples/lists), in order; Python values are left out."""
    if isinstance(output, torch.Tensor):
        return [output.clone() if clone else output]
    if isinstance(output, (tuple, list)):
        return [t for item in output for t in _tensors(item, clone)]
    return []


def _first_line(error):
    while error.__context__ is not None and error.__cause__ is None:
        error = error.__context__
    text = (str(error).strip().splitlines() or [""])[0]
    return f"{type(error).__name__}: {text}"


if __name__ == "__main__":
    sys.exit(main())
