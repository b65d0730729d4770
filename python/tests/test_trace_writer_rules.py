"""The writer is as strict as the reader (issue 38): every line the writer accepts, `parity compare-trace`'s
reader reads, and every line it refuses, the reader refuses too; the rules come from the generated schema
(python/tts_parity/schema/), not a second list. Plus the writer's own refusals of values the docs and the reader
reject: a sidecar outside the trace's folder, audio outside [-1, 1] or empty, a WAV path that is the trace, an
output path that is a dangling link."""

import json
import os

import numpy as np
import pytest

from tts_parity import TraceWriter
from tts_parity.errors import ParityError, ParityFileExistsError, ParityValueError
from tts_parity.trace_schema import MAX_LINE, STEP_SCHEMA

from parity_cli import run_node_module

HERE = os.path.dirname(__file__)
HEADER = {"schema": "tts-parity-trace/1", "engine": "e", "q": 2, "frameRate": 12.5, "sampleRate": 24000}
STATS = {"mean": 0.5, "std": 1.0, "min": -1.0, "max": 2.0, "argmax": 3, "top5": [{"id": 3, "logit": 2.0}]}

# One step line each: [what, record]. Whether it is accepted is decided by the TS reader, not written here.
RECORDS = [
    ("step only", {"step": 1}),
    ("step and counts only", {"step": 1, "nan": {"talker": 0, "codePredictor": 0, "vocoder": 0}}),
    ("empty logits", {"step": 1, "logits": {}}),
    ("logits", {"step": 1, "logits": STATS}),
    ("codes", {"step": 1, "codes": [1, 2]}),
    ("codes short", {"step": 1, "codes": [1]}),
    ("empty code-predictor entry", {"step": 1, "codePredictorLogits": [{}]}),
    ("code-predictor entry", {"step": 1, "codePredictorLogits": [{"mean": 1.0}]}),
    ("code-predictor q entries", {"step": 1, "codePredictorLogits": [{"mean": 1.0}, {"mean": 1.0}]}),
    ("mean NaN as a string", {"step": 1, "logits": {**STATS, "mean": "NaN"}}),
    ("mean a bad string", {"step": 1, "logits": {**STATS, "mean": "big"}}),
    ("step 2 first", {"step": 2, "codes": [1, 2]}),
    ("step 0", {"step": 0, "codes": [1, 2]}),
    ("a line one past the limit", {"step": 1, "codes": [1, 2], "x": "a" * (MAX_LINE - 29)}),
    ("a line at the limit", {"step": 1, "codes": [1, 2], "x": "a" * (MAX_LINE - 30)}),
]


def test_the_writer_accepts_exactly_the_lines_the_reader_reads(tmp_path):
    files, writer_verdicts = [], []
    for i, (_, record) in enumerate(RECORDS):
        raw = tmp_path / f"raw-{i}.jsonl"
        raw.write_text(json.dumps(HEADER) + "\n" + json.dumps(record, separators=(",", ":")) + "\n", encoding="utf-8")
        files.append(raw)
        tw = TraceWriter(tmp_path / f"w-{i}.jsonl", engine="e", q=2, frame_rate=12.5, sample_rate=24000)
        try:
            tw.write_record(record)
            tw.close()
            writer_verdicts.append(None)
        except ParityError as error:
            writer_verdicts.append(str(error))
            tw._abandon()  # the test's own cleanup of a writer left open
    reader_verdicts = json.loads(run_node_module(os.path.join(HERE, "read_trace_verdicts_ts.mjs"), *files))
    for (what, _), written, read in zip(RECORDS, writer_verdicts, reader_verdicts):
        assert (written is None) == (read is None), f"{what}: writer {written!r}, reader {read!r}"
    # The table holds both kinds, so it can fail either way.
    assert None in reader_verdicts and any(v is not None for v in reader_verdicts)


@pytest.mark.parametrize(
    "call",
    [lambda tw: tw.write_step(None, None), lambda tw: tw.write_record({"step": 1}), lambda tw: tw.write_step()],
    ids=["write_step(None, None)", 'write_record({"step": 1})', "write_step()"],
)
def test_a_step_with_nothing_to_compare_is_refused_at_once_in_the_readers_words(tmp_path, call):
    tw = TraceWriter(tmp_path / "t.jsonl", engine="e", q=2, frame_rate=12.5, sample_rate=24000)
    with pytest.raises(ParityValueError) as refused:
        call(tw)
    assert str(refused.value) == f"step 1: {STEP_SCHEMA.data_message}"
    assert str(refused.value).startswith('step 1: no "logits" statistic, "codes" or "codePredictorLogits"')
    tw._abandon()


def test_write_record_without_the_schema_keeps_the_rules(tmp_path):
    # schema=False (the vLLM recorder's lines) leaves out the JSON Schema only: a bad type inside a statistic is
    # written, while a step out of order, a wrong code count and a bare NaN are still refused.
    off_schema = {"step": 1, "logits": {**STATS, "mean": "big"}}
    tw = TraceWriter(tmp_path / "a.jsonl", engine="e", q=2, frame_rate=12.5, sample_rate=24000)
    with pytest.raises(ParityValueError, match=r'^step 1: "logits\.mean"'):
        tw.write_record(off_schema)
    tw._abandon()
    with TraceWriter(tmp_path / "b.jsonl", engine="e", q=2, frame_rate=12.5, sample_rate=24000) as tw:
        tw.write_record(off_schema, schema=False)
        with pytest.raises(ParityValueError, match=r"^expected step 2, found step 3"):
            tw.write_record({"step": 3, "codes": [1, 2]}, schema=False)
        with pytest.raises(ParityValueError, match=r'^step 2: "codes": expected 2 codes'):
            tw.write_record({"step": 2, "codes": [1]}, schema=False)
        with pytest.raises(ParityValueError, match=r'^step 2: "logits\.max": nan is not JSON'):
            tw.write_record({"step": 2, "logits": {**STATS, "max": float("nan")}}, schema=False)
        with pytest.raises(TypeError, match=r"^step 2: write_record: schema: expected a bool, found 'no'"):
            tw.write_record({"step": 2, "codes": [1, 2]}, schema="no")
    assert json.loads((tmp_path / "b.jsonl").read_text().splitlines()[1])["logits"]["mean"] == "big"


@pytest.mark.parametrize("modules", ["../a.modules.safetensors", "/tmp/a.modules.safetensors", "sub/../../a", " "])
def test_a_sidecar_outside_the_traces_folder_is_refused(tmp_path, modules):
    with pytest.raises(ParityValueError, match=r"^TraceWriter: modules: .* is outside the trace's folder"):
        TraceWriter(tmp_path / "t.jsonl", engine="e", q=2, frame_rate=12.5, sample_rate=24000, modules=modules)


@pytest.mark.parametrize("modules", ["a.modules.safetensors", "sub/a.modules.safetensors", "./a.safetensors"])
def test_a_sidecar_in_the_traces_folder_is_taken(tmp_path, modules):
    with TraceWriter(tmp_path / "t.jsonl", engine="e", q=2, frame_rate=12.5, sample_rate=24000, modules=modules) as tw:
        tw.write_step(codes=[1, 2])
    assert json.loads((tmp_path / "t.jsonl").read_text().splitlines()[0])["modules"] == modules


@pytest.mark.parametrize(
    "audio, message",
    [
        (np.zeros(0, dtype=np.float32), r"no samples \(empty audio\)"),
        (np.array([0.0, 1.5, -2.0], dtype=np.float32), r"sample 1 is 1\.5, outside \[-1, 1\] \(2 samples are\)"),
        (np.array([0.0, -1.0001], dtype=np.float64), r"sample 1 is -1\.0001, outside \[-1, 1\]"),
    ],
)
def test_audio_the_studio_reads_as_broken_is_refused_at_set_audio(tmp_path, audio, message):
    tw = TraceWriter(tmp_path / "t.jsonl", engine="e", q=2, frame_rate=12.5, sample_rate=24000)
    with pytest.raises(ParityValueError, match=r"^TraceWriter\.set_audio: audio: " + message):
        tw.set_audio(audio)
    tw._abandon()


def test_full_scale_and_non_finite_samples_are_kept(tmp_path):
    with TraceWriter(tmp_path / "t.jsonl", engine="e", q=2, frame_rate=12.5, sample_rate=24000) as tw:
        tw.write_step(codes=[1, 2])
        tw.set_audio(np.array([1.0, -1.0, np.nan, np.inf], dtype=np.float32))
    assert (tmp_path / "t.wav").stat().st_size == 58 + 16


def test_set_audio_refuses_the_traces_own_path_and_a_link_to_it_force_or_not(tmp_path):
    trace = tmp_path / "t.jsonl"
    os.symlink(trace, tmp_path / "link.wav")
    tw = TraceWriter(trace, engine="e", q=2, frame_rate=12.5, sample_rate=24000, force=True)
    tw.write_step(codes=[1, 2])
    for target in (trace, str(trace), tmp_path / "link.wav", tmp_path / "t.jsonl.partial"):
        with pytest.raises(
            ParityValueError,
            match=r"^TraceWriter\.set_audio: wav_path: .* is (the trace this writer writes|where this writer keeps)",
        ):
            tw.set_audio(np.zeros(4, dtype=np.float32), wav_path=target)
    tw.close()
    assert json.loads(trace.read_text().splitlines()[0])["schema"] == "tts-parity-trace/1"


def test_an_output_path_that_is_a_dangling_link_is_refused_unless_forced_and_then_the_link_is_replaced(tmp_path):
    link = tmp_path / "t.jsonl"
    os.symlink(tmp_path / "nowhere" / "x.jsonl", link)
    with pytest.raises(
        ParityFileExistsError,
        match=r"^TraceWriter: path: .*t\.jsonl is a symbolic link to .*x\.jsonl, which does not exist "
        r"\(pass force=True to replace the link\)$",
    ):
        TraceWriter(link, engine="e", q=2, frame_rate=12.5, sample_rate=24000)
    assert os.path.islink(link)
    with TraceWriter(link, engine="e", q=2, frame_rate=12.5, sample_rate=24000, force=True) as tw:
        tw.write_step(codes=[1, 2])
    assert not os.path.islink(link) and not (tmp_path / "nowhere").exists()
