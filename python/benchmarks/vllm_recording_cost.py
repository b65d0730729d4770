"""What recording costs inside vLLM-Omni's worker: the tiny Qwen3-TTS pipeline on CPU (python/tests/vllm_omni/), one
`Omni` start per mode (off, statistics only, statistics + module sidecar), each timing batches of requests.

    .venv-vllm/bin/python python/benchmarks/vllm_recording_cost.py MODEL_DIR [--repeats N] [--steps S] [--out F]

MODEL_DIR is a folder from python/tests/vllm_omni/tiny_model.py. Per decode step = (wall time of a batch with
max_tokens S) - (the same with max_tokens 2), over S - 2 steps: the prefill, Code2Wav and the engine's fixed costs
cancel, the talker's decode steps (code predictor included) and what the recorder adds to them stay. Prints one
JSON object: per mode the median ms per decode step and each repeat's, and the overhead against off.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "vllm_omni"))

from omni_harness import TEXTS, OmniSession, deploy_config

MODES = {"off": None, "stats": "", "stats+modules": "model.layers.*,model.norm,code_predictor.model.layers.*"}


def per_step_ms(session: OmniSession, steps: int, repeats: int, tag: str) -> list[float]:
    from vllm import SamplingParams

    def batch(max_tokens: int, round_: int) -> float:
        params = [
            SamplingParams(temperature=0.0, max_tokens=max_tokens, min_tokens=max_tokens, detokenize=False),
            SamplingParams(temperature=0.0, max_tokens=65536),
        ]
        prompts = [
            (f"{tag}-{max_tokens}-{round_}-{k}", session.prompt(t, cache_salt=f"{tag}{round_}{k}"))
            for k, t in TEXTS.items()
        ]
        session._names = iter(name for name, _ in prompts)
        started = time.perf_counter()
        list(session.omni.generate([p for _, p in prompts], params, use_tqdm=False))
        return time.perf_counter() - started

    batch(steps, -1)  # warm-up
    return [(batch(steps, r) - batch(2, r)) * 1000.0 / (steps - 2) for r in range(repeats)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("model", type=Path)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--steps", type=int, default=34)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    result: dict = {"steps": args.steps, "repeats": args.repeats, "batch": len(TEXTS), "modes": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for mode, modules in MODES.items():
            folder = Path(tmp) / mode
            folder.mkdir()
            deploy = deploy_config(folder / "deploy.yaml")
            session = OmniSession(
                args.model, deploy, folder / "traces", modules=modules or "", record=modules is not None
            )
            try:
                times = per_step_ms(session, args.steps, args.repeats, mode)
            finally:
                session.close()
            result["modes"][mode] = {"msPerDecodeStep": statistics.median(times), "repeats": times}
    off = result["modes"]["off"]["msPerDecodeStep"]
    for entry in result["modes"].values():
        entry["overhead"] = entry["msPerDecodeStep"] / off - 1.0
    text = json.dumps(result, indent=2)
    if args.out:
        args.out.write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
