"""The bounded line reader (tts_parity/_lines.py) and the bounded statistics (logit_stats), issue 38: a long line
is refused at the limit without being held, measured in a child process; the statistics of a long row are
computed a piece at a time with numpy's own values to the bit."""

import json
import math
import subprocess
import sys

import numpy as np
import pytest

from tts_parity._lines import bounded_lines, read_json_lines
from tts_parity.errors import ParityValueError
from tts_parity.trace_schema import MAX_LINE

logit_stats_module = sys.modules["tts_parity.logit_stats"]


@pytest.mark.parametrize(
    "text",
    ["", "a", "a\n", "a\nb", "\n\n", "a\r\nb\n", "é✓\n" * 3, "x" * 10 + "\n" + "y"],
)
def test_lines_are_those_of_str_split_whatever_the_chunk(tmp_path, monkeypatch, text):
    path = tmp_path / "t.txt"
    path.write_bytes(text.encode("utf-8"))
    expected = text.split("\n")
    if expected and expected[-1] == "":
        expected.pop()
    for chunk in (1, 2, 3, 1 << 20):
        monkeypatch.setattr("tts_parity._lines.CHUNK", chunk)
        assert list(bounded_lines(path, limit=100)) == expected


def test_a_line_past_the_limit_is_refused_naming_file_and_line_and_one_at_it_is_read(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text("{}\n" + "a" * 10 + "\n", encoding="utf-8")
    assert list(bounded_lines(path, limit=10)) == ["{}", "a" * 10]
    with pytest.raises(ParityValueError, match=r"t\.jsonl:2: line is longer than 9 characters"):
        list(bounded_lines(path, limit=9))
    (tmp_path / "bad.jsonl").write_text('{}\n{"a":\n', encoding="utf-8")
    with pytest.raises(ParityValueError, match=r"bad\.jsonl:2: not valid JSON"):
        list(read_json_lines(tmp_path / "bad.jsonl"))


def test_a_200_mb_line_is_refused_within_100_mb_of_rss_in_a_child_process(tmp_path):
    path = tmp_path / "long.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        f.write('{"schema":"tts-parity-trace/1"}\n{"step":1,"x":"')
        block = "a" * (1 << 20)
        for _ in range(200):
            f.write(block)
        f.write('"}\n')
    code = (
        "import resource, sys\n"
        "from tts_parity._lines import read_json_lines\n"
        "from tts_parity.errors import ParityValueError\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "try:\n    list(read_json_lines(sys.argv[1]))\nexcept ParityValueError as e:\n    print(e)\n"
        "print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024)\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True).stdout
    message, growth = out.splitlines()
    assert (
        message
        == f"{path}:2: line is longer than {MAX_LINE} characters (the limit of a trace line; docs/trace-format.md)"
    )
    assert float(growth) < 100


def test_logit_stats_of_a_long_row_in_pieces_equal_the_whole_row_to_the_bit(monkeypatch):
    """Regression against numpy's own whole-row results (the pre-issue-38 code computed exactly these: one
    float64 sum, one squared-deviation sum, min/max/partition over the whole row), rows forced into pieces."""
    rng = np.random.default_rng(38)

    def whole(row):
        x = row.astype(np.float64)
        with np.errstate(invalid="ignore", over="ignore"):
            mean = float(x.sum() / x.size)
            std = math.sqrt(float(np.square(x - mean).sum()) / x.size)
        return mean, std, float(np.nanmin(x)), float(np.nanmax(x))

    for piece in (64, 1000):
        monkeypatch.setattr(logit_stats_module, "PIECE", piece)
        for trial in range(60):
            row = (rng.standard_normal(int(rng.integers(1, 9000))) * 10).astype([np.float32, np.float64][trial % 2])
            s = logit_stats_module.logit_stats(row)
            mean, std, low, high = whole(row)
            assert (s["mean"], s["std"], s["min"], s["max"]) == (mean, std, low, high)
            order = np.lexsort((np.arange(row.size), -row.astype(np.float64)))[:5]
            assert [t["id"] for t in s["top5"]] == order.tolist() and s["argmax"] == int(order[0])
        nan_row = rng.standard_normal(5000)
        nan_row[[17, 3000]] = np.nan
        s = logit_stats_module.logit_stats(nan_row)
        assert s["argmax"] == 17 and math.isnan(s["mean"])
        assert s["min"] == float(np.nanmin(nan_row)) and s["max"] == float(np.nanmax(nan_row))
        assert logit_stats_module.count_non_finite(nan_row) == (2, 0)


def test_logit_stats_of_a_long_float64_row_need_little_beyond_the_row_in_a_child_process():
    code = (
        "import resource, numpy as np\n"
        "from tts_parity.logit_stats import logit_stats\n"
        "row = np.random.default_rng(0).standard_normal(20_000_000)\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "logit_stats(row)\n"
        "print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024)\n"
    )
    growth = float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    # The row is 152.6 MiB; the whole-row code needed 4-7x it more. A few 8 MB pieces are the bound here.
    assert growth < 64, json.dumps({"rowMiB": 152.6, "growthMiB": growth})
