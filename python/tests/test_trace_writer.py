"""TraceWriter: what it writes (read back with json and scipy, not with our own code), what it refuses."""

import gc
import json
import os
import struct

import numpy as np
import pytest
import torch

from tts_parity import TraceWriter
from tts_parity.errors import ParityError, ParityFileExistsError, ParityStateError, ParityTypeError, ParityValueError

from optional_modules import scipy_wavfile

Q = 4


def lines(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def writer(tmp_path, **extra):
    return TraceWriter(tmp_path / "t.jsonl", engine="test", q=Q, frame_rate=12.5, sample_rate=24000, **extra)


def test_header_and_a_step_with_every_field(tmp_path):
    tw = writer(tmp_path, profile="graph", seed=7, text="hello", modules="t.modules.safetensors")
    logits = np.array([1.0, np.nan, 3.0, np.inf, 2.0], dtype=np.float32)
    cp = [torch.tensor([0.0, 2.0]), torch.tensor([5.0, 5.0]), torch.tensor([-1.0, -np.inf])]
    tw.write_step(
        logits,
        torch.tensor([2, 1, 0, 1]),
        code_predictor_logits=cp,
        nan={"vocoder": 3},
        times_ms={"talker": 1.5, "codePredictor": 0.25},
        hidden=torch.tensor([[1.0, 3.0]]),
    )
    tw.close()
    header, step = lines(tmp_path / "t.jsonl")
    assert header == {
        "schema": "tts-parity-trace/1",
        "engine": "test",
        "q": 4,
        "frameRate": 12.5,
        "sampleRate": 24000,
        "profile": "graph",
        "seed": 7,
        "text": "hello",
        "modules": "t.modules.safetensors",
    }
    # Talker row: one NaN (id 1) -> mean/std "NaN", argmax the NaN's id; min/max/top5 skip it, +Inf first.
    assert step["logits"] == {
        "mean": "NaN",
        "std": "NaN",
        "min": 1.0,
        "max": "Infinity",
        "argmax": 1,
        "top5": [
            {"id": 3, "logit": "Infinity"},
            {"id": 2, "logit": 3.0},
            {"id": 4, "logit": 2.0},
            {"id": 0, "logit": 1.0},
        ],
    }
    assert step["codes"] == [2, 1, 0, 1]
    assert [s["argmax"] for s in step["codePredictorLogits"]] == [1, 0, 0]  # tie 5, 5 -> id 0
    assert step["codePredictorLogits"][2]["min"] == "-Infinity"
    # Counts: talker 1 NaN + 1 Inf in the logits (hidden finite); code predictor one -Inf; vocoder as given.
    assert step["nan"] == {"talker": 1, "codePredictor": 0, "vocoder": 3}
    assert step["inf"] == {"talker": 1, "codePredictor": 1, "vocoder": 0}
    assert step["timesMs"] == {"talker": 1.5, "codePredictor": 0.25}
    assert step["hidden"] == {"mean": 2.0, "std": 1.0, "min": 1.0, "max": 3.0, "nan": 0, "inf": 0}


def test_steps_are_numbered_from_1_and_the_file_appears_only_on_close(tmp_path):
    with writer(tmp_path) as tw:
        for _ in range(3):
            tw.write_step(np.zeros(8, dtype=np.float32), [0, 0, 0, 0])
        assert not (tmp_path / "t.jsonl").exists()
    assert [s["step"] for s in lines(tmp_path / "t.jsonl")[1:]] == [1, 2, 3]
    assert sorted(os.listdir(tmp_path)) == ["t.jsonl"]  # no temporary left behind


def test_a_failing_loop_leaves_the_partial_trace_and_no_trace(tmp_path):
    with pytest.raises(RuntimeError, match="decode failed"):
        with writer(tmp_path) as tw:
            tw.write_step(np.zeros(8, dtype=np.float32), [0, 0, 0, 0])
            raise RuntimeError("decode failed")
    assert sorted(os.listdir(tmp_path)) == ["t.jsonl.partial"]
    assert len(lines(tmp_path / "t.jsonl.partial")) == 2


@pytest.mark.filterwarnings("ignore:TraceWriter.*was never closed")  # refusals leave the writer open on purpose
def test_a_q_entry_code_predictor_list_is_refused_naming_the_field(tmp_path):
    tw = writer(tmp_path)
    rows = [np.zeros(8, dtype=np.float32)] * Q
    with pytest.raises(
        ValueError, match=r'^step 1: "codePredictorLogits" \(code_predictor_logits\): expected 3 rows \(q-1\), found 4$'
    ):
        tw.write_step(np.zeros(8, dtype=np.float32), [0, 0, 0, 0], code_predictor_logits=rows)
    record = {"step": 1, "logits": _stats(), "codes": [0] * Q, "codePredictorLogits": [_stats()] * Q}
    with pytest.raises(ValueError, match=r'^step 1: "codePredictorLogits": expected 3 entries \(q-1\), found 4$'):
        tw.write_record(record)


@pytest.mark.filterwarnings("ignore:TraceWriter.*was never closed")  # refusals leave the writer open on purpose
def test_a_bare_nan_is_refused_naming_the_field(tmp_path):
    tw = writer(tmp_path)
    with pytest.raises(ValueError, match=r'^step 1: "logits.mean": nan is not JSON: .* the string "NaN"'):
        tw.write_record({"step": 1, "logits": {**_stats(), "mean": float("nan")}, "codes": [0] * Q})
    with pytest.raises(ValueError, match=r'^step 1: "timesMs.talker": inf is not JSON'):
        tw.write_step(np.zeros(8, dtype=np.float32), [0] * Q, times_ms={"talker": float("inf"), "codePredictor": 0})
    with pytest.raises(ValueError, match=r'^step 1: "logits.max": .*"NaN", "Infinity", "-Infinity"'):
        tw.write_record({"step": 1, "logits": {**_stats(), "max": "inf"}, "codes": [0] * Q})


@pytest.mark.filterwarnings("ignore:TraceWriter.*was never closed")  # refusals leave the writer open on purpose
def test_a_0_based_step_is_refused(tmp_path):
    tw = writer(tmp_path)
    with pytest.raises(
        ValueError, match=r"^expected step 1, found step 0 \(steps are 1, 2, 3\.\.\. in order; 1 = prefill\)$"
    ):
        tw.write_record({"step": 0, "logits": _stats(), "codes": [0] * Q})
    tw.write_record({"step": 1, "logits": _stats(), "codes": [0] * Q})
    with pytest.raises(ValueError, match="expected step 2, found step 1"):
        tw.write_record({"step": 1, "logits": _stats(), "codes": [0] * Q})


def test_other_bad_input_is_refused_naming_the_field(tmp_path):
    tw = writer(tmp_path)
    row = np.zeros(8, dtype=np.float32)
    cases = [
        (lambda: tw.write_step(row, [0, 0, 0]), r'^step 1: "codes": expected 4 codes \(q in the header\), found 3$'),
        (
            lambda: tw.write_step(row, np.zeros(4, dtype=np.float32)),
            r'^step 1: "codes" \(codes\): expected 4 integers, found dtype float32$',
        ),
        (
            lambda: tw.write_step(np.zeros((2, 8)), [0] * Q),
            r'^step 1: "logits" \(talker_logits\): expected one row .* found shape \[2, 8\]$',
        ),
        (
            lambda: tw.write_step(np.zeros(0), [0] * Q),
            r'^step 1: "logits" \(talker_logits\): expected a row of at least one logit, found an empty row$',
        ),
        (
            lambda: tw.write_step(row, [0] * Q, code_predictor_logits=5),
            r'^step 1: "codePredictorLogits" \(code_predictor_logits\): expected q-1 rows .*found 5$',
        ),
        (
            lambda: tw.write_step(row, [0] * Q, hidden=np.array(["a"])),
            r'^step 1: "hidden" \(hidden\): expected numbers, found dtype <U1$',
        ),
        (lambda: tw.write_step(row, [0] * Q, nan={"talkr": 1}), r'^step 1: "nan" \(nan\): unknown stage "talkr"'),
        (
            lambda: tw.write_step(row, [0] * Q, times_ms={"talker": 1}),
            r'^step 1: "timesMs" \(times_ms\): "codePredictor" is missing',
        ),
        (
            lambda: tw.write_step(row, [0] * Q, times_ms=3),
            r'^step 1: "timesMs" \(times_ms\): expected a dict of ms per stage, found int$',
        ),
        (
            lambda: tw.write_record([1]),
            r"^step 1: write_record: record: expected a dict \(a step object\), found list$",
        ),
        (
            lambda: tw.write_record({"step": 1, "logits": {**_stats(), "argmax": 1.5}, "codes": [0] * Q}),
            r'^step 1: "logits.argmax": 1.5 is not of type',
        ),
    ]
    for call, message in cases:
        with pytest.raises(ParityError, match=message):
            call()
    with pytest.raises(ParityStateError, match=r"close\(\) with no steps written"):
        tw.close()
    assert os.listdir(tmp_path) == []


def test_the_json_schema_check_of_step_lines_runs_at_close_and_keeps_the_partial_trace(tmp_path):
    tw = writer(tmp_path)
    tw.write_step(np.zeros(8, dtype=np.float32), [0] * Q)
    tw.write_step(
        np.zeros(8, dtype=np.float32), [0] * Q, nan={"talker": 2**53}
    )  # counts are exact JSON integers: the schema says so
    with pytest.raises(
        ValueError, match=r'^step 2: "nan.talker": 9007199254740992 is greater than the maximum of 9007199254740991$'
    ):
        tw.close()
    assert sorted(os.listdir(tmp_path)) == ["t.jsonl.partial"]


def test_the_wav_is_float32_mono_bit_exact_and_fills_the_vocoder_counts(tmp_path):
    # 3 steps at 10 frames/s and 1000 Hz: 100 samples per frame; a NaN in frame 2, an Inf in frame 3.
    tw = TraceWriter(tmp_path / "t.jsonl", engine="x", q=1, frame_rate=10, sample_rate=1000)
    for _ in range(3):
        tw.write_step(np.zeros(4, dtype=np.float32), [0])
    audio = (np.sin(np.arange(300) * 0.1) * 0.5).astype(np.float32)
    audio[150], audio[250] = np.nan, -np.inf
    tw.set_audio(torch.from_numpy(audio))
    tw.close()
    rate, back = scipy_wavfile().read(tmp_path / "t.wav")
    assert rate == 1000 and back.dtype == np.float32
    assert back.tobytes() == audio.tobytes()
    raw = (tmp_path / "t.wav").read_bytes()
    assert raw[:4] == b"RIFF" and raw[38:42] == b"fact" and raw[50:54] == b"data" and len(raw) == 58 + 4 * 300
    assert struct.unpack("<HH", raw[20:24]) == (3, 1)  # IEEE float, one channel
    steps = lines(tmp_path / "t.jsonl")[1:]
    assert [s["nan"]["vocoder"] for s in steps] == [0, 1, 0]
    assert [s["inf"]["vocoder"] for s in steps] == [0, 0, 1]


def _stats():
    return {"mean": 0.0, "std": 0.0, "min": 0.0, "max": 0.0, "argmax": 0, "top5": [{"id": 0, "logit": 0.0}]}


def test_integer_and_multichannel_audio_are_refused_in_one_line(tmp_path):
    tw = writer(tmp_path)
    tw.write_step(np.zeros(8, dtype=np.float32), [0] * Q)
    with pytest.raises(
        ValueError, match=r"^TraceWriter.set_audio: audio is int16: give float samples in \[-1, 1\], e.g. x / 32768$"
    ):
        tw.set_audio(torch.full((1920,), 16000, dtype=torch.int16))  # once written as 16000.0 samples
    with pytest.raises(
        ValueError,
        match=r"^TraceWriter.set_audio: audio is int32: give float samples in \[-1, 1\], e.g. x / 2147483648$",
    ):
        tw.set_audio(np.zeros(1920, dtype=np.int32))
    with pytest.raises(
        ValueError,
        match=r"^TraceWriter.set_audio: audio: expected mono samples, 1-D or \[1, \.\.\., 1, N\]; found \[1920, 2\]: "
        r"mix or pick a channel$",
    ):
        tw.set_audio(np.zeros((1920, 2), dtype=np.float32))
    tw.set_audio(np.zeros((1, 1920), dtype=np.float32))  # a batch of one is one channel
    tw.close()
    assert sorted(os.listdir(tmp_path)) == ["t.jsonl", "t.wav"]


def test_counts_and_times_given_by_the_caller_are_checked_naming_the_field(tmp_path):
    tw = writer(tmp_path)
    row = np.zeros(8, dtype=np.float32)
    cases = [
        ({"nan": {"talker": 1.5}}, r'^step 1: "nan.talker": expected a count \(an integer >= 0\), found 1.5$'),
        ({"inf": {"vocoder": -1}}, r'^step 1: "inf.vocoder": expected a count \(an integer >= 0\), found -1$'),
        ({"nan": {"talker": True}}, r'^step 1: "nan.talker": expected a count'),
        (
            {"times_ms": {"talker": 1.0, "codePredictor": "2"}},
            r'^step 1: "timesMs.codePredictor": expected a time in ms \(a number\), found \'2\'$',
        ),
        ({"times_ms": {"talker": float("nan"), "codePredictor": 0.0}}, r'^step 1: "timesMs.talker": nan is not JSON'),
    ]
    for extra, message in cases:
        with pytest.raises(ValueError, match=message):
            tw.write_step(row, [0] * Q, **extra)
    # A count straight from torch (a 0-d integer tensor) or numpy is a count.
    tw.write_step(
        row, [0] * Q, nan={"talker": torch.isnan(torch.tensor([np.nan, 1.0])).sum()}, inf={"codePredictor": np.int64(2)}
    )
    tw.close()
    step = lines(tmp_path / "t.jsonl")[1]
    assert step["nan"]["talker"] == 1 and step["inf"]["codePredictor"] == 2


def _dropped_writer(tmp_path, steps):
    """A writer that is never closed, dropped after `steps` steps (then collected, as at the end of a script)."""
    tw = writer(tmp_path)
    for _ in range(steps):
        tw.write_step(np.zeros(8, dtype=np.float32), [0] * Q)
    with pytest.raises(ValueError, match="expected 4 codes"):
        tw.write_step(np.zeros(8, dtype=np.float32), [0, 0])  # refused outside a `with` block
    del tw
    gc.collect()


def test_an_unclosed_writer_keeps_its_lines_as_partial_and_warns(tmp_path):
    with pytest.warns(
        UserWarning,
        match=r"t.jsonl\) was never closed: its 2 step line\(s\) are kept as .*t.jsonl.partial.*call close\(\) or use "
        r"`with`",
    ):
        _dropped_writer(tmp_path, 2)
    assert sorted(os.listdir(tmp_path)) == ["t.jsonl.partial"]  # no temporary left behind
    assert [line.get("step") for line in lines(tmp_path / "t.jsonl.partial")] == [None, 1, 2]


def test_an_unclosed_writer_with_no_steps_leaves_nothing(tmp_path):
    with pytest.warns(UserWarning, match=r"never closed: it held no steps, so nothing was kept"):
        _dropped_writer(tmp_path, 0)
    assert os.listdir(tmp_path) == []


def test_constructor_arguments_are_refused_naming_them(tmp_path):
    path = tmp_path / "u.jsonl"
    good = {"engine": "x", "q": 4, "frame_rate": 12.5, "sample_rate": 24000}
    cases = [
        ({"q": 0}, ParityValueError, r"^TraceWriter: q: expected an integer >= 1, found 0$"),
        ({"q": "16"}, ParityTypeError, r"^TraceWriter: q: expected an integer >= 1, found '16'$"),
        (
            {"sample_rate": 24000.0},
            ParityTypeError,
            r"^TraceWriter: sample_rate: expected an integer >= 1, found 24000.0$",
        ),
        (
            {"frame_rate": float("nan")},
            ParityValueError,
            r"^TraceWriter: frame_rate: expected a finite number > 0 \(frames per second\), found nan$",
        ),
        ({"frame_rate": "12.5"}, ParityTypeError, r"^TraceWriter: frame_rate: expected a finite number > 0"),
        ({"engine": None}, ParityTypeError, r"^TraceWriter: engine: expected a string, found None$"),
        ({"seed": "0"}, ParityTypeError, r"^TraceWriter: seed: expected an integer, found '0'$"),
    ]
    for change, kind, message in cases:
        with pytest.raises(kind, match=message):
            TraceWriter(path, **{**good, **change})
    with pytest.raises(
        ParityTypeError, match=r"^TraceWriter: path: expected a file path \(str or os.PathLike\), found NoneType$"
    ):
        TraceWriter(None, **good)
    assert os.listdir(tmp_path) == []


def test_missing_parent_folders_are_created(tmp_path):
    with TraceWriter(tmp_path / "runs" / "a" / "t.jsonl", engine="x", q=1, frame_rate=10, sample_rate=1000) as tw:
        tw.write_step(np.zeros(4, dtype=np.float32), [0])
        tw.set_audio(np.zeros(100, dtype=np.float32))
    assert sorted(os.listdir(tmp_path / "runs" / "a")) == ["t.jsonl", "t.wav"]


def test_existing_files_and_fifos_are_not_replaced_unless_forced(tmp_path):
    trace, wav = tmp_path / "t.jsonl", tmp_path / "t.wav"
    trace.write_text("mine")
    with pytest.raises(
        ParityFileExistsError, match=r"^TraceWriter: path: .*t.jsonl already exists \(pass force=True to replace it\)$"
    ):
        writer(tmp_path)
    assert trace.read_text() == "mine"
    wav.write_text("my wav")
    tw = writer(tmp_path, force=True)
    tw.write_step(np.zeros(8, dtype=np.float32), [0] * Q)
    tw.set_audio(np.zeros(1920, dtype=np.float32))
    tw.close()
    assert lines(trace)[0]["engine"] == "test" and wav.read_bytes()[:4] == b"RIFF"
    os.mkfifo(tmp_path / "fifo.jsonl")
    with pytest.raises(
        ParityValueError, match=r"fifo.jsonl is not a regular file \(a device, FIFO or socket\); give a file path$"
    ):
        TraceWriter(tmp_path / "fifo.jsonl", engine="x", q=1, frame_rate=10, sample_rate=1000, force=True)
    tw = TraceWriter(tmp_path / "u.jsonl", engine="x", q=1, frame_rate=10, sample_rate=1000)
    tw.write_step(np.zeros(4, dtype=np.float32), [0])
    with pytest.raises(ParityFileExistsError, match=r"^TraceWriter.set_audio: wav_path: .*t.wav already exists"):
        tw.set_audio(np.zeros(100, dtype=np.float32), wav_path=wav)
    with pytest.raises(ParityValueError, match=r"^TraceWriter.set_audio: wav_path: .*fifo.jsonl is not a regular file"):
        tw.set_audio(np.zeros(100, dtype=np.float32), wav_path=tmp_path / "fifo.jsonl")
    tw.close()
    assert sorted(os.listdir(tmp_path)) == ["fifo.jsonl", "t.jsonl", "t.wav", "u.jsonl"]


def test_partial_records_write(tmp_path):
    """Every field but "step" is optional in the format (docs/trace-format.md "Partial traces"), as long as one
    of logits, codes, codePredictorLogits is there (a step of nothing else is refused: test_trace_writer_rules.py)."""
    with writer(tmp_path) as tw:
        tw.write_record({"step": 1, "logits": _stats()})
        tw.write_record({"step": 2, "codes": [0, 1, 2, 3]})
        tw.write_step(codes=[1, 2, 3, 4])
        tw.write_step(np.zeros(8, dtype=np.float32))
    steps = lines(tmp_path / "t.jsonl")[1:]
    assert [sorted(s) for s in steps] == [
        ["logits", "step"],
        ["codes", "step"],
        ["codes", "inf", "nan", "step"],
        ["inf", "logits", "nan", "step"],
    ]


def test_a_closed_writer_refuses_writes_naming_the_step_and_close_twice_does_nothing(tmp_path):
    tw = writer(tmp_path)
    tw.write_step(np.zeros(8, dtype=np.float32), [0] * Q)
    tw.close()
    tw.close()
    for call in (lambda: tw.write_step(np.zeros(8), [0] * Q), lambda: tw.write_record({"step": 2})):
        with pytest.raises(
            ParityStateError,
            match=r"^step 2: TraceWriter\(.*t.jsonl\): write_(step|record)\(\) after close\(\): the writer is closed$",
        ):
            call()
    with pytest.raises(ParityStateError, match=r"set_audio\(\) after close\(\)"):
        tw.set_audio(np.zeros(10, dtype=np.float32))
