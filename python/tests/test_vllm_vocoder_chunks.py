"""tts_parity.engines.vllm.vocoder_chunks without vLLM: the Code2Wav stage's chunks reach the talker's trace header
(`vocoderChunks`) whichever process finishes first, nothing is left waiting, and a list the format refuses is
refused with the field named."""

from __future__ import annotations

import json
import multiprocessing
import time

import pytest

from tts_parity import TraceWriter
from tts_parity.engines.vllm.vocoder_chunks import note_vocoder_chunks
from tts_parity.errors import ParityValueError

CHUNKS = [
    {"startSample": 0, "samples": 2880, "leftContextFrames": 0},
    {"startSample": 2880, "samples": 9600, "leftContextFrames": 4},
]


def write_trace(path) -> None:
    with TraceWriter(str(path), engine="test", q=2, frame_rate=25.0, sample_rate=24000) as writer:
        writer.write_step([0.5, 0.25], [1, 0])
        writer.write_step([0.25, 0.5], [0, 1])


def header(path) -> dict:
    return json.loads(path.read_text().splitlines()[0])


def test_chunks_before_the_trace_wait_and_join_its_header_when_it_is_committed(tmp_path):
    trace = tmp_path / "req.jsonl"
    note_vocoder_chunks(str(trace), CHUNKS[:1])
    note_vocoder_chunks(str(trace), CHUNKS)
    assert not trace.exists()
    write_trace(trace)
    before = trace.read_text().splitlines()[1:]
    note_vocoder_chunks(str(trace))
    assert header(trace)["vocoderChunks"] == CHUNKS
    assert trace.read_text().splitlines()[1:] == before  # the steps as they were
    assert sorted(p.name for p in tmp_path.iterdir()) == ["req.jsonl"]


def test_chunks_after_the_trace_rewrite_its_header_each_time(tmp_path):
    trace = tmp_path / "req.jsonl"
    write_trace(trace)
    note_vocoder_chunks(str(trace))  # the talker side, nothing waiting: the trace stays as it is
    assert "vocoderChunks" not in header(trace)
    note_vocoder_chunks(str(trace), CHUNKS[:1])
    assert header(trace)["vocoderChunks"] == CHUNKS[:1]
    note_vocoder_chunks(str(trace), CHUNKS)
    assert header(trace)["vocoderChunks"] == CHUNKS
    assert sorted(p.name for p in tmp_path.iterdir()) == ["req.jsonl"]


def _audio_side(trace: str, n: int) -> None:
    for k in range(1, n + 1):
        note_vocoder_chunks(trace, [{"startSample": 960 * i, "samples": 960} for i in range(k)])
        time.sleep(0.002)


def test_chunks_from_another_process_before_and_after_the_commit_all_end_in_the_header(tmp_path):
    """The Code2Wav side (another process) notes 200 chunks while the talker side commits its trace midway, once the
    first list is waiting: the header ends with the last list. (The window the folder's flock closes, between
    the talker's commit and its look for a waiting list, is too narrow for this test to hit without the lock.)"""
    trace = tmp_path / "req.jsonl"
    audio = multiprocessing.get_context("spawn").Process(target=_audio_side, args=(str(trace), 200))
    audio.start()
    deadline = time.monotonic() + 60
    while not (tmp_path / "req.jsonl.vocoder-chunks.json").exists() and time.monotonic() < deadline:
        time.sleep(0.001)
    write_trace(trace)
    note_vocoder_chunks(str(trace))
    audio.join(60)
    assert audio.exitcode == 0
    assert [c["startSample"] for c in header(trace)["vocoderChunks"]] == [960 * i for i in range(200)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["req.jsonl"]


def test_a_chunk_the_format_refuses_names_the_field(tmp_path):
    trace = tmp_path / "req.jsonl"
    write_trace(trace)
    with pytest.raises(ParityValueError, match="vocoderChunks"):
        note_vocoder_chunks(str(trace), [{"startSample": -1, "samples": 960}])
    assert "vocoderChunks" not in header(trace)
