"""Seeded sampling in the twin (profile eager): the engine's Philox stream reproduced bit for bit, and the
twin's sampled codes equal `parity synth --sampling sample` with the same seed and settings."""

import json
import subprocess

import pytest

from tts_parity.demo.philox import uniform

from demo_twin_support import read_trace, run_twin
from parity_cli import DIST, ROOT, ensure_dist, run_parity

COUNTERS = [(0, 1, 0, 0), (7, 5, 3, 0), (2**40 + 12345, 115, 7, 2), (2**32 - 1, 2, 1, 0), (2**53 - 1, 9, 4, 1)]


def test_uniform_equals_the_engine_s_bit_for_bit():
    ensure_dist()
    script = (
        f"import('{(DIST / 'common/sampling/uniform.js').as_posix()}').then((m) => "
        f"console.log(JSON.stringify({json.dumps(COUNTERS)}.map((c) => m.uniform(...c)))))"
    )
    done = subprocess.run(["node", "-e", script], cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == [uniform(*c) for c in COUNTERS]


SETTINGS = [
    ["--seed", "7", "--temperature", "0.8", "--top-k", "20", "--top-p", "0.9", "--repetition-penalty", "1.1"],
    ["--seed", "4294967295", "--temperature", "1.3"],
]


@pytest.mark.parametrize("settings", SETTINGS, ids=["all-filters", "temperature-only"])
def test_sampled_codes_equal_the_engine(tmp_path, capsys, settings, demo_bundle):
    text = "The quick brown fox jumps over the lazy dog."
    engine = run_parity(
        "synth",
        "--bundle",
        demo_bundle,
        "--text",
        text,
        "--sampling",
        "sample",
        *settings,
        "--trace",
        tmp_path / "e.jsonl",
        "--out",
        tmp_path / "e.wav",
    )
    assert engine.returncode == 0, engine.stderr
    status, _, err = run_twin(capsys, "--text", text, "--sampling", "sample", *settings, "--out", tmp_path / "twin")
    assert status == 0, err
    codes = lambda path: [s["codes"] for s in read_trace(path)[1]]  # noqa: E731
    assert codes(tmp_path / "twin" / "trace.jsonl") == codes(tmp_path / "e.jsonl")


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["--sampling", "sample", "--profile", "graph"],
            "--sampling sample: profile graph chooses codes on the device inside the captured step (greedy only); use "
            "--profile eager",
        ),
        (["--sampling", "nucleus"], '--sampling "nucleus": expected greedy or sample'),
        (["--temperature", "0"], '--temperature "0": expected a number in (0, 10]'),
        (["--top-p", "1.5"], '--top-p "1.5": expected a number in (0, 1]'),
        (["--top-k", "-3"], '--top-k "-3": expected an integer >= 0'),
        (["--repetition-penalty", "x"], '--repetition-penalty "x": expected a number in (0, 10]'),
    ],
)
def test_bad_sampling_settings_are_one_line_and_exit_2(tmp_path, capsys, args, message):
    status, _, err = run_twin(capsys, "--text", "hi", "--out", tmp_path / "o", *args)
    assert status == 2 and err == f"tts_parity.demo: {message}\n"
