"""What the check costs: one decode step timed plain and under the probe (docs/capture-check.md#overhead).

    python3 python/benchmarks/capture_check_overhead.py [--bundle DIR] [--repeats N]

Times the twin's graph decode step (tts_parity.demo, on the demo bundle) and the small static-KV attention
step of tts_parity.examples.shape_varies, each the median of N runs, and prints one JSON object per step:
aten ops per step, ms plain, ms probed, the ratio, and µs added per op.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tts_parity.capture_check.dispatch_probe import StepProbe


def median_ms(run, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def measure(label, fn, args, repeats):
    with StepProbe() as probe:
        fn(*args)
    ops = len(probe.records)

    def probed():
        with StepProbe():
            fn(*args)

    plain_ms = median_ms(lambda: fn(*args), repeats)
    probed_ms = median_ms(probed, repeats)
    return {
        "step": label,
        "aten_ops": ops,
        "plain_ms": round(plain_ms, 3),
        "probed_ms": round(probed_ms, 3),
        "ratio": round(probed_ms / plain_ms, 1),
        "added_us_per_op": round((probed_ms - plain_ms) * 1e3 / max(ops, 1), 1),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python/benchmarks/capture_check_overhead.py", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--bundle", help="demo bundle folder (default: where `parity` keeps the built-in one)")
    parser.add_argument("--repeats", type=int, default=20)
    options = parser.parse_args(argv)

    from tts_parity.demo import Faults, demo_bundle_dir, load_twin
    from tts_parity.demo.static_step import StaticStep
    from tts_parity.demo.text import tokenize
    from tts_parity.examples import shape_varies

    twin = load_twin(options.bundle or demo_bundle_dir())
    step = StaticStep(twin, Faults())
    ids, _ = tokenize("hello world", twin.manifest)
    with torch.no_grad():
        step.prefill(ids)
        step.position.fill_(len(ids))
        print(json.dumps(measure("twin graph decode step (demo bundle)", step.decode, (), options.repeats)))
        args = shape_varies.safe_step_inputs()[0]
        print(json.dumps(measure("examples.shape_varies.safe_step", shape_varies.safe_step, args, options.repeats)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
