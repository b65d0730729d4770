"""Recording overhead of StepRecorder per decode step on this machine's CPU (docs/python.md).

    /usr/bin/python3 python/benchmarks/step_recorder_overhead.py [--steps 100] [--repeats 3]

The decode step is tests/tiny_decoder.py's at Qwen3-TTS's row sizes (talker vocab 3072, code-predictor
vocab 2048, q = 16) with a small width (--dim, default 512), so the step itself is cheap and the ratio
is an upper bound: a real talker step costs far more while the recording cost stays the same. Prints
the unrecorded step time, the eager (record) and graph-safe (capture + flush_step) per-step overheads,
and their ratios; each is the fastest of --repeats runs (the machine is shared).
"""

import argparse
import os
import sys
import tempfile
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, ".."), os.path.join(HERE, "..", "tests")]

from tiny_decoder import TinyDecoder  # noqa: E402
from tts_parity import StepRecorder, TraceWriter  # noqa: E402


def run(model, steps, mode, folder):
    feedback, state = model.initial_state()
    recorder = None
    if mode != "none":
        writer = TraceWriter(os.path.join(folder, f"{mode}.jsonl"), engine="bench", q=model.q, frame_rate=12.5, sample_rate=24000)
        recorder = StepRecorder(writer, graph_safe=mode == "graph-safe")
    start = time.perf_counter()
    for _ in range(steps):
        logits, codes, rows, hidden = model.step(feedback, state)
        if mode == "eager":
            recorder.record(logits, codes, code_predictor_logits=rows, hidden=hidden)
        elif mode == "graph-safe":
            recorder.capture(talker_logits=logits, codes=codes, code_predictor_logits=rows, hidden=hidden)
            recorder.flush_step()
    elapsed = time.perf_counter() - start
    if recorder:
        recorder.writer.close()
    return elapsed / steps


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--dim", type=int, default=512)
    args = parser.parse_args()
    torch.set_num_threads(1)
    model = TinyDecoder(vocab=3072, cp_vocab=2048, q=16, dim=args.dim)
    best = {}
    with tempfile.TemporaryDirectory() as folder:
        run(model, 10, "graph-safe", folder)  # warm-up
        for _ in range(args.repeats):
            for mode in ("none", "eager", "graph-safe"):
                best[mode] = min(best.get(mode, float("inf")), run(model, args.steps, mode, folder))
    base = best["none"]
    print(f"torch {torch.__version__}, 1 thread, vocab 3072, code-predictor vocab 2048, q 16, dim {args.dim}, {args.steps} steps, best of {args.repeats}")
    print(f"unrecorded step: {base * 1e3:.3f} ms")
    for mode in ("eager", "graph-safe"):
        extra = best[mode] - base
        print(f"{mode:>10}: +{extra * 1e3:.3f} ms per step ({extra / base:.1%} of the unrecorded step)")


if __name__ == "__main__":
    main()
