"""Writes the traces that docs/real-models-qwen3-tts.md compares, for the tiny Qwen3-TTS:

    cd python && HF_HUB_OFFLINE=1 ../.venv/bin/python -m tts_parity.examples.qwen_tts_profiles OUT [--compile]

OUT/eager.jsonl, static.jsonl, manual.jsonl and one trace per seed-004 bug (position-off-by-one.jsonl, ...), each
with its .wav and .modules.safetensors; sampled-eager.jsonl and sampled-static.jsonl with their .wav only;
"hello", 8 talker steps; with
--compile also compile.jsonl (static caches, `torch.compile` of the talker's and the code predictor's decoder
stacks, CPU inductor). Prints the wall time of each generate(). Then `npx parity compare-trace OUT/eager.jsonl
OUT/static.jsonl --wav-a ... --wav-b ...`. An example, never imported by `tts_parity`."""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch

from tts_parity.examples.qwen_tts_code_predictor import BUGS, manual_code_predictor
from tts_parity.examples.qwen_tts_tiny import build_tiny_qwen3_tts, build_tiny_vocoder
from tts_parity.examples.qwen_tts_trace import CODE_PREDICTOR_MODULES, static_cache, trace_generate

TEXT, STEPS = "hello", 8


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--compile", action="store_true", help="also the torch.compile profile (minutes on CPU)")
    args = parser.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    torch.set_num_threads(1)
    model, vocoder = build_tiny_qwen3_tts(0), build_tiny_vocoder(0)

    def run(name, **kwargs):
        start = time.perf_counter()
        codes = trace_generate(
            model,
            TEXT,
            os.path.join(args.out, f"{name}.jsonl"),
            profile=name,
            max_new_tokens=STEPS,
            vocoder=vocoder,
            **kwargs,
        )
        print(f"{name}: {codes.shape[0]} frames, generate() + trace {time.perf_counter() - start:.2f} s", flush=True)

    run("eager", modules=CODE_PREDICTOR_MODULES)
    run("sampled-eager", do_sample=True, seed=7)
    with manual_code_predictor(model):
        run("manual", modules=CODE_PREDICTOR_MODULES)
    for bug in BUGS:
        with manual_code_predictor(model, bug):
            run(bug, modules=CODE_PREDICTOR_MODULES)
    with static_cache(model):
        run("static", modules=CODE_PREDICTOR_MODULES)
        run("sampled-static", do_sample=True, seed=7)
        if args.compile:
            talker, cp = model.talker.model, model.talker.code_predictor.model
            talker.forward = torch.compile(talker.forward, dynamic=False)
            cp.forward = torch.compile(cp.forward, dynamic=False)
            run("compile-first")  # includes compiling
            run("compile")


if __name__ == "__main__":
    main()
