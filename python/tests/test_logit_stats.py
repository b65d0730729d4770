"""logit_stats against hand-computed values (the rules of electron/common/trace/logit-stats.ts)."""

import math

import numpy as np
import pytest
import torch

from tts_parity.logit_stats import count_non_finite, hidden_stats, logit_stats


def test_mean_population_std_min_max_argmax_top5_by_hand():
    # [1, 2, 3, 4]: mean 2.5; deviations ±0.5, ±1.5 -> variance (0.25 + 2.25)·2/4 = 1.25 -> std √1.25
    # (the sample std, N−1, would be √(5/3) = 1.29: refused by the exact comparison below).
    s = logit_stats(np.array([1, 2, 3, 4], dtype=np.float32))
    assert s["mean"] == 2.5
    assert s["std"] == pytest.approx(math.sqrt(1.25), abs=1e-15)
    assert (s["min"], s["max"], s["argmax"]) == (1.0, 4.0, 3)
    assert s["top5"] == [
        {"id": 3, "logit": 4.0},
        {"id": 2, "logit": 3.0},
        {"id": 1, "logit": 2.0},
        {"id": 0, "logit": 1.0},
    ]


def test_ties_lowest_id_first_in_argmax_and_top5_also_across_the_fifth_place():
    # 9 at ids 4, 7; 7 at 9; then 5 at 1, 3 and 12 (a three-way tie for places 4–6: ids 1 and 3 win).
    row = np.array([0, 5, 1, 5, 9, -3, 2, 9, 2, 7, 0.5, -0.0, 5], dtype=np.float32)
    s = logit_stats(row)
    assert s["argmax"] == 4
    assert [(t["id"], t["logit"]) for t in s["top5"]] == [(4, 9.0), (7, 9.0), (9, 7.0), (1, 5.0), (3, 5.0)]


def test_nan_row_mean_std_nan_min_max_top5_skip_it_argmax_is_the_first_nan():
    row = np.array([1.0, np.nan, 3.0, np.nan, -2.0], dtype=np.float32)
    s = logit_stats(row)
    assert math.isnan(s["mean"]) and math.isnan(s["std"])
    assert (s["min"], s["max"], s["argmax"]) == (-2.0, 3.0, 1)
    assert [t["id"] for t in s["top5"]] == [2, 0, 4]


def test_all_nan_and_empty_rows():
    s = logit_stats(np.full(3, np.nan, dtype=np.float32))
    assert math.isnan(s["min"]) and math.isnan(s["max"]) and s["argmax"] == 0 and s["top5"] == []
    e = logit_stats(np.zeros(0, dtype=np.float32))
    assert e["argmax"] == -1 and e["top5"] == [] and math.isnan(e["mean"])


def test_infinities_propagate_by_ieee_arithmetic():
    # One +Inf: mean +Inf; Inf − Inf = NaN in the deviations, so std NaN. min/max/top5 keep ±Inf.
    s = logit_stats(np.array([0.0, np.inf, 1.0, -np.inf, 2.0], dtype=np.float32))
    assert math.isnan(s["mean"])  # +Inf + −Inf = NaN
    t = logit_stats(np.array([0.0, np.inf, 1.0], dtype=np.float32))
    assert t["mean"] == math.inf and math.isnan(t["std"])
    assert (t["min"], t["max"], t["argmax"]) == (0.0, math.inf, 1)
    assert [x["logit"] for x in s["top5"]] == [math.inf, 2.0, 1.0, 0.0, -math.inf]


def test_float32_values_are_reported_exactly_and_the_mean_is_in_float64():
    # 0.1 in float32 is 0.100000001490116…; three of them average to the same float64 value, not to 0.1.
    s = logit_stats(np.full(3, 0.1, dtype=np.float32))
    assert s["top5"][0]["logit"] == float(np.float32(0.1)) != 0.1
    assert s["mean"] == pytest.approx(float(np.float32(0.1)), abs=1e-17)
    # 2^24 + 1 is not a float32 but is a float64: a float32 accumulator would lose the 1.
    big = logit_stats(np.array([2.0**24, 1.0, 1.0, 0.0], dtype=np.float64))
    assert big["mean"] == (2.0**24 + 2.0) / 4


def test_torch_tensors_bfloat16_and_a_batch_of_one_row_are_taken():
    s = logit_stats(torch.tensor([[[1.0, 3.0, 2.0]]], dtype=torch.bfloat16))
    assert s["argmax"] == 1 and s["max"] == 3.0
    with pytest.raises(
        ValueError,
        match=r"^logit_stats: logits: expected one row \(1-D, or \[1, \.\.\., 1, V\]\), found shape \[2, 3\]$",
    ):
        logit_stats(np.zeros((2, 3)))


def test_counts_and_hidden_stats():
    values = torch.tensor([[1.0, float("nan")], [float("inf"), -float("inf")]])
    assert count_non_finite(values) == (1, 2)
    assert count_non_finite(np.arange(3)) == (0, 0)
    h = hidden_stats(torch.tensor([[1.0, 3.0], [5.0, 7.0]]))
    # mean 4, deviations ±1, ±3 -> variance (1 + 9)·2/4 = 5
    assert h == {"mean": 4.0, "std": pytest.approx(math.sqrt(5)), "min": 1.0, "max": 7.0, "nan": 0, "inf": 0}
