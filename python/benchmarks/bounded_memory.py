"""Memory of the bounded readers and statistics (issue 38), as JSON on stdout: each figure is the peak RSS
growth of a fresh child process over its own baseline, so nothing else in this process counts.

- logit_stats / hidden_stats of one float64 row of N entries (default 1e8, an 800 MB row): growth over the
  row itself;
- read_json_lines of a trace whose second line is L characters (default 200 MB): refused at the limit;
  growth over the process before reading.

Usage: python -m benchmarks.bounded_memory [--row N] [--line BYTES]   (from python/, the package importable)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

CHILD_STATS = """
import resource, sys, time, numpy as np
from tts_parity.logit_stats import logit_stats
row = np.random.default_rng(0).standard_normal(int(sys.argv[1]))
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.perf_counter()
logit_stats(row)
seconds = time.perf_counter() - t
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(before, after, seconds)
"""

CHILD_LINES = """
import resource, sys, time
from tts_parity._lines import read_json_lines
from tts_parity.errors import ParityValueError
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.perf_counter()
try:
    for _ in read_json_lines(sys.argv[1]):
        pass
    refused = ""
except ParityValueError as error:
    refused = str(error)
seconds = time.perf_counter() - t
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(before, after, seconds)
print(refused)
"""


def child(code: str, *args: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--row", type=float, default=1e8)
    parser.add_argument("--line", type=int, default=200 * 2**20)
    args = parser.parse_args()
    n = int(args.row)
    before, after, seconds = child(CHILD_STATS, str(n))[0].split()
    stats = {
        "rowEntries": n,
        "rowMiB": round(n * 8 / 2**20, 1),
        "peakGrowthMiB": round((int(after) - int(before)) / 1024, 1),
        "seconds": round(float(seconds), 2),
    }
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "long-line.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            f.write('{"schema":"tts-parity-trace/1","engine":"x","q":4,"frameRate":12.5,"sampleRate":24000}\n')
            f.write('{"step":1,"x":"')
            block = "a" * 2**20
            for _ in range(args.line // 2**20):
                f.write(block)
            f.write('"}\n')
        started = time.perf_counter()
        out = child(CHILD_LINES, path)
        before, after, seconds = out[0].split()
        lines = {
            "lineBytes": args.line,
            "peakGrowthMiB": round((int(after) - int(before)) / 1024, 1),
            "seconds": round(float(seconds), 3),
            "refused": out[1],
            "childSeconds": round(time.perf_counter() - started, 2),
        }
    print(json.dumps({"logitStatsFloat64Row": stats, "readJsonLinesLongLine": lines}, indent=2))


if __name__ == "__main__":
    main()
