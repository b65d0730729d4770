"""TraceWriter: writes a `tts-parity-trace/1` trace (docs/trace-format.md) and its WAV from a decode loop.
numpy only; takes numpy arrays, torch tensors and other libraries' arrays by the array protocols (arrays.py: no
array library is imported here).

    with TraceWriter("a.jsonl", engine="hf-4.57 eager", q=16, frame_rate=12.5, sample_rate=24000) as tw:
        for each frame:   # step 1 = the prefill, then one call per decode step
            tw.write_step(talker_logits_row, frame_codes, code_predictor_logits=[15 rows])
        tw.set_audio(audio)   # optional: the WAV beside the trace
    # leaving the block closes the writer: the trace (and the WAV) appear now

Every line is checked (trace_schema: the generated JSON Schema plus the rules it cannot say), so a trace this
writes is one `parity compare-trace` reads. The rules are checked as each line is written; for the lines
write_step() builds itself, the JSON Schema check runs at close(), before the trace is renamed into place, to keep
it out of the decode loop (docs/python.md has its cost); write_record()'s lines are checked at once. The files are
written under a temporary name and renamed on close; if the `with` block (or close's check) fails, the lines so
far are kept as `<trace>.partial` and no trace appears under the real name. A writer dropped without close()
(garbage collection, interpreter exit) does the same and warns, naming the line that created it.
"""

from __future__ import annotations

import math
import numbers
import os
import weakref
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from ._lines import bounded_lines
from ._output_files import AtomicFile, check_output_path
from ._step_fields import with_step_fields_args
from .arrays import as_numpy, as_row
from .errors import ParityStateError, ParityTypeError, ParityValueError
from .logit_stats import count_non_finite, hidden_stats, logit_stats
from .trace_schema import TRACE_SCHEMA, check_header, check_step, check_step_schema, encode_line, json_stats
from .unclosed import creation_site, warn_at
from .wav import check_samples, write_wav_float32

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from .arrays import ArrayLike

__all__ = ["STAGES", "TraceWriter"]

STAGES = ("talker", "codePredictor", "vocoder")
TIMED_STAGES = ("talker", "codePredictor", "vocoder")
_FORMAT_HEADER_FIELDS = ("schema", "engine", "q", "frameRate", "sampleRate", "codebookSize", "codebookDelays")


class TraceWriter:
    """Opens a trace at `path` and writes its header.

    Args:
        path: the trace file (`.jsonl`); missing parent folders are created. An existing file is refused unless
            `force=True`; a folder, FIFO or device never is replaced.
        engine: what produced the trace, e.g. `"transformers 4.57 eager"` (header `engine`).
        q: codebooks per frame, an int >= 1 (header `q`).
        frame_rate: frames per second, a finite float > 0 (header `frameRate`).
        sample_rate: audio samples per second, an int >= 1 (header `sampleRate`).
        profile, seed, text: what produced the run (header fields of the same names).
        modules: a module-output sidecar's file name relative to the trace's folder, written by
            `tts_parity.module_recorder.ModuleRecorder` (header `modules`).
        teacher_forced: the run whose codes this run was fed instead of its own picks (header `teacherForced`;
            then give write_step() the run's own picks as `codes`; docs/forensics.md "Teacher forcing").
        codebook_delays: a delay pattern, q ints >= 0 (header `codebookDelays`): codebook k of frame f is emitted
            at step f + codebook_delays[k] (MusicGen, Dia), and each step's `codes` are what that step emitted
            (docs/trace-format.md "Delay patterns").
        extra_header: more header fields an engine keeps with the trace (the format keeps unknown header fields),
            e.g. the setting a run was made under; names of the format's own fields are refused.
        force: replace an existing trace (and WAV) file.
    """

    path: str
    wav_path: str | None
    q: int
    sample_rate: int
    frame_rate: float
    steps_written: int
    force: bool
    _header: dict[str, Any]
    _file: AtomicFile
    _finalizer: weakref.finalize[Any, Any]

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        engine: str,
        q: int,
        frame_rate: float,
        sample_rate: int,
        profile: str | None = None,
        seed: int | None = None,
        text: str | None = None,
        modules: str | None = None,
        teacher_forced: str | None = None,
        codebook_delays: Sequence[int] | None = None,
        extra_header: Mapping[str, Any] | None = None,
        force: bool = False,
    ) -> None:
        _check_argument("engine", engine, str, "a string")
        _check_int("q", q)
        _check_int("sample_rate", sample_rate)
        if (
            isinstance(frame_rate, bool)
            or not isinstance(frame_rate, numbers.Real)
            or not math.isfinite(frame_rate)
            or frame_rate <= 0
        ):
            raise (
                ParityValueError
                if isinstance(frame_rate, numbers.Real) and not isinstance(frame_rate, bool)
                else ParityTypeError
            )(f"TraceWriter: frame_rate: expected a finite number > 0 (frames per second), found {frame_rate!r}")
        for name, value in (
            ("profile", profile),
            ("text", text),
            ("modules", modules),
            ("teacher_forced", teacher_forced),
        ):
            if value is not None:
                _check_argument(name, value, str, "a string")
        if seed is not None:
            _check_argument("seed", seed, int, "an integer")
        if modules is not None:
            _check_modules(modules)
        self.path = check_output_path(path, force=force, what="TraceWriter: path")
        self.wav_path: str | None = None
        self.q = q
        self.sample_rate = sample_rate
        self.frame_rate = float(frame_rate)
        self.steps_written = 0
        self.force = force
        header: dict[str, Any] = {
            "schema": TRACE_SCHEMA,
            "engine": engine,
            "q": q,
            "frameRate": frame_rate,
            "sampleRate": sample_rate,
        }
        optional = {"profile": profile, "seed": seed, "text": text, "modules": modules, "teacherForced": teacher_forced}
        if codebook_delays is not None:
            optional["codebookDelays"] = [int(d) for d in codebook_delays]
        header.update({k: v for k, v in optional.items() if v is not None})
        for key, value in (extra_header or {}).items():
            if key in header or key in optional or key in _FORMAT_HEADER_FIELDS:
                raise ParityValueError(f"TraceWriter: extra_header: {key!r} is a field of the format; pass it by name")
            header[key] = value
        check_header(header)
        if codebook_delays is not None and len(header["codebookDelays"]) != q:
            raise ParityValueError(
                f'TraceWriter: header: "codebookDelays": expected {q} delays (q), found {len(header["codebookDelays"])}'
            )
        self._header = header
        self._records: list[dict[str, Any]] = []  # kept to fill the vocoder counts from the audio at close
        self._vocoder_fill: list[tuple[bool, bool]] = []
        self._schema_deferred: list[
            dict[str, Any]
        ] = []  # write_step() records: checked against the JSON Schema at close
        self._audio: np.ndarray | None = None
        self._file = AtomicFile(self.path, force=force, what="TraceWriter: path", text=True)
        self._finalizer = weakref.finalize(self, _keep_unclosed, self._file, self.path, creation_site())
        self._write_line(header)

    @property
    def closed(self) -> bool:
        """True once close() ran (or the `with` block ended)."""
        return self._file.closed

    @with_step_fields_args
    def write_step(
        self,
        talker_logits: ArrayLike | None = None,
        codes: ArrayLike | Sequence[int] | None = None,
        *,
        code_predictor_logits: ArrayLike | Sequence[ArrayLike] | None = None,
        hidden: ArrayLike | None = None,
        nan: Mapping[str, Any] | None = None,
        inf: Mapping[str, Any] | None = None,
        times_ms: Mapping[str, Any] | None = None,
    ) -> None:
        """Writes the next step (1 = the prefill that yields frame 1, then one per decode step). A field left out
        (None) is left out of the line: the format takes partial records."""
        n = self._next_step("write_step")
        record: dict[str, Any] = {"step": n}
        talker_row = None
        if talker_logits is not None:
            talker_row = _row(talker_logits, f'step {n}: "logits" (talker_logits)')
            record["logits"] = json_stats(logit_stats(talker_row))
        if codes is not None:
            record["codes"] = _codes(codes, n, self.q)
        cp_rows = None
        if code_predictor_logits is not None:
            cp_rows = [
                _row(row, f'step {n}: "codePredictorLogits.{i}" (code_predictor_logits[{i}])')
                for i, row in enumerate(_rows(code_predictor_logits, n))
            ]
            if len(cp_rows) != self.q - 1:  # checked before computing q statistics for nothing
                raise ParityValueError(
                    f'step {n}: "codePredictorLogits" (code_predictor_logits): expected {self.q - 1} '
                    f"rows (q-1), found {len(cp_rows)}"
                )
            record["codePredictorLogits"] = [json_stats(logit_stats(row)) for row in cp_rows]
        hidden_array = None if hidden is None else as_numpy(hidden, f'step {n}: "hidden" (hidden)')
        if hidden_array is not None and not np.issubdtype(hidden_array.dtype, np.number):
            raise ParityValueError(f'step {n}: "hidden" (hidden): expected numbers, found dtype {hidden_array.dtype}')
        counted = _counts(talker_row, hidden_array, cp_rows)
        record["nan"] = _stage_counts(nan, {s: c[0] for s, c in counted.items()}, n, "nan")
        record["inf"] = _stage_counts(inf, {s: c[1] for s, c in counted.items()}, n, "inf")
        if times_ms is not None:
            record["timesMs"] = _times(times_ms, n)
        if hidden_array is not None:
            record["hidden"] = json_stats(hidden_stats(hidden_array))
        self._append(
            record, (nan is None or "vocoder" not in nan, inf is None or "vocoder" not in inf), schema="at-close"
        )

    def write_record(
        self, record: Mapping[str, Any], *, fill_vocoder: bool | tuple[bool, bool] = False, schema: bool = True
    ) -> None:
        """Writes one step record as is (for engines that compute the statistics themselves), checked at once in
        full: steps numbered 1, 2, 3..., non-finite numbers as the strings "NaN", "Infinity", "-Infinity".

        Args:
            record: a `tts-parity-trace/1` step object (docs/trace-format.md); every field but `step` is optional.
            fill_vocoder: True replaces the record's nan/inf "vocoder" counts at close() by the counts of this
                frame's samples of the audio given to set_audio(); a (nan, inf) pair of booleans chooses per count.
            schema: False leaves out the JSON Schema check (the step order, the code counts and the refusal of a
                bare NaN stay) for a record whose structure the caller builds from statistics it computed with this
                package's rules, where the check would cost a quarter of a serving engine's recording step (the
                vLLM recorder: its tests check every line it writes against the schema).
        """
        n = self._next_step("write_record")
        if not isinstance(record, dict):
            raise ParityTypeError(
                f"step {n}: write_record: record: expected a dict (a step object), found {type(record).__name__}"
            )
        if isinstance(fill_vocoder, tuple):
            if len(fill_vocoder) != 2 or not all(isinstance(f, bool) for f in fill_vocoder):
                raise ParityValueError(
                    f"step {n}: write_record: fill_vocoder: expected a bool or a (nan, inf) pair of bools, found "
                    f"{fill_vocoder!r}"
                )
            fill = (fill_vocoder[0], fill_vocoder[1])
        elif isinstance(fill_vocoder, bool):
            fill = (fill_vocoder, fill_vocoder)
        else:
            raise ParityTypeError(
                f"step {n}: write_record: fill_vocoder: expected a bool or a (nan, inf) pair of bools, found "
                f"{fill_vocoder!r}"
            )
        if not isinstance(schema, bool):
            raise ParityTypeError(f"step {n}: write_record: schema: expected a bool, found {schema!r}")
        self._append(dict(record), fill, schema=schema)

    def set_audio(self, audio: ArrayLike, *, wav_path: str | os.PathLike[str] | None = None) -> None:
        """The run's audio, written as a float32 WAV when the writer closes (and used to count each frame's vocoder
        NaN/Inf where a step did not give them).

        Args:
            audio: mono float samples in [-1, 1], `[samples]` or `[1, ..., 1, samples]`, at `sample_rate`; numpy or
                torch (any float dtype). Integer PCM and several channels are refused, saying what to do.
            wav_path: where the WAV goes (default: the trace path with `.wav`); an existing file is refused unless
                the writer was made with `force=True`.
        """
        if self.closed:
            raise ParityStateError(f"TraceWriter({self.path}): set_audio() after close(): the writer is closed")
        target = os.path.splitext(self.path)[0] + ".wav" if wav_path is None else wav_path
        taken = {
            self.path: "the trace this writer writes",
            self.path + ".partial": "where this writer keeps an unfinished trace",
            self._file.temporary: "this writer's temporary trace file",
        }
        self.wav_path = check_output_path(target, force=self.force, what="TraceWriter.set_audio: wav_path", taken=taken)
        self._audio = _mono_samples(audio)

    def close(self) -> None:
        """Finishes the trace and writes the WAV (with set_audio() before): both files appear under their names only
        now. A second close() does nothing. Raises ParityStateError when no step was written (nothing is kept)."""
        if self.closed:
            return
        if self.steps_written == 0:
            self._abandon()
            raise ParityStateError(
                f"TraceWriter({self.path}): close() with no steps written (a trace needs at least "
                "step 1, the prefill); nothing was kept"
            )
        samples = self._audio
        refilled = samples is not None and self._fill_vocoder_counts(samples)
        try:
            for record in self._schema_deferred:
                check_step_schema(record)
        except ValueError:
            self._keep_partial()
            raise
        self._schema_deferred.clear()
        if refilled:
            self._rewrite()
        try:
            if samples is not None and self.wav_path is not None:
                write_wav_float32(self.wav_path, samples, self.sample_rate, force=self.force)
        except BaseException:
            self._keep_partial()
            raise
        self._finalizer.detach()
        self._file.commit()

    def __enter__(self) -> TraceWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, traceback: object) -> None:
        if kind is None:
            self.close()
        elif not self.closed:
            self._keep_partial()

    def _next_step(self, call: str) -> int:
        n = self.steps_written + 1
        if self.closed:
            raise ParityStateError(f"step {n}: TraceWriter({self.path}): {call}() after close(): the writer is closed")
        return n

    def _append(
        self, record: dict[str, Any], fill_vocoder: tuple[bool, bool], schema: bool | Literal["at-close"]
    ) -> None:
        """schema: True checks the record against the JSON Schema now, "at-close" when the writer closes, False
        never."""
        n = self.steps_written + 1
        check_step(record, n, self.q, schema=schema is True)
        line = encode_line(record, f"step {n}")
        self._file.file.write(line + "\n")
        self._records.append(record)
        self._vocoder_fill.append(fill_vocoder)
        if schema == "at-close":
            self._schema_deferred.append(record)
        self.steps_written = n

    def _keep_partial(self) -> None:
        self._finalizer.detach()
        self._file.keep_as(self.path + ".partial")

    def _write_line(self, value: dict[str, Any]) -> None:
        where = "header" if value is self._header else f"step {value.get('step')}"
        self._file.file.write(encode_line(value, where) + "\n")

    def _fill_vocoder_counts(self, samples: np.ndarray) -> bool:
        """Frame f holds samples [f*sr/fr, (f+1)*sr/fr) (rounded), as the engine counts them."""
        hop = self.sample_rate / self.frame_rate
        changed = False
        for f, (record, (fill_nan, fill_inf)) in enumerate(zip(self._records, self._vocoder_fill)):
            frame = samples[round(f * hop) : round((f + 1) * hop)]
            nan, inf = count_non_finite(frame)
            if fill_nan and "nan" in record:
                record["nan"]["vocoder"] = nan
                changed = True
            if fill_inf and "inf" in record:
                record["inf"]["vocoder"] = inf
                changed = True
        return changed

    def _rewrite(self) -> None:
        file = self._file.file
        file.seek(0)
        file.truncate()
        self._write_line(self._header)
        for record in self._records:
            self._write_line(record)

    def _abandon(self) -> None:
        self._finalizer.detach()
        self._file.discard()


def _keep_unclosed(file: AtomicFile, path: str, site: tuple[str, int]) -> None:
    """The finalizer of a writer nobody closed: its lines become `<trace>.partial` (none: nothing is kept)."""
    file.file.close()
    steps = sum(1 for _ in bounded_lines(file.temporary)) - 1
    if steps > 0:
        file.keep_as(path + ".partial")
        done = f"its {steps} step line(s) are kept as {path}.partial and no trace was written"
    else:
        file.discard()
        done = "it held no steps, so nothing was kept"
    warn_at(site, f"TraceWriter({path}) was never closed: {done}; call close() or use `with`")


def _check_argument(name: str, value: object, kind: type, expected: str) -> None:
    if isinstance(value, bool) or not isinstance(value, kind):
        raise ParityTypeError(f"TraceWriter: {name}: expected {expected}, found {value!r}")


def _check_modules(modules: str) -> None:
    """The header's `modules` names a file in the trace's folder or below it (the reader refuses a sidecar
    outside that folder, links included): not an absolute path, no `..` leading out, no NUL."""
    parts = os.path.normpath(modules).split(os.sep)
    if "\0" in modules or os.path.isabs(modules) or parts[0] == ".." or modules.strip() == "":
        raise ParityValueError(
            f"TraceWriter: modules: {modules!r} is outside the trace's folder: give the sidecar's file name relative "
            "to that folder, e.g. a.modules.safetensors (the reader refuses a sidecar outside it)"
        )


def _check_int(name: str, value: object) -> None:
    _check_argument(name, value, int, "an integer >= 1")
    if value < 1:  # type: ignore[operator]
        raise ParityValueError(f"TraceWriter: {name}: expected an integer >= 1, found {value!r}")


def _rows(value: Any, n: int) -> list[Any]:
    problem = f"found {type(value).__name__}"
    if not isinstance(value, (str, bytes)):
        try:
            return list(value)
        except TypeError:  # an int, a 0-d array or tensor
            problem = f"found {value!r}"
    raise ParityTypeError(
        f'step {n}: "codePredictorLogits" (code_predictor_logits): expected q-1 rows (a list of rows '
        f"or a [q-1, vocab] array), {problem}"
    )


def _row(value: Any, what: str) -> np.ndarray:
    row = as_row(value, what)
    if row.size == 0:
        raise ParityValueError(f"{what}: expected a row of at least one logit, found an empty row")
    return row


def _mono_samples(audio: ArrayLike) -> np.ndarray:
    """The audio as one row of float samples: integer PCM and several channels are refused, saying what to do."""
    array = as_numpy(audio, "TraceWriter.set_audio: audio")
    if np.issubdtype(array.dtype, np.integer):
        scale = (
            f", e.g. x / {2 ** (8 * array.dtype.itemsize - 1)}" if np.issubdtype(array.dtype, np.signedinteger) else ""
        )
        raise ParityValueError(f"TraceWriter.set_audio: audio is {array.dtype}: give float samples in [-1, 1]{scale}")
    if array.ndim == 0 or any(d != 1 for d in array.shape[:-1]):
        raise ParityValueError(
            f"TraceWriter.set_audio: audio: expected mono samples, 1-D or [1, ..., 1, N]; found "
            f"{list(array.shape)}: mix or pick a channel"
        )
    samples = np.array(as_row(array, "TraceWriter.set_audio: audio"), copy=True)
    check_samples(samples, "TraceWriter.set_audio: audio")
    return samples


def _codes(codes: Any, n: int, q: int) -> list[int]:
    array = as_numpy(codes, f'step {n}: "codes" (codes)').reshape(-1)
    if not np.issubdtype(array.dtype, np.integer):
        raise ParityValueError(f'step {n}: "codes" (codes): expected {q} integers, found dtype {array.dtype}')
    return [int(c) for c in array]


def _counts(
    talker_row: np.ndarray | None, hidden_array: np.ndarray | None, cp_rows: list[np.ndarray] | None
) -> dict[str, tuple[int, int]]:
    talker = np.add(
        count_non_finite(talker_row) if talker_row is not None else (0, 0),
        count_non_finite(hidden_array) if hidden_array is not None else (0, 0),
    )
    cp = np.sum([count_non_finite(row) for row in cp_rows], axis=0) if cp_rows else (0, 0)
    return {"talker": (int(talker[0]), int(talker[1])), "codePredictor": (int(cp[0]), int(cp[1])), "vocoder": (0, 0)}


def _stage_counts(given: Mapping[str, Any] | None, counted: dict[str, int], n: int, field: str) -> dict[str, int]:
    out = dict(counted)
    if given is not None:
        if not hasattr(given, "items"):
            raise ParityTypeError(
                f'step {n}: "{field}" ({field}): expected a dict of counts per stage '
                f"({', '.join(STAGES)}), found {type(given).__name__}"
            )
        unknown = sorted(set(given) - set(STAGES))
        if unknown:
            raise ParityValueError(
                f'step {n}: "{field}" ({field}): unknown stage "{unknown[0]}" (known: {", ".join(STAGES)})'
            )
        out.update({k: _count(v, f'step {n}: "{field}.{k}"') for k, v in given.items()})
    return out


def _count(value: Any, where: str) -> int:
    """A count given by the caller: an integer >= 0 (Python, numpy or a 0-d integer tensor), else refused."""
    array = as_numpy(value, where)
    if isinstance(value, bool) or array.ndim != 0 or not np.issubdtype(array.dtype, np.integer) or int(array) < 0:
        raise ParityValueError(f"{where}: expected a count (an integer >= 0), found {value!r}")
    return int(array)


def _times(times_ms: Mapping[str, Any], n: int) -> dict[str, float]:
    if not hasattr(times_ms, "items"):
        raise ParityTypeError(
            f'step {n}: "timesMs" (times_ms): expected a dict of ms per stage, found {type(times_ms).__name__}'
        )
    unknown = sorted(set(times_ms) - set(TIMED_STAGES))
    if unknown:
        raise ParityValueError(
            f'step {n}: "timesMs" (times_ms): unknown stage "{unknown[0]}" (known: {", ".join(TIMED_STAGES)})'
        )
    missing = [k for k in ("talker", "codePredictor") if k not in times_ms]
    if missing:
        raise ParityValueError(
            f'step {n}: "timesMs" (times_ms): "{missing[0]}" is missing (talker and codePredictor are '
            "required, vocoder is optional)"
        )
    return {k: _milliseconds(times_ms[k], f'step {n}: "timesMs.{k}"') for k in TIMED_STAGES if k in times_ms}


def _milliseconds(value: Any, where: str) -> float:
    array = as_numpy(value, where)
    if isinstance(value, bool) or array.ndim != 0 or not np.issubdtype(array.dtype, np.number):
        raise ParityValueError(f"{where}: expected a time in ms (a number), found {value!r}")
    return float(array)
