#!/usr/bin/env python3
"""GPU acceptance of the PyTorch twin (docs/python-twin.md#on-a-gpu-machine). Needs PyTorch (1.13-2.x) and the
demo bundle; no Node. On CUDA it checks and measures:

1. eager vs graph (decode step captured once as a CUDA graph, replayed): codes identical or not, max |Δ| of
   the talker and code-predictor logits over every step;
2. stale-feedback@N from the captured buffers: graph without vs with the fault, module outputs recorded
   by the graph's own copies (ModuleRecorder.static); the first step whose talker logits differ must be N,
   and the first module (execution order) whose output differs there is named;
3. bool-mask: the CLI must refuse the capture in one line and exit 2 (run in a child process, because a
   refused capture can leave the CUDA context unusable);
4. decode-step time, CUDA events, warm-up then median: eager (dynamic cache, host selection), the static
   step called directly (no graph) and the graph replay; and, per decode step in the traced loop, the
   cost of module recording as a ratio to the unrecorded step, eager and graph.

On CPU the same script runs every part without capture (captured: false) — that is how it is tested here.
Prints one JSON object (and writes it to --out). Exit 0 when every check that ran passed, 1 otherwise.
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PYTHON_DIR = Path(__file__).resolve().parents[1]
if str(PYTHON_DIR) not in sys.path:
    sys.path.insert(0, str(PYTHON_DIR))

import numpy as np  # noqa: E402
import torch  # noqa: E402

from tts_parity.demo import Faults, demo_bundle_dir, load_twin, synthesize  # noqa: E402
from tts_parity.demo.eager_decode import EagerDecoder  # noqa: E402
from tts_parity.demo.graph_runner import GraphRunner  # noqa: E402
from tts_parity.demo.selection import GreedySelector  # noqa: E402
from tts_parity.demo.static_step import StaticStep  # noqa: E402
from tts_parity.demo.text import tokenize  # noqa: E402
from tts_parity.module_recorder import ModuleRecorder  # noqa: E402
from tts_parity.safetensors_io import read_safetensors  # noqa: E402

TEXT = "The quick brown fox jumps over the lazy dog."  # 40 frames
MODULES = r"^(feedback|talker\.layers\.\d+\.(self_attn|mlp)|code_predictor\.layers\.\d+\.mlp)$"
MODULE_TOL = 1e-4  # abs and rel, compare-trace's module tolerance


def max_abs(a, b) -> float:
    return float(np.max(np.abs(np.asarray(a, np.float64) - np.asarray(b, np.float64))))


def eager_vs_graph(twin, text):
    eager = synthesize(twin, text, "eager")
    graph = synthesize(twin, text, "graph")
    same = np.array_equal(eager.codes, graph.codes)
    differing = [s.step for s, e in zip(graph.steps, eager.steps) if s.codes != e.codes]
    return {
        "captured": graph.captured,
        "frames": len(graph.steps),
        "codes_identical": bool(same),
        "first_step_with_other_codes": differing[0] if differing else None,
        "max_abs_talker_logits": max(
            max_abs(e.talker_logits, g.talker_logits) for e, g in zip(eager.steps, graph.steps)
        ),
        "max_abs_code_predictor_logits": max(
            max_abs(e.code_predictor_logits, g.code_predictor_logits) for e, g in zip(eager.steps, graph.steps)
        ),
        "max_abs_audio": max_abs(eager.audio, graph.audio),
    }


def recorded_graph_run(twin, text, faults, sidecar):
    with ModuleRecorder(twin, sidecar, modules=MODULES) as recorder:
        result = synthesize(twin, text, "graph", faults, recorder=recorder)
    return result, read_safetensors(sidecar)[0]


def first_module_differing(step, tensors_a, tensors_b):
    """(name, max |Δ|) of the first recorded output of `step` (sidecar order) beyond MODULE_TOL."""
    prefix = f"{step}/"
    for key in sorted(k for k in tensors_a if k.startswith(prefix)):
        a, b = tensors_a[key].astype(np.float64), tensors_b[key].astype(np.float64)
        diff = np.abs(a - b)
        if np.any(diff > MODULE_TOL + MODULE_TOL * np.abs(a)):
            return key.split("/", 2)[2], float(diff.max())
    return None, 0.0


def stale_feedback(twin, text, step, folder):
    clean, tensors_a = recorded_graph_run(twin, text, Faults(), folder / "a.modules.safetensors")
    fault, tensors_b = recorded_graph_run(twin, text, Faults(stale_feedback=step), folder / "b.modules.safetensors")
    differing = [b.step for a, b in zip(clean.steps, fault.steps) if max_abs(a.talker_logits, b.talker_logits) > 0]
    first = differing[0] if differing else None
    module, delta = first_module_differing(first, tensors_a, tensors_b) if first else (None, 0.0)
    return {
        "captured": fault.captured,
        "fault_step": step,
        "first_divergent_step": first,
        "localised_exactly": first == step,
        "steps_before_bit_identical": all(
            max_abs(a.talker_logits, b.talker_logits) == 0
            for a, b in zip(clean.steps[: step - 1], fault.steps[: step - 1])
        ),
        "first_module": module,
        "first_module_max_abs_diff": delta,
    }


def bool_mask(bundle, text, device, folder):
    cli = [
        sys.executable,
        "-m",
        "tts_parity.demo",
        "--profile",
        "graph",
        "--fault",
        "bool-mask",
        "--bundle",
        str(bundle),
        "--text",
        text,
        "--device",
        device.type,
        "--out",
        str(folder / "bool-mask"),
    ]
    done = subprocess.run(cli, cwd=PYTHON_DIR, capture_output=True, text=True, timeout=300)
    lines = done.stderr.strip().splitlines()
    refused = done.returncode == 2 and any("CUDA graph capture of the decode step failed" in line for line in lines)
    return {
        "exit_code": done.returncode,
        "stderr": lines,
        "capture_refused": refused,
        "expected_refusal": device.type == "cuda",
    }


def time_interleaved(fns: dict, device, warmup, repeats) -> dict:
    """ms per call of each function, calls interleaved round-robin so that a shared machine's load falls on
    all of them alike: CUDA events around each call on CUDA, perf_counter on CPU; warm-up rounds first."""
    times = {name: [] for name in fns}
    with torch.no_grad():
        for round_ in range(warmup + repeats):
            for name, fn in fns.items():
                if device.type == "cuda":
                    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                    start.record()
                    fn()
                    end.record()
                    torch.cuda.synchronize(device)
                    elapsed = start.elapsed_time(end)
                else:
                    t0 = time.perf_counter()
                    fn()
                    elapsed = (time.perf_counter() - t0) * 1e3
                if round_ >= warmup:
                    times[name].append(elapsed)
    return times


def decode_step_times(twin, text, device, warmup, repeats):
    """The same decode step (step 2, at the first decode position) timed three ways, state restored or
    idempotent between calls (a repeated static step rewrites the same KV row with the same values)."""
    ids, _ = tokenize(text, twin.manifest)
    eager = EagerDecoder(twin, ids, Faults(), GreedySelector())
    eager.run_step(1)
    state = eager.snapshot()

    def eager_step():
        eager.restore(state)
        eager.run_step(2)

    step = StaticStep(twin, Faults())
    with torch.no_grad():
        step.prefill(ids)
    step.refresh_feedback()
    step.position.fill_(len(ids))
    runner = GraphRunner(step)
    runner.decode()  # captures on CUDA
    fns = {"eager_ms": eager_step, "static_no_graph_ms": step.decode}
    if runner.graph is not None:
        fns["graph_replay_ms"] = runner.graph.replay
    out = {name: statistics.median(times) for name, times in time_interleaved(fns, device, warmup, repeats).items()}
    if runner.graph is not None:
        out["graph_speedup_vs_eager"] = out["eager_ms"] / out["graph_replay_ms"]
    out["static_speedup_vs_eager"] = out["eager_ms"] / out["static_no_graph_ms"]
    out.update(
        {
            "warmup": warmup,
            "repeats": repeats,
            "statistic": "median",
            "clock": "CUDA events" if device.type == "cuda" else "perf_counter",
        }
    )
    return out


def loop_step_median(twin, text, profile, recorder_path=None):
    """Median per-step time of decode steps 3.. in the traced loop (step 2 holds the capture)."""
    if recorder_path is None:
        result = synthesize(twin, text, profile)
    else:
        with ModuleRecorder(twin, recorder_path, modules=MODULES) as recorder:
            result = synthesize(twin, text, profile, recorder=recorder)
    return statistics.median(s.step_ms for s in result.steps[2:])


def recording_overhead(twin, text, folder, rounds):
    """Traced-loop decode steps with and without module recording, syntheses alternated (shared load)."""
    out = {"modules": MODULES}
    for profile in ("eager", "graph"):
        loop_step_median(twin, text, profile)  # warm-up
        plain, recorded = [], []
        for i in range(rounds):
            plain.append(loop_step_median(twin, text, profile))
            recorded.append(loop_step_median(twin, text, profile, folder / f"{profile}-{i}.safetensors"))
        plain_ms, recorded_ms = statistics.median(plain), statistics.median(recorded)
        out[profile] = {
            "step_ms": plain_ms,
            "recorded_step_ms": recorded_ms,
            "overhead_ratio": recorded_ms / plain_ms - 1,
        }
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bundle", help="demo bundle folder (default: where `parity` keeps it)")
    p.add_argument("--text", default=TEXT)
    p.add_argument("--device", choices=("cpu", "cuda"), help="default: cuda when available")
    p.add_argument("--stale-step", type=int, default=2, help="N of stale-feedback@N (default 2: the first replay)")
    p.add_argument("--warmup", type=int, default=10)
    p.add_argument("--repeats", type=int, default=100)
    p.add_argument("--rounds", type=int, default=3, help="syntheses per recording-overhead median")
    p.add_argument("--out", help="also write the JSON here")
    args = p.parse_args(argv)
    device = torch.device(args.device or ("cuda" if torch.cuda.is_available() else "cpu"))
    bundle = Path(args.bundle) if args.bundle else demo_bundle_dir()
    twin = load_twin(bundle, device)
    report = {
        "device": torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu",
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "text": args.text,
    }
    with tempfile.TemporaryDirectory(prefix="twin-check-") as tmp:
        folder = Path(tmp)
        report["eager_vs_graph"] = eager_vs_graph(twin, args.text)
        report["stale_feedback"] = stale_feedback(twin, args.text, args.stale_step, folder)
        report["decode_step"] = decode_step_times(twin, args.text, device, args.warmup, args.repeats)
        report["recording_overhead"] = recording_overhead(twin, args.text, folder, args.rounds)
        report["bool_mask"] = bool_mask(
            bundle, args.text, device, folder
        )  # last: a refused capture may spoil the context
    bm = report["bool_mask"]
    report["passed"] = bool(
        report["eager_vs_graph"]["codes_identical"]
        and report["stale_feedback"]["localised_exactly"]
        and report["stale_feedback"]["steps_before_bit_identical"]
        and (bm["capture_refused"] if bm["expected_refusal"] else bm["exit_code"] == 0)
    )
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    return 0 if report["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
