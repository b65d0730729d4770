"""tts_parity.engines.vllm.batch_stats (the recorder's one-pass statistics of a runner step's rows) against
tts_parity.logit_stats, the definition every trace writer shares: bf16-rounded rows (many exact ties), +-Inf,
NaN rows, a row of one repeated value."""

from __future__ import annotations

import math

import torch

from tts_parity.engines.vllm.batch_stats import batch_logit_stats
from tts_parity.logit_stats import logit_stats
from tts_parity.trace_schema import json_stats


def assert_same_stats(batch: dict, row: dict) -> None:
    """Equal but for the mean and std, which are float64 sums in another order (batch_stats.py): 1e-14 relative."""
    for key in ("mean", "std"):
        assert math.isclose(batch[key], row[key], rel_tol=1e-14), (key, batch[key], row[key])
    assert {**batch, "mean": 0, "std": 0} == {**row, "mean": 0, "std": 0}


def test_every_row_matches_logit_stats_ties_infinities_and_nans_included():
    torch.manual_seed(0)
    rows = (torch.randn(6, 2048) * 3).to(torch.bfloat16).float()  # bf16 rounding: ties among the top values
    rows[1, 7] = float("inf")
    rows[2, 9] = float("-inf")
    rows[3, 100] = float("nan")
    rows[4] = 0.25
    rows[5, :3] = rows[5].max() + 1  # a three-way tie at the top: ids 0, 1, 2 in that order
    for row, (stats, nan, inf) in zip(rows, batch_logit_stats(rows)):
        assert stats == json_stats(logit_stats(row))
        assert (nan, inf) == (int(torch.isnan(row).sum()), int(torch.isinf(row).sum()))
    top = batch_logit_stats(rows[5:])[0][0]["top5"]
    assert [t["id"] for t in top[:3]] == [0, 1, 2]


def test_bfloat16_input_is_read_as_its_values():
    row = torch.tensor([[1.0, 3.0, 2.0, 3.0]], dtype=torch.bfloat16)
    stats = batch_logit_stats(row)[0][0]
    assert stats["argmax"] == 1 and [t["id"] for t in stats["top5"]] == [1, 3, 2, 0]
    assert stats["mean"] == 2.25 and stats["max"] == 3.0 and stats["min"] == 1.0


def test_a_tie_at_the_fifth_value_keeps_the_lowest_id_and_untied_rows_beside_it_stay_exact():
    torch.manual_seed(1)
    rows = torch.randn(8, 3072)  # float32 draws: no ties, the top-k path
    rows[2, :] = -5.0
    rows[2, [40, 30, 20, 10]] = torch.tensor([9.0, 8.0, 7.0, 6.0])
    rows[2, [900, 5, 700]] = 2.0  # the fifth value held by three ids: 5 is the one kept
    rows[5, [11, 3]] = rows[5].max() + 1  # a tie at the top: 3 before 11
    results = batch_logit_stats(rows)
    for row, (stats, _, _) in zip(rows, results):
        assert_same_stats(stats, json_stats(logit_stats(row)))
    assert [t["id"] for t in results[2][0]["top5"]] == [40, 30, 20, 10, 5]
    assert [t["id"] for t in results[5][0]["top5"][:2]] == [3, 11]
