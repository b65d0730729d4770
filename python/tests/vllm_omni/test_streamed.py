"""Whole vs streamed Code2Wav (`async_chunk: true`; one more Omni start, conftest.streamed_runs): the talker's steps
are the same and Qwen3-TTS's Code2Wav keeps its decoder state per request, so the chunked audio equals the whole."""

from __future__ import annotations

import pytest

from compare import compare_trace
from omni_harness import TEXTS

pytestmark = pytest.mark.timeout(2400)


@pytest.mark.parametrize("key", list(TEXTS))
def test_streamed_code2wav_equals_the_whole(eager_runs, streamed_runs, key):
    name = f"alone-{key}"
    report = compare_trace(
        eager_runs.trace(name), streamed_runs.trace(name), wav_a=eager_runs.wav(name), wav_b=streamed_runs.wav(name)
    )
    assert report["verdict"] == "identical", report["summary"]
