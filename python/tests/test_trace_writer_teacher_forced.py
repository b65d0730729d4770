"""TraceWriter(teacher_forced=...): the header field compare-trace reads to report the drift (docs/forensics.md)."""

import json

import numpy as np
import pytest

from tts_parity import TraceWriter


def test_teacher_forced_goes_into_the_header(tmp_path):
    path = tmp_path / "b.jsonl"
    tw = TraceWriter(path, engine="test", q=2, frame_rate=12.5, sample_rate=24000, teacher_forced="A: eager run")
    tw.write_step(np.array([0.0, 1.0], dtype=np.float32), [1, 0])
    tw.close()
    with open(path, encoding="utf-8") as f:
        header = json.loads(f.readline())
    assert header["teacherForced"] == "A: eager run"


def test_an_empty_teacher_name_is_refused(tmp_path):
    with pytest.raises(ValueError, match="teacherForced"):
        TraceWriter(tmp_path / "b.jsonl", engine="test", q=2, frame_rate=12.5, sample_rate=24000, teacher_forced="")
