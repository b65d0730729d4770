"""Module-recording overhead per decode step of the PyTorch twin: the median decode-step time of a synthesis
with a ModuleRecorder recording every step, over the same synthesis without one, per profile (eager: forward
hooks; graph: static-buffer copies flushed after each step — on CUDA the copies are captured in the graph and
the hooks run only at capture; on CPU no graph is captured and the hooks run on every call).

Runs are interleaved (plain, recorded, plain, …) so drift of a shared machine falls on both; the ratio is
taken per pair and its median and interquartile range are printed as JSON. On CPU a step's time is this
process's CPU time between the ends of consecutive steps (time.process_time: other processes on a shared
machine do not count), with torch on one thread; on CUDA it is the twin's own wall time per step. Writing
the sidecar at close is outside the steps and reported apart, per recorded step.

    /usr/bin/python3 python/benchmarks/module_recording_overhead.py [--device cpu|cuda] [--rounds 15]
"""

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tts_parity.demo.bundle import demo_bundle_dir
from tts_parity.demo.model import load_twin
from tts_parity.demo.synthesis import synthesize
from tts_parity.module_recorder import ModuleRecorder

TEXT = "The quick brown fox jumps over the lazy dog."  # 40 frames
# Every talker and code-predictor layer's attention and MLP, and the audio feedback.
MODULES = r"^(feedback|(talker|code_predictor)\.layers\.\d+\.(self_attn|mlp))$"


def step_median(twin, profile, sidecar=None, closes=None):
    """Median time in ms of decode steps 3.. (step 1 is the prefill, step 2 holds the capture on CUDA)."""
    ends = []
    on_step = lambda _out: ends.append(time.process_time())  # noqa: E731
    if sidecar is None:
        steps = synthesize(twin, TEXT, profile, on_step=on_step).steps
    else:
        recorder = ModuleRecorder(twin, sidecar, modules=MODULES)
        steps = synthesize(twin, TEXT, profile, recorder=recorder, on_step=on_step).steps
        start = time.process_time()
        recorder.close()
        closes.append((time.process_time() - start) * 1000 / len(steps))
    if twin.talker.lm_head.weight.device.type == "cuda":
        return statistics.median(s.step_ms for s in steps[2:])
    return statistics.median((b - a) * 1000 for a, b in zip(ends[1:], ends[2:]))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--device", choices=("cpu", "cuda"), help="default: cuda when available")
    p.add_argument("--rounds", type=int, default=15, help="plain/recorded pairs per profile")
    args = p.parse_args(argv)
    device = torch.device(args.device or ("cuda" if torch.cuda.is_available() else "cpu"))
    torch.set_num_threads(1)
    twin = load_twin(demo_bundle_dir(), device)
    report = {
        "device": torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu",
        "torch": torch.__version__,
        "threads": torch.get_num_threads(),
        "modules": MODULES,
        "text": TEXT,
    }
    with tempfile.TemporaryDirectory(prefix="recording-overhead-") as tmp:
        for profile in ("eager", "graph"):
            step_median(twin, profile)  # warm-up
            plain, recorded, closes = [], [], []
            for i in range(args.rounds):
                plain.append(step_median(twin, profile))
                recorded.append(step_median(twin, profile, Path(tmp) / f"{profile}-{i}.safetensors", closes))
            ratios = sorted(r / p - 1 for p, r in zip(plain, recorded))
            q1, _, q3 = statistics.quantiles(ratios, n=4)
            report[profile] = {
                "step_ms": round(statistics.median(plain), 4),
                "recorded_step_ms": round(statistics.median(recorded), 4),
                "overhead_ratio_median": round(statistics.median(ratios), 4),
                "overhead_ratio_iqr": [round(q1, 4), round(q3, 4)],
                "sidecar_write_ms_per_step": round(statistics.median(closes), 4),
                "captured_graph": device.type == "cuda" and profile == "graph",
            }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
