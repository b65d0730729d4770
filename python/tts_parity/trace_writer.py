"""TraceWriter: writes a `tts-parity-trace/1` trace (docs/trace-format.md) and its WAV from a decode loop.
numpy only; takes numpy arrays or torch tensors (duck-typed: torch is never imported here).

    with TraceWriter("a.jsonl", engine="hf-4.57 eager", q=16, frame_rate=12.5, sample_rate=24000) as tw:
        for each frame:   # step 1 = the prefill, then one call per decode step
            tw.step(talker_logits_row, frame_codes, code_predictor_logits=[15 rows])
        tw.close(audio)   # or leave the block: the trace (and the WAV, if audio was given) appear then

Every line is checked (trace_schema: the generated JSON Schema plus the rules it cannot say), so a trace
this writes is one `parity compare-trace` reads. The rules (step numbers, q codes, q−1 code-predictor
entries, no bare NaN) are checked as each line is written; for the lines step() builds itself, the
JSON Schema check (about 2 ms a step with jsonschema 4.10, more than the statistics) runs at close(),
before the trace is renamed into place, to keep it out of the decode loop; write_record()'s lines, whose
structure comes from the caller, are checked at once. The files are written under a temporary name and
renamed on close; if the `with` block (or close's check) fails, the lines so far are kept as
`<trace>.partial` for inspection and no trace appears under the real name. A writer dropped without
close() (garbage collection, interpreter exit) does the same and warns, naming the line that created it.
"""

import os
import weakref

import numpy as np

from .arrays import as_numpy, as_row
from .logit_stats import count_non_finite, hidden_stats, logit_stats
from .trace_schema import TRACE_SCHEMA, check_header, check_step, check_step_schema, encode_line, json_stats
from .unclosed import creation_site, warn_at
from .wav import write_wav_float32

STAGES = ("talker", "codePredictor", "vocoder")
TIMED_STAGES = ("talker", "codePredictor", "vocoder")


class TraceWriter:
    def __init__(self, path, *, engine, q, frame_rate, sample_rate, profile=None, seed=None, text=None, modules=None, teacher_forced=None,
                 codebook_delays=None):
        """Opens the trace. `modules` names a module-output sidecar (`*.modules.safetensors`) relative to
        the trace's folder, written by tts_parity's module recorder. `teacher_forced` names the run whose
        codes this run was fed instead of its own picks (header `teacherForced`; then give step() the
        run's own picks as `codes`; docs/forensics.md "Teacher forcing"). `codebook_delays` (q integers
        >= 0, header `codebookDelays`): a delay-pattern model (MusicGen, Dia) emits codebook k of frame f at
        step f + codebook_delays[k]; each step's `codes` are then what that step emitted (docs/trace-format.md
        "Delay patterns"). The other fields are the header's."""
        self.path = os.fspath(path)
        self.wav_path = None
        self.q = q
        self.sample_rate = sample_rate
        self.frame_rate = frame_rate
        self.steps_written = 0
        header = {"schema": TRACE_SCHEMA, "engine": engine, "q": q, "frameRate": frame_rate, "sampleRate": sample_rate}
        optional = {"profile": profile, "seed": seed, "text": text, "modules": modules, "teacherForced": teacher_forced,
                    "codebookDelays": None if codebook_delays is None else [int(d) for d in codebook_delays]}
        header.update({k: v for k, v in optional.items() if v is not None})
        check_header(header)
        if codebook_delays is not None and len(header["codebookDelays"]) != q:
            raise ValueError(f'header: "codebookDelays": expected {q} delays (q), found {len(header["codebookDelays"])}')
        self._header = header
        self._records = []  # kept to fill the vocoder counts from the audio at close
        self._vocoder_fill = []
        self._schema_deferred = []  # step() records: checked against the JSON Schema at close
        self._temporary = f"{self.path}.tmp-{os.getpid()}"
        self._file = open(self._temporary, "w", encoding="utf-8", newline="\n")
        self._finalizer = weakref.finalize(self, _keep_unclosed, self._file, self._temporary, self.path, creation_site())
        self._write_line(header)

    def step(self, talker_logits, codes, *, code_predictor_logits=None, nan=None, inf=None, times_ms=None, hidden=None):
        """Records the next step (1 = the prefill that yields frame 1, then one per decode step).

        talker_logits: the talker's RAW logit row for codebook 0 — every id, special ids and EOS included,
            before any processing (no suppression mask, temperature, top-k/p or repetition penalty).
        codes: the frame's q codes (codes[0] from the talker, codes[1..q-1] from the code predictor).
        code_predictor_logits: the q−1 raw rows of the code predictor (codebooks 1..q-1), or None.
        nan, inf: counts per stage {talker, codePredictor, vocoder}; a stage not given is counted here from
            what this call holds (talker: logits + hidden; codePredictor: its rows; vocoder: the audio
            of this frame at close, else 0).
        times_ms: wall time per stage in ms, {talker, codePredictor[, vocoder]}.
        hidden: a hidden-state tensor (e.g. the talker's last hidden state) whose statistics are recorded.
        """
        n = self.steps_written + 1
        if self._file is None:
            raise ValueError(f"step {n}: the trace {self.path} is closed")
        talker_row = as_row(talker_logits, f'step {n}: "logits"')
        record = {"step": n, "logits": json_stats(logit_stats(talker_row)), "codes": _codes(codes, n)}
        cp_rows = None
        if code_predictor_logits is not None:
            cp_rows = [as_row(row, f'step {n}: "codePredictorLogits.{i}"') for i, row in enumerate(code_predictor_logits)]
            if len(cp_rows) != self.q - 1:  # checked before computing q statistics for nothing
                raise ValueError(f'step {n}: "codePredictorLogits": expected {self.q - 1} entries (q−1), found {len(cp_rows)}')
            record["codePredictorLogits"] = [json_stats(logit_stats(row)) for row in cp_rows]
        hidden_array = None if hidden is None else as_numpy(hidden)
        counted = _counts(talker_row, hidden_array, cp_rows)
        record["nan"] = _stage_counts(nan, {s: c[0] for s, c in counted.items()}, n, "nan")
        record["inf"] = _stage_counts(inf, {s: c[1] for s, c in counted.items()}, n, "inf")
        if times_ms is not None:
            record["timesMs"] = _times(times_ms, n)
        if hidden_array is not None:
            record["hidden"] = json_stats(hidden_stats(hidden_array))
        self._append(record, (nan is None or "vocoder" not in nan, inf is None or "vocoder" not in inf), schema_now=False)

    def write_record(self, record, *, fill_vocoder=False):
        """Writes one step record as is (for engines that compute the statistics themselves): checked
        like every line, so steps must be numbered 1, 2, 3… and non-finite numbers must be strings.
        fill_vocoder=True: the record's nan/inf "vocoder" counts are replaced at close() by the counts of
        this frame's samples of the audio (a (nan, inf) pair of booleans chooses per count)."""
        self._append(record, fill_vocoder if isinstance(fill_vocoder, tuple) else (fill_vocoder, fill_vocoder), schema_now=True)

    def _append(self, record, fill_vocoder, schema_now):
        n = self.steps_written + 1
        if self._file is None:
            raise ValueError(f"step {n}: the trace {self.path} is closed")
        check_step(record, n, self.q, schema=schema_now)
        line = encode_line(record, f"step {n}")
        self._file.write(line + "\n")
        self._records.append(record)
        self._vocoder_fill.append(fill_vocoder)
        if not schema_now:
            self._schema_deferred.append(record)
        self.steps_written = n

    def close(self, audio=None, wav_path=None):
        """Finishes the trace and, with `audio` (mono, sample_rate), writes the WAV as float32 to `wav_path`
        (default: the trace path with `.wav`). The vocoder NaN/Inf counts of steps that did not give them
        are counted from each frame's samples. Both files appear under their names only now."""
        if self._file is None:
            return
        if self.steps_written == 0:
            self._abandon()
            raise ValueError(f"{self.path}: no steps were recorded (a trace needs at least step 1, the prefill)")
        samples = None if audio is None else _mono_samples(audio)
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
        if samples is not None:
            self.wav_path = os.fspath(wav_path) if wav_path is not None else os.path.splitext(self.path)[0] + ".wav"
            write_wav_float32(self.wav_path, samples, self.sample_rate)
        self._release()
        os.replace(self._temporary, self.path)

    def __enter__(self):
        return self

    def __exit__(self, kind, error, traceback):
        if kind is None:
            self.close()
        elif self._file is not None:
            self._keep_partial()
        return False

    def _release(self):
        self._finalizer.detach()
        self._file.close()
        self._file = None

    def _keep_partial(self):
        self._release()
        os.replace(self._temporary, self.path + ".partial")

    def _write_line(self, value):
        where = "header" if value is self._header else f"step {value.get('step')}"
        self._file.write(encode_line(value, where) + "\n")

    def _fill_vocoder_counts(self, samples):
        """Frame f holds samples [f·sr/fr, (f+1)·sr/fr) (rounded), as the engine counts them."""
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

    def _rewrite(self):
        self._file.seek(0)
        self._file.truncate()
        self._write_line(self._header)
        for record in self._records:
            self._write_line(record)

    def _abandon(self):
        self._release()
        os.remove(self._temporary)


def _keep_unclosed(file, temporary, path, site):
    """The finalizer of a writer nobody closed: its lines become `<trace>.partial` (none: nothing is kept)."""
    file.close()
    with open(temporary, encoding="utf-8") as lines:
        steps = sum(1 for _ in lines) - 1
    if steps > 0:
        os.replace(temporary, path + ".partial")
        done = f"its {steps} step line(s) are kept as {path}.partial and no trace was written"
    else:
        os.remove(temporary)
        done = "it held no steps, so nothing was kept"
    warn_at(site, f"TraceWriter({path}) was never closed: {done}; call close() or use `with`")


def _mono_samples(audio):
    """The audio as one row of float samples: integer PCM and several channels are refused, saying what to do."""
    array = as_numpy(audio)
    if np.issubdtype(array.dtype, np.integer):
        scale = f", e.g. x / {2 ** (8 * array.dtype.itemsize - 1)}" if np.issubdtype(array.dtype, np.signedinteger) else ""
        raise ValueError(f"audio is {array.dtype}: give float samples in [−1, 1]{scale}")
    if array.ndim == 0 or any(d != 1 for d in array.shape[:-1]):
        raise ValueError(f"audio: expected mono samples, 1-D or [1, …, 1, N]; found {list(array.shape)}: mix or pick a channel")
    return as_row(array, "audio")


def _codes(codes, n):
    array = as_numpy(codes).reshape(-1)
    if not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f'step {n}: "codes": expected integers, found dtype {array.dtype}')
    return [int(c) for c in array]


def _counts(talker_row, hidden_array, cp_rows):
    talker = np.add(count_non_finite(talker_row), count_non_finite(hidden_array) if hidden_array is not None else (0, 0))
    cp = np.sum([count_non_finite(row) for row in cp_rows], axis=0) if cp_rows else (0, 0)
    return {"talker": tuple(int(x) for x in talker), "codePredictor": tuple(int(x) for x in cp), "vocoder": (0, 0)}


def _stage_counts(given, counted, n, field):
    out = dict(counted)
    if given is not None:
        unknown = sorted(set(given) - set(STAGES))
        if unknown:
            raise ValueError(f'step {n}: "{field}": unknown stage "{unknown[0]}" (known: {", ".join(STAGES)})')
        out.update({k: _count(v, f'step {n}: "{field}.{k}"') for k, v in given.items()})
    return out


def _count(value, where):
    """A count given by the caller: an integer >= 0 (Python, numpy or a 0-d integer tensor), else refused."""
    array = as_numpy(value)
    if isinstance(value, bool) or array.ndim != 0 or not np.issubdtype(array.dtype, np.integer) or int(array) < 0:
        raise ValueError(f"{where}: expected a count (an integer >= 0), found {value!r}")
    return int(array)


def _times(times_ms, n):
    unknown = sorted(set(times_ms) - set(TIMED_STAGES))
    if unknown:
        raise ValueError(f'step {n}: "timesMs": unknown stage "{unknown[0]}" (known: {", ".join(TIMED_STAGES)})')
    missing = [k for k in ("talker", "codePredictor") if k not in times_ms]
    if missing:
        raise ValueError(f'step {n}: "timesMs": "{missing[0]}" is missing (talker and codePredictor are required, vocoder is optional)')
    return {k: _milliseconds(times_ms[k], f'step {n}: "timesMs.{k}"') for k in TIMED_STAGES if k in times_ms}


def _milliseconds(value, where):
    array = as_numpy(value)
    if isinstance(value, bool) or array.ndim != 0 or not np.issubdtype(array.dtype, np.number):
        raise ValueError(f"{where}: expected a time in ms (a number), found {value!r}")
    return float(array)
