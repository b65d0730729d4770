"""What recording costs inside vLLM-Omni's worker: the tiny Qwen3-TTS pipeline on CPU (python/tests/vllm_omni/),
recording off and on side by side in one run, for statistics only and for statistics + module sidecar.

    .venv-vllm/bin/python python/benchmarks/vllm_recording_cost.py MODEL_DIR [--rounds N] [--steps S] [--out F]

MODEL_DIR is a folder from python/tests/vllm_omni/tiny_model.py. Two child processes, one `Omni` start each, both
recording with TTS_PARITY_VLLM_REQUESTS="*_on-*" (one with TTS_PARITY_VLLM_MODULES as well); both are up before any
timing. Then N rounds: in each, every child runs the same batch of 4 requests (max_tokens S) twice, once under
names the selection leaves out ("off": the recorder is installed and its hooks fire, recording nothing; an upper
bound of a process without the recorder, where the plugin returns before importing anything) and once under names
it records ("on"), the order alternating from round to round, so load drift on a shared machine falls on both alike.

What is timed is the talker stage's runner step inside its worker (the test fixture's step clock,
tts_parity_vllm_cpu/step_timer.py: execute_model start to sample_tokens end, where the recorder's hooks run),
over the decode steps of the batch (4 decode rows: each step runs the code predictor for the previous frame
and the talker for the next code 0). The Code2Wav stage, IPC and the engine's fixed costs are outside that clock.
Per round, a run's figure is its median decode step; a mode's overhead is on's median over off's median in the
same child and round, and the reported overhead is the median over rounds. The step clock also sums the time spent
inside the recorder's own per-step code (recorderMs, step_timer.py): recorderShareOfOffStep is the "on" run's median
of it over the "off" run's median step, a reading of the cost that needs no difference of two noisy medians.
Prints one JSON object (also to --out).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parents[1] / "tests" / "vllm_omni"))

MODES = {"stats": "", "stats+modules": "model.layers.*,model.norm,code_predictor.model.layers.*"}
RECORDED = "*_on-*"
MARK = "@vllm_recording_cost "  # the protocol's lines; anything else a child's processes print there is skipped
BATCH_ROWS = 4


def child(mode: str, model: Path, folder: Path, steps: int) -> None:
    """One mode's Omni, driven over stdin/stdout: 'round N' runs the batch, answers one JSON line."""
    from vllm import SamplingParams

    from omni_harness import TEXTS, OmniSession, deploy_config

    modules = MODES[mode]
    step_log = folder / "steps.jsonl"
    # The protocol owns the original stdout; everything else (vLLM logs to stdout, the stage processes inherit
    # fd 1) goes to stderr.
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    session = OmniSession(
        model,
        deploy_config(folder / "deploy.yaml"),
        folder / "traces",
        modules=modules,
        extra_env={"TTS_PARITY_TEST_STEP_LOG": str(step_log), "TTS_PARITY_VLLM_REQUESTS": RECORDED},
        init_timeout=3600,  # two starts at once on a shared 2-core machine
    )
    try:
        print(MARK + json.dumps({"ready": True, "startSeconds": session.start_seconds}), file=out, flush=True)
        for line in sys.stdin:
            which, round_ = line.split()[1], int(line.split()[2])
            params = SamplingParams(temperature=0.0, max_tokens=steps, min_tokens=steps, detokenize=False)
            prompts = [
                (f"{which}-{round_}-{k}", session.prompt(t, cache_salt=f"{which}{round_}{k}")) for k, t in TEXTS.items()
            ]
            session._names = iter(name for name, _ in prompts)
            step_log.write_text("")
            started = time.perf_counter()
            list(session.omni.generate([p for _, p in prompts], [params, _code2wav_params()], use_tqdm=False))
            wall = time.perf_counter() - started
            entries = [json.loads(x) for x in step_log.read_text().splitlines() if x.strip()]
            decode = [e for e in entries if e["decodeRows"] == BATCH_ROWS and e["tokens"] == BATCH_ROWS]
            answer = {
                "decodeStepsMs": [e["ms"] for e in decode],
                "recorderMs": [e["recorderMs"] for e in decode],
                "batchSeconds": wall,
            }
            print(MARK + json.dumps(answer), file=out, flush=True)
    finally:
        session.close()


def _code2wav_params():
    from vllm import SamplingParams

    return SamplingParams(temperature=0.0, max_tokens=65536)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", type=Path)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--steps", type=int, default=24, help="max_tokens (= min_tokens) of every request")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--modes", default=",".join(MODES), help="comma-separated, of: " + ", ".join(MODES))
    parser.add_argument("--child", choices=list(MODES), help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.model, args.folder, args.steps)
        return

    with tempfile.TemporaryDirectory() as tmp:
        children = {}
        modes = [m for m in args.modes.split(",") if m]
        if not modes or any(m not in MODES for m in modes):
            sys.exit(f"vllm_recording_cost: --modes: choose from {', '.join(MODES)} (got {args.modes!r})")
        for mode in modes:
            folder = Path(tmp) / mode.replace("+", "-")
            folder.mkdir()
            children[mode] = subprocess.Popen(
                [sys.executable, str(HERE), str(args.model), "--child", mode, "--folder", str(folder),
                 "--steps", str(args.steps)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env={**os.environ},
            )  # fmt: skip
        try:
            starts = {mode: json.loads(_answer(proc, mode))["startSeconds"] for mode, proc in children.items()}
            rounds = []
            for r in range(args.rounds):
                load_before = os.getloadavg()[0]
                order = ["off", "on"] if r % 2 == 0 else ["on", "off"]
                entry: dict = {"order": order, "modes": {}}
                for mode, proc in children.items():
                    entry["modes"][mode] = {}
                    for which in order:
                        proc.stdin.write(f"run {which} {r}\n")
                        proc.stdin.flush()
                        answer = json.loads(_answer(proc, mode))
                        entry["modes"][mode][which] = {
                            "medianDecodeStepMs": round(statistics.median(answer["decodeStepsMs"]), 3),
                            "medianRecorderMs": round(statistics.median(answer["recorderMs"]), 3),
                            "decodeSteps": len(answer["decodeStepsMs"]),
                            "batchSeconds": round(answer["batchSeconds"], 3),
                        }
                entry["loadAverage1m"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]
                rounds.append(entry)
        finally:
            for proc in children.values():
                proc.stdin.close()
            for proc in children.values():
                try:
                    proc.wait(timeout=600)
                except subprocess.TimeoutExpired:
                    proc.kill()

    result: dict = {
        "what": "talker-stage runner step (execute_model..sample_tokens), 4-request decode batch, tiny Qwen3-TTS, CPU",
        "steps": args.steps,
        "rounds": args.rounds,
        "batch": BATCH_ROWS,
        "cpus": os.cpu_count(),
        "omniStartSeconds": {m: round(s, 1) for m, s in starts.items()},
        "modes": {},
        "perRound": rounds,
    }
    for mode in modes:
        runs = [r["modes"][mode] for r in rounds]
        ratios = [run["on"]["medianDecodeStepMs"] / run["off"]["medianDecodeStepMs"] for run in runs]
        result["modes"][mode] = {
            "offMedianDecodeStepMs": round(statistics.median(run["off"]["medianDecodeStepMs"] for run in runs), 3),
            "onMedianDecodeStepMs": round(statistics.median(run["on"]["medianDecodeStepMs"] for run in runs), 3),
            "overhead": round(statistics.median(ratios) - 1.0, 4),
            "overheadRange": [round(min(ratios) - 1.0, 4), round(max(ratios) - 1.0, 4)],
            "onMedianRecorderMs": round(statistics.median(run["on"]["medianRecorderMs"] for run in runs), 3),
            "offMedianRecorderMs": round(statistics.median(run["off"]["medianRecorderMs"] for run in runs), 3),
            "recorderShareOfOffStep": round(
                statistics.median(run["on"]["medianRecorderMs"] / run["off"]["medianDecodeStepMs"] for run in runs), 4
            ),
        }
    text = json.dumps(result, indent=2)
    if args.out:
        args.out.write_text(text + "\n")
    print(text)


def _answer(proc: subprocess.Popen, mode: str) -> str:
    while True:
        line = proc.stdout.readline()
        if not line:
            sys.exit(f"vllm_recording_cost: the {mode} child ended without answering (exit {proc.wait()}); see stderr")
        if line.startswith(MARK):
            return line[len(MARK) :]


if __name__ == "__main__":
    main()
