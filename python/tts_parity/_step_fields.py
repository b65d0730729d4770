"""The one description of a step's fields, shared by `TraceWriter.write_step` and `StepRecorder.log` (as HF's
`add_start_docstrings` shares its Args), so the two docstrings cannot drift apart."""

from __future__ import annotations

from typing import Callable, TypeVar

__all__ = ["STEP_FIELDS_ARGS", "with_step_fields_args"]

STEP_FIELDS_ARGS = """
        Args:
            talker_logits: the talker's RAW logit row for codebook 0, `[vocab]` (or `[1, ..., 1, vocab]`), any float
                dtype (bfloat16 included), numpy, torch on any device, MLX or any array arrays.as_numpy reads: every
                id, special ids and EOS included, before any processing (no suppression mask, temperature, top-k/p or
                repetition penalty).
            codes: the frame's `q` codes, `[q]` integers (codes[0] from the talker, codes[1..q-1] from the code
                predictor), as a list, numpy array or integer tensor (inside StepRecorder.graph_capture(): a device
                tensor).
            code_predictor_logits: the `q-1` raw rows of the code predictor (codebooks 1..q-1), a list of
                `[vocab_cp]` rows or one `[q-1, vocab_cp]` array.
            hidden: any float tensor (e.g. the talker's last hidden state, `[hidden]`) whose statistics are kept.
            nan, inf: counts per stage `{"talker", "codePredictor", "vocoder"}`, each an int >= 0 (Python, numpy or a
                0-d integer tensor); a stage not given is counted from what the step holds (talker: logits
                + hidden; codePredictor: its rows; vocoder: this frame of the audio given to set_audio(), else 0).
                Host values: StepRecorder takes them inside step() only.
            times_ms: wall time per stage in ms, `{"talker", "codePredictor"[, "vocoder"]}`, finite numbers
                (StepRecorder: inside step() only).
"""

F = TypeVar("F", bound=Callable[..., object])


def with_step_fields_args(method: F) -> F:
    """Appends STEP_FIELDS_ARGS to `method`'s docstring (its summary says what the method does with them)."""
    method.__doc__ = (method.__doc__ or "").rstrip() + "\n" + STEP_FIELDS_ARGS
    return method
