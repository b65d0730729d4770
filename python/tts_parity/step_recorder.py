"""StepRecorder: records a hand-written decode loop (prefill + KV-cached decode steps) into a TraceWriter,
eagerly or CUDA-graph-safe (docs/python.md). torch is imported only in graph-safe mode.

Eager (`graph_safe=False`): after each step, `recorder.record(talker_logits, codes, ...)` writes the line
from the tensors as they are.

Graph-safe (`graph_safe=True`): the step that is captured calls `recorder.capture(talker_logits=...,
codes=..., code_predictor_logits=...)`; this copies the tensors into static device buffers (StaticBuffers),
and during CUDA-graph capture those copies become part of the graph. After each replay the loop calls
`recorder.flush_step()`, which reads the buffers and writes the line: the trace holds the numbers the graph
computed at that replay, not an eager re-run. The same calls work without a graph (the eager prefill, or
a CPU run of the static-buffer step), so one loop serves both modes. Without a capture, flush_step()
refuses buffers no capture() call has written since the previous flush (they would repeat a step); once
capture() has run inside a CUDA-graph capture, the replays write the buffers unseen and that check is off.
"""

from .trace_writer import TraceWriter

TALKER = "talker_logits"
CODES = "codes"
HIDDEN = "hidden"


def _cp_name(i):
    return f"code_predictor_logits.{i}"


class StepRecorder:
    def __init__(self, writer, *, graph_safe=False):
        """writer: a TraceWriter (closing it stays the caller's job: `writer.close(audio)`)."""
        if not isinstance(writer, TraceWriter):
            raise TypeError(f"StepRecorder: expected a TraceWriter, found {type(writer).__name__}")
        self.writer = writer
        self.graph_safe = graph_safe
        self._cp_count = None
        self._has_hidden = False
        self._refreshed = False  # capture() ran since the last flush_step()
        self._graph_fed = False  # capture() ran inside a CUDA-graph capture: replays refresh the buffers
        if graph_safe:
            from .static_buffers import StaticBuffers  # imports torch

            self.buffers = StaticBuffers()

    def record(self, talker_logits, codes, *, code_predictor_logits=None, hidden=None, nan=None, inf=None, times_ms=None):
        """Eager mode: writes the next step's line from these tensors (see TraceWriter.step)."""
        if self.graph_safe:
            raise ValueError("StepRecorder(graph_safe=True): call capture() inside the step and flush_step() after it, not record()")
        self.writer.step(talker_logits, codes, code_predictor_logits=code_predictor_logits, nan=nan, inf=inf, times_ms=times_ms, hidden=hidden)

    def capture(self, *, talker_logits, codes, code_predictor_logits=None, hidden=None):
        """Graph-safe mode, inside the step: copies the raw talker row, the q codes (a device tensor), the
        q−1 code-predictor rows (a list of rows or one [q−1, V] tensor) and optionally a hidden state into
        static buffers. Captured in a CUDA graph, the copies run at every replay. No host sync, no allocation
        after the first call."""
        if not self.graph_safe:
            raise ValueError("StepRecorder(graph_safe=False): call record() after each step (or create it with graph_safe=True)")
        if not self._graph_fed and getattr(talker_logits, "is_cuda", False):
            import torch

            self._graph_fed = torch.cuda.is_current_stream_capturing()
        self.buffers.record(TALKER, talker_logits)
        self.buffers.record(CODES, codes)
        if code_predictor_logits is not None:
            rows = list(code_predictor_logits)
            for i, row in enumerate(rows):
                self.buffers.record(_cp_name(i), row)
            self._cp_count = len(rows)
        if hidden is not None:
            self.buffers.record(HIDDEN, hidden)
            self._has_hidden = True
        self._refreshed = True

    def flush_step(self, *, nan=None, inf=None, times_ms=None):
        """Graph-safe mode, after each replay (or eager call) of the step: writes the next line from the
        buffers. Reading a CUDA buffer waits for the replay queued before it on the current stream."""
        if not self.graph_safe:
            raise ValueError("StepRecorder(graph_safe=False): flush_step() belongs to graph-safe mode; use record()")
        if TALKER not in self.buffers:
            raise ValueError(f"step {self.writer.steps_written + 1}: flush_step() before any capture(): nothing was recorded")
        names = [TALKER, CODES]
        if self._cp_count is not None:
            names += [_cp_name(i) for i in range(self._cp_count)]
        if self._has_hidden:
            names.append(HIDDEN)
        if not (self._refreshed or self._graph_fed):
            raise ValueError(f"step {self.writer.steps_written + 1}: flush_step() with no capture() since the last flush_step(): the buffers "
                             "still hold the previous step; without a captured CUDA graph, run the step (which calls capture()) before each flush_step()")
        self._refreshed = False
        host = self.buffers.flush(names)
        cp = None if self._cp_count is None else [host[_cp_name(i)] for i in range(self._cp_count)]
        self.writer.step(host[TALKER], host[CODES], code_predictor_logits=cp, nan=nan, inf=inf, times_ms=times_ms,
                         hidden=host.get(HIDDEN))
