"""Recording overhead of StepRecorder per decode step on this machine's CPU (docs/python.md).

    /usr/bin/python3 python/benchmarks/step_recorder_overhead.py [--steps 100] [--dim 512]

The decode step is tests/tiny_decoder.py's at Qwen3-TTS's row sizes (talker vocab 3072, code-predictor
vocab 2048, q = 16) with a small width (--dim), so the step itself is cheap and the ratio is an upper
bound: a real talker step costs far more while the recording cost stays the same. In one loop per mode,
each step's decode and its recording are timed apart in CPU time of this process (time.process_time_ns,
one torch thread), so other processes on a shared machine do not count; medians are printed. The
TraceWriter's close() (the JSON Schema check of every line, after the loop) is printed per step apart.
"""

import argparse
import os
import statistics
import sys
import tempfile
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, ".."), os.path.join(HERE, "..", "tests")]

from tts_parity import StepRecorder, TraceWriter  # noqa: E402

from tiny_decoder import TinyDecoder  # noqa: E402

clock = time.process_time_ns


def run(model, steps, replay, folder):
    """Per-step CPU times (decode, recording) in ms, and close()'s time per step. replay=False: eager, log() inside
    step(n) copies to the host. replay=True: the replay path on CPU, log() inside graph_capture() copies into the
    static buffers (what the captured copies do at a replay) and step(n) reads them."""
    feedback, state = model.initial_state()
    writer = TraceWriter(
        os.path.join(folder, f"{replay}.jsonl"),
        engine="bench",
        q=model.q,
        frame_rate=12.5,
        sample_rate=24000,
        force=True,
    )
    recorder = StepRecorder(writer)
    recorder._graph_fed = replay  # CPU has no capture: read the buffers at each step as after a replay (benchmark only)
    decode, record = [], []
    for n in range(1, steps + 1):
        t0 = clock()
        logits, codes, rows, hidden = model.step(feedback, state)
        t1 = clock()
        if replay:
            with recorder.graph_capture():
                recorder.log(talker_logits=logits, codes=codes, code_predictor_logits=rows, hidden=hidden)
            with recorder.step(n):
                pass
        else:
            with recorder.step(n):
                recorder.log(logits, codes, code_predictor_logits=rows, hidden=hidden)
        t2 = clock()
        decode.append((t1 - t0) / 1e6)
        record.append((t2 - t1) / 1e6)
    t3 = clock()
    writer.close()
    return decode, record, (clock() - t3) / 1e6 / steps


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--dim", type=int, default=512)
    args = parser.parse_args()
    torch.set_num_threads(1)
    model = TinyDecoder(vocab=3072, cp_vocab=2048, q=16, dim=args.dim)
    print(
        f"torch {torch.__version__}, 1 thread, vocab 3072, code-predictor vocab 2048, q 16, dim {args.dim}, "
        f"{args.steps} steps, CPU-time medians"
    )
    with tempfile.TemporaryDirectory() as folder:
        run(model, 5, True, folder)  # warm-up
        for replay in (False, True):
            decode, record, close = run(model, args.steps, replay, folder)
            step, extra = statistics.median(decode), statistics.median(record)
            mode = "replay (graph_capture copies + step read)" if replay else "eager (log in step)"
            print(
                f"{mode}: decode step {step:.3f} ms, recording {extra:.3f} ms ({extra / step:.1%} of the step); "
                f"close() {close:.3f} ms per step"
            )


if __name__ == "__main__":
    main()
