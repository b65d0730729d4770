"""StepRecorder: a decode loop's steps into a TraceWriter, eagerly or from a captured CUDA graph, with one loop
(docs/python.md). The same vocabulary as ModuleRecorder: `with recorder.step(n):` around step n's work,
`with recorder.graph_capture():` around the warm-up and the capture of a CUDA graph, `close()` (or `with`).

Inside the step's work, `recorder.log(talker_logits=..., codes=..., ...)` gives the step's tensors:

- inside `step(n)` they are copied to the host and the line is written when the block ends (eager, or a
  static-buffer step called without a graph);
- inside `graph_capture()` they are copied into static device buffers (`Tensor.copy_`, allocated on first use);
  made while the stream captures, the copies are part of the graph, so every replay refreshes the buffers.
  A later `with recorder.step(n): graph.replay()` that logs no tensors writes the buffers as step n: the numbers
  the graph computed at that replay, not an eager re-run.

torch is imported only when graph_capture() is used.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

import numpy as np

from ._step_fields import with_step_fields_args
from ._steps import StepSequence
from .arrays import as_numpy
from .errors import ParityStateError, ParityTypeError
from .trace_writer import TraceWriter

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence

    from .arrays import ArrayLike
    from .static_buffers import StaticBuffers

__all__ = ["StepRecorder"]

TALKER = "talker_logits"
CODES = "codes"
HIDDEN = "hidden"
TENSOR_FIELDS = (TALKER, CODES, "code_predictor_logits", HIDDEN)
HOST_FIELDS = ("nan", "inf", "times_ms")


def _cp_name(i: int) -> str:
    return f"code_predictor_logits.{i}"


class StepRecorder:
    """Records step n's outputs into `writer` as trace line n.

    Args:
        writer: the TraceWriter the lines go to. The recorder never closes it: whoever opened a writer closes it
            (`with TraceWriter(...) as tw, StepRecorder(tw) as recorder:`).

    Steps are entered 1, 2, 3... in order, each once (1 = the prefill), continuing the writer's own numbering;
    a step entered twice, out of order, inside another step, or after close() raises ParityStateError naming it.
    """

    def __init__(self, writer: TraceWriter) -> None:
        if not isinstance(writer, TraceWriter):
            raise ParityTypeError(f"StepRecorder: writer: expected a TraceWriter, found {type(writer).__name__}")
        self.writer = writer
        self._sequence = StepSequence(f"StepRecorder({writer.path})", writer.steps_written)
        self._logged: dict[str, Any] = {}
        self._buffers: StaticBuffers | None = None
        self._cp_count: int | None = None  # rows logged into the buffers
        self._has_hidden = False
        self._graph_fed = False  # log() ran while a CUDA stream captured: replays refresh the buffers

    @contextlib.contextmanager
    def step(self, step: int) -> Iterator[StepRecorder]:
        """Step `step`'s work runs inside the block; when it ends without an exception the line is written, from
        what log() gave inside it or, after a CUDA graph was captured, from the buffers the replay refreshed.

        Args:
            step: the step number, 1 (the prefill), 2, 3... in order.
        """
        n = self._sequence.enter_step(step)
        if self.writer.closed:
            self._sequence.leave_step()
            raise ParityStateError(f"step {n}: the trace {self.writer.path} is closed")
        self._logged = {}
        try:
            yield self
            self._write(n)
        finally:
            self._logged = {}
            self._sequence.leave_step()

    @contextlib.contextmanager
    def graph_capture(self) -> Iterator[StepRecorder]:
        """Around each run of the step that prepares or makes a CUDA graph capture (the side-stream warm-up
        runs and the `torch.cuda.graph(g)` block): log() copies its tensors into static buffers, and the
        copies made while the stream captures become part of the graph. Not a step: nothing is written."""
        outer = self._sequence.enter_capture()
        try:
            yield self
        finally:
            self._sequence.leave_capture(outer)

    @with_step_fields_args
    def log(
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
        """Gives the current step's values; several calls in one step add up, a field given twice is refused."""
        given: dict[str, Any] = {
            TALKER: talker_logits,
            CODES: codes,
            "code_predictor_logits": code_predictor_logits,
            HIDDEN: hidden,
            "nan": nan,
            "inf": inf,
            "times_ms": times_ms,
        }
        given = {k: v for k, v in given.items() if v is not None}
        block = self._sequence.block
        if block == "graph_capture":
            self._log_into_buffers(given)
            return
        if block != "step":
            self._sequence.check_open("log")
            raise ParityStateError(
                f"step {self._sequence.last + 1}: StepRecorder.log() outside `with recorder.step(n):` "
                "and `with recorder.graph_capture():`"
            )
        n = self._sequence.current
        twice = [k for k in given if k in self._logged]
        if twice:
            raise ParityStateError(f'step {n}: StepRecorder.log(): "{twice[0]}" given twice in one step')
        for name, value in given.items():
            if name in HOST_FIELDS:
                self._logged[name] = value
            elif name == "code_predictor_logits":
                self._logged[name] = [
                    _host_copy(row, f"step {n}: StepRecorder.log(): {name}[{i}]") for i, row in enumerate(value)
                ]
            else:
                self._logged[name] = _host_copy(value, f"step {n}: StepRecorder.log(): {name}")

    def close(self) -> None:
        """Ends the recording: later calls are refused. The writer stays open (its opener closes it)."""
        self._sequence.closed = True

    def __enter__(self) -> StepRecorder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _log_into_buffers(self, given: dict[str, Any]) -> None:
        host = [k for k in given if k in HOST_FIELDS]
        if host:
            raise ParityStateError(
                f'StepRecorder.log(): "{host[0]}" inside graph_capture(): counts and times are host values; '
                "give them with log() inside `with recorder.step(n):` after the replay"
            )
        if self._buffers is None:
            from .static_buffers import StaticBuffers  # imports torch

            self._buffers = StaticBuffers()
        buffers = self._buffers
        first = next(iter(given.values()), None)
        if not self._graph_fed and getattr(first, "is_cuda", False):
            import torch

            self._graph_fed = torch.cuda.is_current_stream_capturing()
        for name, value in given.items():
            if name == "code_predictor_logits":
                rows = list(value)
                for i, row in enumerate(rows):
                    buffers.write(_cp_name(i), row, what=f"code_predictor_logits[{i}]")
                self._cp_count = len(rows)
            else:
                buffers.write(name, value, what=name)
                self._has_hidden = self._has_hidden or name == HIDDEN

    def _write(self, n: int) -> None:
        logged = self._logged
        if TALKER not in logged and self._graph_fed and self._buffers is not None and TALKER in self._buffers:
            names = (
                [TALKER, CODES]
                + [_cp_name(i) for i in range(self._cp_count or 0)]
                + ([HIDDEN] if self._has_hidden else [])
            )
            host = self._buffers.read(names)
            from_buffers: dict[str, Any] = {TALKER: host[TALKER], CODES: host[CODES]}
            if self._cp_count is not None:
                from_buffers["code_predictor_logits"] = [host[_cp_name(i)] for i in range(self._cp_count)]
            if self._has_hidden:
                from_buffers[HIDDEN] = host[HIDDEN]
            logged = {**from_buffers, **logged}
        missing = [k for k in (TALKER, CODES) if k not in logged]
        if missing:
            if not logged and self._buffers is not None:
                raise ParityStateError(
                    f"step {n}: nothing was logged, "
                    "and no CUDA graph captured inside graph_capture() refreshes the static buffers "
                    "(a graph_capture() block ran while no stream was capturing); "
                    "without a graph, call the step (which calls recorder.log()) inside `with recorder.step(n):`"
                )
            raise ParityStateError(
                f'step {n}: StepRecorder: "{missing[0]}" was not logged in the step; call '
                "recorder.log(talker_logits, codes, ...) inside `with recorder.step(n):`"
            )
        self.writer.write_step(
            logged[TALKER],
            logged[CODES],
            code_predictor_logits=logged.get("code_predictor_logits"),
            hidden=logged.get(HIDDEN),
            nan=logged.get("nan"),
            inf=logged.get("inf"),
            times_ms=logged.get("times_ms"),
        )


def _host_copy(value: Any, what: str) -> np.ndarray:
    """A host array the caller can no longer change (a CPU tensor's numpy() shares its memory, and so does a
    DLPack view of an MLX array); a lazy array is evaluated here, at the step that logs it."""
    return np.array(as_numpy(value, what), copy=True)
