"""The Code2Wav stage's recorder: the audio each request's final stage produced, written as `<request>.wav` beside
the talker stage's `<request>.jsonl` (the trace's WAV; float32 by tts_parity's WAV writer). Chunks of a streamed
Code2Wav (async_chunk) are joined in the order the runner returned them; the file is rewritten (atomically) with
every chunk, so it is whole after the last one: the scheduler reports a request finished only with the next step
it schedules, which never comes after the last request. Each chunk's place in the audio (and the left context the
stage was given for it, `meta.left_context_size` in the forward's runtime_additional_information, as vLLM-Omni's
Qwen3-TTS and Higgs-Audio-v3 Code2Wav read it) goes to the trace header's `vocoderChunks` (vocoder_chunks.py).
A failure in writing (a full disk, an unexpected output) stops the recording of that request's audio, said in one
line on stderr (failsafe.py); the engine goes on."""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from ...wav import write_wav_float32
from ._lifecycle import close_with_runner
from .config import RecorderConfig, trace_name
from .failsafe import report, requests_label
from .vocoder_chunks import note_vocoder_chunks


class AudioRecorder:
    def __init__(self, runner: Any, config: RecorderConfig, stage: int | None) -> None:
        self.runner = runner
        self.config = config
        self.sample_rate = int(getattr(runner.model, "_output_sample_rate", 24000))
        self.chunks: dict[str, list[np.ndarray]] = {}
        self.places: dict[str, list[dict[str, int]]] = {}
        self._left_context: list[int | None] = []
        self.stopped: set[str] = set()
        os.makedirs(config.out_dir, exist_ok=True)
        sample_tokens = runner.sample_tokens
        forward = runner.model.forward

        def recorded_forward(*args: Any, **kwargs: Any) -> Any:
            try:
                infos = kwargs.get("runtime_additional_information") or []
                self._left_context = [_left_context(info) for info in infos]
            except Exception as error:  # the recorder never stops the engine (failsafe.py)
                self._left_context = []
                report("Code2Wav", "reading the chunks' left context", error, "chunks are recorded without it")
            return forward(*args, **kwargs)

        def recorded_sample_tokens(*args: Any, **kwargs: Any) -> Any:
            output = sample_tokens(*args, **kwargs)
            try:
                self._on_output(getattr(output, "model_runner_output", output))
            except Exception as error:  # the recorder never stops the engine (failsafe.py)
                self._stop(list(self.chunks), "reading the stage's audio output", error)
            return output

        runner.sample_tokens = recorded_sample_tokens
        close_with_runner(runner, self._finish)
        runner.model.forward = recorded_forward

    def _on_output(self, output: Any) -> None:
        payloads = getattr(output, "multimodal_outputs", None)
        req_ids = getattr(output, "req_ids", None)
        if not payloads or not req_ids or len(payloads) != len(req_ids):
            return
        for row, (req_id, payload) in enumerate(zip(req_ids, payloads)):
            if req_id in self.stopped or not self.config.wants_request(req_id):
                continue
            try:
                self._write(req_id, row, payload)
            except Exception as error:
                self._stop([req_id], "writing the audio", error)

    def _write(self, req_id: str, row: int, payload: Any) -> None:
        audio = payload.get("model_outputs") if isinstance(payload, dict) else None
        if audio is None:
            return
        samples = audio.detach().float().cpu().numpy().reshape(-1)
        if not samples.size:
            return
        chunks = self.chunks.setdefault(req_id, [])
        places = self.places.setdefault(req_id, [])
        place = {"startSample": sum(chunk.size for chunk in chunks), "samples": int(samples.size)}
        left = self._left_context[row] if row < len(self._left_context) else None
        if left is not None:
            place["leftContextFrames"] = left
        chunks.append(samples)
        places.append(place)
        stem = os.path.join(self.config.out_dir, trace_name(req_id))
        write_wav_float32(stem + ".wav", np.concatenate(chunks), self.sample_rate, force=True)
        note_vocoder_chunks(stem + ".jsonl", places)

    def _finish(self, req_id: str) -> None:
        self.chunks.pop(req_id, None)
        self.places.pop(req_id, None)
        self.stopped.discard(req_id)

    def _stop(self, req_ids: list[str], what: str, error: Exception) -> None:
        ids = [r for r in req_ids if r not in self.stopped]
        for req_id in ids:
            self.stopped.add(req_id)
            self.chunks.pop(req_id, None)
            self.places.pop(req_id, None)
        report(requests_label(ids), what, error, "its WAV is not written further; generation goes on")


def _left_context(info: Any) -> int | None:
    """The frames of left context a Code2Wav forward was given for one request (None when it was not said)."""
    meta = info.get("meta") if isinstance(info, dict) else None
    value = meta.get("left_context_size") if isinstance(meta, dict) else None
    if value is None:
        return None
    try:
        return max(0, int(value.item() if hasattr(value, "item") else value))
    except (TypeError, ValueError):
        return None
