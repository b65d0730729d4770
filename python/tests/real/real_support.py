"""Helpers of the real-model tests: read a trace, run `parity compare-trace` and read its report.json."""

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # python/tests: parity_cli
from parity_cli import run_parity


def read_trace(path):
    with open(path, encoding="utf-8") as f:
        lines = [json.loads(line) for line in f if line.strip()]
    return lines[0], lines[1:]


def compare_trace(a, b, out, *extra):
    """Runs `parity compare-trace A B --out OUT [extra…]` and returns (report.json, stdout)."""
    done = run_parity("compare-trace", a, b, "--out", out, *extra)
    if done.returncode not in (0, 1):
        raise AssertionError(f"parity compare-trace failed ({done.returncode}): {done.stderr.strip()}")
    with open(os.path.join(out, "report.json"), encoding="utf-8") as f:
        return json.load(f), done.stdout


def wav_of(trace_path):
    return os.path.splitext(trace_path)[0] + ".wav"
