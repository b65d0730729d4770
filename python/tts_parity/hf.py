"""Recording HF transformers `generate()` for a Qwen3-TTS-style talker and its code predictor
(docs/python.md). numpy only: transformers and torch are never imported; the objects below follow the
LogitsProcessor protocol (`__call__(input_ids, scores) -> scores`) and the forward-hook protocol
(`hook(module, inputs, output)`), so they plug into any transformers 4.x/5.x.

Which numbers: the trace wants the RAW logits — every id, special ids and EOS included, before any
processing. A LogitsProcessorList runs its processors in order, each on the scores the previous one
returned, so a recorder placed after RepetitionPenalty/Temperature/TopK/suppression would record the
processed scores: put `RawScoresRecorder` FIRST in the list you pass. Beware that generate() also builds
processors from the generation config (repetition_penalty, suppress_tokens, min_new_tokens, bad_words_ids,
…) and, in transformers 4.x, runs them BEFORE the list you pass (it appends yours to its own); a talker
whose config suppresses its special ids (Qwen3-TTS does) therefore hands any processor scores with −inf
at those ids. Where that is the case, record from the head itself: `recorder.forward_hook` registered on
the output layer (Qwen3-TTS: `talker.codec_head`, and each `code_predictor.lm_head[i]`) sees the raw rows
whatever generate() does. Both paths keep the same statistics.

Frames: Qwen3-TTS's talker samples code 0 of frame k at generate step k, and runs the code predictor
(its own inner generate, q−1 tokens) for frame k inside the forward of step k+1. The recorders only keep
the statistics of each row in call order; `HFTraceRecorder.write_steps(codes)` pairs them with the frames'
codes (which only the model's output holds) and writes the steps into the writer, which its opener closes.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from .arrays import as_numpy
from .errors import ParityStateError, ParityTypeError, ParityValueError
from .logit_stats import LogitStats, count_non_finite, logit_stats
from .trace_schema import json_stats
from .trace_writer import TraceWriter

if TYPE_CHECKING:
    from .arrays import ArrayLike

__all__ = ["HFTraceRecorder", "RawScoresRecorder"]


class RawScoresRecorder:
    """Keeps the statistics and NaN/Inf counts of one row per call, in call order; changes nothing.

    Args:
        batch_index: the row of a batch to record; None (the default) takes a batch of one and refuses a larger
            batch, which would otherwise record row 0 whatever utterance you meant.
        name: labels messages ("talker", "code predictor").
    """

    def __init__(self, batch_index: int | None = None, name: str = "scores") -> None:
        if batch_index is not None and (isinstance(batch_index, bool) or not isinstance(batch_index, int)):
            raise ParityTypeError(f"RawScoresRecorder: batch_index: expected an integer or None, found {batch_index!r}")
        self.batch_index = batch_index
        self.name = name
        self.stats: list[LogitStats] = []
        self.counts: list[tuple[int, int]] = []
        self._warned_neg_inf = False

    def __call__(self, input_ids: Any, scores: ArrayLike) -> ArrayLike:
        """LogitsProcessor protocol: the same `scores` object back, unchanged (nothing is written into it), so it
        can sit anywhere in a LogitsProcessorList.

        Args:
            input_ids: `[batch, sequence]` int64 (unused).
            scores: `[batch, vocab]` float, the row of each utterance at this generate step.
        """
        self._keep(scores, "scores")
        return scores

    def forward_hook(self, module: Any, inputs: Any, output: Any) -> None:
        """Forward-hook protocol for an output head: keeps the last position's row (the prefill's last position,
        or the decode step's only one).

        Args:
            module, inputs: as torch passes them (unused).
            output: `[batch, positions, vocab]` or `[batch, vocab]` float (or a tuple whose first element is).
        """
        logits = output[0] if isinstance(output, (tuple, list)) else output
        array = as_numpy(logits, f"RawScoresRecorder ({self.name}): output")
        self._keep(array[:, -1, :] if array.ndim == 3 else array, "output")
        return None

    def _keep(self, batch: ArrayLike, what: str) -> None:
        array = as_numpy(batch, f"RawScoresRecorder ({self.name}): {what}")
        if array.ndim != 2:
            raise ParityValueError(
                f"RawScoresRecorder ({self.name}): {what}: expected shape [batch, vocab], found {list(array.shape)}"
            )
        rows = array.shape[0]
        if self.batch_index is None and rows != 1:
            raise ParityValueError(
                f"RawScoresRecorder ({self.name}): {what} {list(array.shape)} is a batch of {rows} rows; "
                "pass batch_index= (HFTraceRecorder(writer, batch_index=i)) to choose the utterance to record"
            )
        index = 0 if self.batch_index is None else self.batch_index
        if not -rows <= index < rows:
            raise ParityValueError(
                f"RawScoresRecorder ({self.name}): batch_index {index} is outside the batch of {rows} rows"
            )
        row = array[index]
        self._warn_neg_inf(row, what)
        self.stats.append(logit_stats(row))
        self.counts.append(count_non_finite(row))

    def _warn_neg_inf(self, row: np.ndarray, what: str) -> None:
        """Raw logits are finite in a healthy model: -inf entries mean something masked the row first."""
        if self._warned_neg_inf:
            return
        masked = int(np.count_nonzero(np.isneginf(row)))
        if masked:
            self._warned_neg_inf = True
            cause = (
                (
                    "a logits processor that ran before this recorder (a suppression mask, bad_words_ids, "
                    "min_new_tokens...) probably masked it: put the recorder first, or record the head with "
                    "forward_hook (docs/python.md)"
                )
                if what == "scores"
                else "the head itself produced them"
            )
            warnings.warn(
                f"RawScoresRecorder ({self.name}): call {len(self.stats) + 1}'s row holds {masked} -inf "
                f"entries, but raw logits are finite in a healthy model; {cause}",
                stacklevel=4,
            )

    def clear(self) -> None:
        """Forgets the recorded rows."""
        self.stats.clear()
        self.counts.clear()


class HFTraceRecorder:
    """Pairs a talker's and a code predictor's recorded rows with the frames' codes and writes them as steps.

    talker: one call per generate step (frame k's code-0 row at call k; a final call that sampled EOS has no
    frame and is not written). code_predictor: q-1 calls per frame, frame after frame.

    Args:
        writer: the TraceWriter the steps go to. The recorder never closes it: whoever opened a writer closes it.
        batch_index: the utterance of a batch to record; None accepts a batch of one only.
    """

    def __init__(self, writer: TraceWriter, batch_index: int | None = None) -> None:
        if not isinstance(writer, TraceWriter):
            raise ParityTypeError(f"HFTraceRecorder: writer: expected a TraceWriter, found {type(writer).__name__}")
        self.writer = writer
        self.talker = RawScoresRecorder(batch_index, "talker")
        self.code_predictor = RawScoresRecorder(batch_index, "code predictor")

    def write_steps(self, codes: ArrayLike) -> None:
        """Writes one step per frame into the writer (which stays open: close it, or leave its `with` block).

        Args:
            codes: the generated frames, `[frames, q]` integers (e.g. Qwen3-TTS's talker codes of one utterance).
        """
        frames = as_numpy(codes, "HFTraceRecorder.write_steps: codes")
        q = self.writer.q
        if frames.ndim != 2 or frames.shape[1] != q:
            raise ParityValueError(
                f"HFTraceRecorder.write_steps: codes: expected shape [frames, {q}] (q), found {list(frames.shape)}"
            )
        if self.writer.steps_written:
            raise ParityStateError(
                f"step {self.writer.steps_written + 1}: HFTraceRecorder.write_steps: the writer already holds "
                f"{self.writer.steps_written} step(s); write_steps() writes a whole utterance from step 1, once"
            )
        n = frames.shape[0]
        talker_calls, cp_calls = len(self.talker.stats), len(self.code_predictor.stats)
        if talker_calls < n:
            raise ParityValueError(
                f"HFTraceRecorder.write_steps: codes: {n} frames but the talker recorder saw {talker_calls} "
                "calls (one per frame expected: is it in the talker's generate?)"
            )
        has_cp = cp_calls > 0 and q > 1
        if has_cp and cp_calls < n * (q - 1):
            raise ParityValueError(
                f"HFTraceRecorder.write_steps: codes: {n} frames need {n * (q - 1)} code-predictor calls "
                f"(q-1 per frame), found {cp_calls}"
            )
        for k in range(n):
            record: dict[str, Any] = {
                "step": k + 1,
                "logits": json_stats(self.talker.stats[k]),
                "codes": [int(c) for c in frames[k]],
            }
            nan, inf = self.talker.counts[k]
            cp_nan = cp_inf = 0
            if has_cp:
                rows = range(k * (q - 1), (k + 1) * (q - 1))
                record["codePredictorLogits"] = [json_stats(self.code_predictor.stats[i]) for i in rows]
                cp_nan = sum(self.code_predictor.counts[i][0] for i in rows)
                cp_inf = sum(self.code_predictor.counts[i][1] for i in rows)
            record["nan"] = {"talker": nan, "codePredictor": cp_nan, "vocoder": 0}
            record["inf"] = {"talker": inf, "codePredictor": cp_inf, "vocoder": 0}
            self.writer.write_record(record, fill_vocoder=True)
