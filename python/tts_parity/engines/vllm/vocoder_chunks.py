"""The vocoder's chunks in the trace header (`vocoderChunks`, docs/trace-format.md). The Code2Wav stage knows them
(audio_recorder.py) but the talker stage writes the trace, in another process, and either may finish first: the
talker commits its trace when the scheduler reports the request finished, which can come before or after Code2Wav
decodes the last chunk. So both call `note_vocoder_chunks` under one lock (flock on the trace folder): Code2Wav
after each chunk with the list so far, the talker recorders once their trace is committed. The list waits in
`<trace>.vocoder-chunks.json` until the trace exists, then goes into the trace's header (the file rewritten
atomically) and the waiting file is removed; a later chunk rewrites the header again."""

from __future__ import annotations

import fcntl
import json
import os
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ..._lines import bounded_lines
from ..._output_files import AtomicFile
from ...trace_schema import check_header, encode_line

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["note_vocoder_chunks"]

WAITING = ".vocoder-chunks.json"


def note_vocoder_chunks(trace_path: str, chunks: list[dict[str, int]] | None = None) -> None:
    """Keeps `chunks` (when given) for the trace at `trace_path` and writes the kept list into its header once the
    trace exists.

    Args:
        trace_path: the talker's trace, `<folder>/<name>.jsonl`.
        chunks: every chunk so far, in order: `{"startSample", "samples"[, "leftContextFrames"]}` ints (header
            `vocoderChunks`); None from the talker side, which only looks for a waiting list.
    """
    waiting = trace_path + WAITING
    with _folder_lock(os.path.dirname(os.path.abspath(trace_path))):
        if chunks is not None:
            keep = AtomicFile(waiting, force=True, what="vLLM recorder: vocoder chunks", text=True)
            keep.file.write(json.dumps(chunks) + "\n")
            keep.commit()
        if not (os.path.isfile(trace_path) and os.path.isfile(waiting)):
            return
        with open(waiting, encoding="utf-8") as f:
            kept = json.load(f)
        _set_header(trace_path, "vocoderChunks", kept)
        os.remove(waiting)


def _set_header(trace_path: str, key: str, value: Any) -> None:
    """Rewrites the trace with `key` set in its header, a line at a time through the one bounded line reader."""
    lines = bounded_lines(trace_path)
    header = json.loads(next(lines))
    header[key] = value
    check_header(header)
    out = AtomicFile(trace_path, force=True, what="vLLM recorder: trace", text=True)
    try:
        out.file.write(encode_line(header, "header") + "\n")
        for line in lines:
            out.file.write(line + "\n")
    except BaseException:
        out.discard()
        raise
    out.commit()


@contextmanager
def _folder_lock(folder: str) -> Iterator[None]:
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # closing the descriptor releases the lock
