"""Names removed in 0.2 (issue 30: one vocabulary for the recorders), answered with what replaces them, so old
code fails at the first call with the new spelling rather than with a bare AttributeError."""

from __future__ import annotations

__all__ = ["removed_attribute"]

_REMOVED = {
    ("StepRecorder", "record"): "use `with recorder.step(n): recorder.log(talker_logits, codes, ...)`",
    (
        "StepRecorder",
        "capture",
    ): "call recorder.log(...) inside the step; wrap the warm-up and the CUDA-graph capture in "
    "`with recorder.graph_capture():`",
    (
        "StepRecorder",
        "flush_step",
    ): "wrap each replay in `with recorder.step(n):` (the line is written when the block ends)",
    ("StepRecorder", "buffers"): "the static buffers are internal now; see docs/python.md",
    ("StepRecorder", "graph_safe"): "there is one mode now; see docs/python.md",
    (
        "ModuleRecorder",
        "static",
    ): "wrap the warm-up and the CUDA-graph capture in `with recorder.graph_capture():` and each "
    "step (replay or call) in `with recorder.step(n):`",
    (
        "ModuleRecorder",
        "flush",
    ): "wrap each replay in `with recorder.step(n):` (the buffers are read when the block ends)",
    ("TraceWriter", "step"): "use tw.write_step(talker_logits, codes, ...)",
    (
        "HFTraceRecorder",
        "finish",
    ): "use rec.write_steps(codes), then tw.set_audio(audio) and close the writer you opened",
    ("StaticBuffers", "record"): "use buffers.write(name, tensor)",
    ("StaticBuffers", "flush"): "use buffers.read(names)",
}


def removed_attribute(owner: object, name: str) -> AttributeError:
    """The AttributeError for `owner.name`: naming the replacement when `name` was removed in 0.2."""
    cls = type(owner).__name__
    hint = _REMOVED.get((cls, name))
    if hint is None:
        return AttributeError(f"{cls!r} object has no attribute {name!r}")
    return AttributeError(f"{cls}.{name} was removed in tts_parity 0.2: {hint} (docs/python.md)")
