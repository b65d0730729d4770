"""The Code2Wav stage's recorder: the audio each request's final stage produced, written as `<request>.wav` beside
the talker stage's `<request>.jsonl` (the trace's WAV; float32 by tts_parity's WAV writer). Chunks of a streamed
Code2Wav (async_chunk) are joined in the order the runner returned them; the file is rewritten (atomically) with
every chunk, so it is whole after the last one: the scheduler reports a request finished only with the next step
it schedules, which never comes after the last request. A failure in writing (a full disk, an unexpected output)
stops the recording of that request's audio, said in one line on stderr (failsafe.py); the engine goes on."""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from ...wav import write_wav_float32
from .config import RecorderConfig, trace_name
from .failsafe import report, requests_label


class AudioRecorder:
    def __init__(self, runner: Any, config: RecorderConfig, stage: int | None) -> None:
        self.runner = runner
        self.config = config
        self.sample_rate = int(getattr(runner.model, "_output_sample_rate", 24000))
        self.chunks: dict[str, list[np.ndarray]] = {}
        self.stopped: set[str] = set()
        os.makedirs(config.out_dir, exist_ok=True)
        sample_tokens = runner.sample_tokens
        update_states = runner._update_states

        def recorded_sample_tokens(*args: Any, **kwargs: Any) -> Any:
            output = sample_tokens(*args, **kwargs)
            try:
                self._on_output(getattr(output, "model_runner_output", output))
            except Exception as error:  # the recorder never stops the engine (failsafe.py)
                self._stop(list(self.chunks), "reading the stage's audio output", error)
            return output

        def recorded_update_states(scheduler_output: Any) -> Any:
            try:
                for req_id in scheduler_output.finished_req_ids:
                    self._finish(req_id)
            except Exception as error:
                self._stop(list(self.chunks), "reading the finished requests", error)
            return update_states(scheduler_output)

        runner.sample_tokens = recorded_sample_tokens
        runner._update_states = recorded_update_states

    def _on_output(self, output: Any) -> None:
        payloads = getattr(output, "multimodal_outputs", None)
        req_ids = getattr(output, "req_ids", None)
        if not payloads or not req_ids or len(payloads) != len(req_ids):
            return
        for req_id, payload in zip(req_ids, payloads):
            if req_id in self.stopped or not self.config.wants_request(req_id):
                continue
            try:
                self._write(req_id, payload)
            except Exception as error:
                self._stop([req_id], "writing the audio", error)

    def _write(self, req_id: str, payload: Any) -> None:
        audio = payload.get("model_outputs") if isinstance(payload, dict) else None
        if audio is None:
            return
        samples = audio.detach().float().cpu().numpy().reshape(-1)
        if samples.size:
            chunks = self.chunks.setdefault(req_id, [])
            chunks.append(samples)
            path = os.path.join(self.config.out_dir, trace_name(req_id) + ".wav")
            write_wav_float32(path, np.concatenate(chunks), self.sample_rate, force=True)

    def _finish(self, req_id: str) -> None:
        self.chunks.pop(req_id, None)
        self.stopped.discard(req_id)

    def _stop(self, req_ids: list[str], what: str, error: Exception) -> None:
        ids = [r for r in req_ids if r not in self.stopped]
        for req_id in ids:
            self.stopped.add(req_id)
            self.chunks.pop(req_id, None)
        report(requests_label(ids), what, error, "its WAV is not written further; generation goes on")
