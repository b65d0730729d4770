"""logit_stats on the cases shared with the TypeScript and Rust tests (test/fixtures/logit-stats-cases.json; its
generator derives the expected values by exact arithmetic, so every summation order must give exactly these bits)."""

import json
import math
from pathlib import Path

import numpy as np
import pytest

from tts_parity.logit_stats import count_non_finite, logit_stats

CASES = json.loads(
    (Path(__file__).resolve().parents[2] / "test" / "fixtures" / "logit-stats-cases.json").read_text(encoding="utf-8")
)["cases"]


def number(x):
    return float(x) if not isinstance(x, str) else float(x.replace("Infinity", "inf"))


def same(a, b):
    return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))


def test_the_file_holds_the_cases_the_three_tests_share():
    assert len(CASES) >= 10


@pytest.mark.parametrize("case", CASES, ids=[c["name"][:40] for c in CASES])
def test_shared_case(case):
    row = np.array([number(x) for x in case["row"]], dtype=np.float32)
    s, e = logit_stats(row), case["expected"]
    assert same(s["mean"], number(e["mean"])), s["mean"]
    assert same(s["std"], math.sqrt(number(e["variance"]))), s["std"]
    assert same(s["min"], number(e["min"])) and same(s["max"], number(e["max"]))
    assert s["argmax"] == e["argmax"]
    assert [(t["id"], t["logit"]) for t in s["top5"]] == [(t["id"], number(t["logit"])) for t in e["top5"]]
    assert count_non_finite(row) == (e["nan"], e["inf"])
