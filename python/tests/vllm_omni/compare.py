"""`parity compare-trace` (the built CLI, node bin/parity.js) on two recorded requests, as the suite's tests call it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
BF16_NEAR_TIE_GAP = "0.7"  # docs/forensics.md: vLLM 55238's bf16 greedy flips; the talker runs in bfloat16


def compare_trace(
    a: Path,
    b: Path,
    *,
    wav_a: Path | None = None,
    wav_b: Path | None = None,
    modules: bool = False,
    extra: tuple[str, ...] = (),
) -> dict:
    args = [
        "node",
        str(REPO / "bin" / "parity.js"),
        "compare-trace",
        str(a),
        str(b),
        "--json",
        "--near-tie-gap",
        BF16_NEAR_TIE_GAP,
        *extra,
    ]
    if wav_a is not None and wav_b is not None:
        args += ["--wav-a", str(wav_a), "--wav-b", str(wav_b)]
    if not modules:
        args.append("--no-modules")
    done = subprocess.run(args, cwd=REPO, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise AssertionError(f"parity compare-trace {a.name} {b.name} exited {done.returncode}: {done.stderr.strip()}")
    return json.loads(done.stdout)
