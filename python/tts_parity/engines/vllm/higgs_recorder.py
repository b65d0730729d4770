"""Higgs-Audio-v3's talker recorder (vLLM-Omni 0.30.0, `HiggsAudioV3TalkerForConditionalGeneration`): its hook
points differ from the Qwen3-TTS talker's (talker_recorder.py), because the model samples for itself
(`prefer_model_sampler`: the runner calls `model.sample()`, not its sampler) and has no code predictor: one fused
head gives all eight codebooks of a step at once.

Where each field comes from, in one runner step:

- the eight raw rows: the output of `model.modality_head.generate(hidden)`, `[B, 8, 1026]`, called inside
  `sample()` before the delay-pattern masking (which writes into that tensor in place, so it is copied at once).
  Codebook 0's row is the trace's `logits`, codebooks 1..7 its `codePredictorLogits` (the format's name for the
  other codebooks' rows).
- the codes: what `sample()` staged for the step (`_last_audio_host_staging[:, :8]`), after the delay pattern:
  codebook k is BOC (1024) for the first k steps. The header's `codebookDelays` is [0, 1, ..., 7], so a reader
  maps step n's codebook k to frame n - k.
- rows to requests: row b of a step is the b-th scheduled request (`req_ids()`, the runner's
  `input_batch.req_ids` order), matched by id at every step.

Step 1 is the prefill's sample (its codebook-0 code starts frame 1); every decode step adds one. A trace closes
when `finish(req_id)` is called (the scheduler reporting the request finished) or at `close()`; the Code2Wav
stage's chunks then join its header (vocoder_chunks.py).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from ...trace_writer import TraceWriter
from ._lifecycle import close_with_runner
from .config import trace_name
from .vocoder_chunks import note_vocoder_chunks

if TYPE_CHECKING:
    from collections.abc import Callable

    import torch

    from .config import RecorderConfig

BOC_ID = 1024


class HiggsTalkerRecorder:
    """Records each request's steps into `<out_dir>/<name(req_id)>.jsonl`. `req_ids` returns the requests of the
    step in batch-row order; `engine` names the setting in the header; `wants(req_id)` picks the requests."""

    def __init__(
        self,
        model: Any,
        out_dir: str,
        req_ids: Callable[[], list[str]],
        *,
        engine: str,
        name: Callable[[str], str] = str,
        wants: Callable[[str], bool] = lambda req_id: True,
    ) -> None:
        self.model = model
        self.out_dir = out_dir
        self.req_ids = req_ids
        self.engine = engine
        self.name = name
        self.wants = wants
        self.q = int(model.num_codebooks)
        self.sample_rate = int(model.config.sample_rate)
        self.frame_rate = float(model.config.frame_rate)
        self.writers: dict[str, TraceWriter] = {}
        self._rows: torch.Tensor | None = None
        os.makedirs(out_dir, exist_ok=True)
        generate = model.modality_head.generate
        sample = model.sample

        def recorded_generate(hidden: torch.Tensor) -> torch.Tensor:
            logits = generate(hidden)
            self._rows = logits.detach().float().cpu()  # before the delay-pattern masking writes into it
            return logits

        def recorded_sample(logits: torch.Tensor, sampling_metadata: Any) -> Any:
            self._rows = None
            output = sample(logits, sampling_metadata)
            self._on_step()
            return output

        model.modality_head.generate = recorded_generate
        model.sample = recorded_sample

    def path(self, req_id: str) -> str:
        return os.path.join(self.out_dir, self.name(req_id) + ".jsonl")

    def _on_step(self) -> None:
        staged = getattr(self.model, "_last_audio_host_staging", None)
        rows = self._rows
        if staged is None or rows is None:
            return  # a step sample() ran without audio (the stock sampler path) or a dummy run
        req_ids = self.req_ids()
        if rows.shape[0] != len(req_ids) or staged.shape[0] < len(req_ids):
            return
        for row, req_id in enumerate(req_ids):
            if not int(staged[row, self.q]) or not self.wants(req_id):  # the row's valid flag: no audio this step
                continue
            writer = self.writers.get(req_id)
            if writer is None:
                writer = self.writers[req_id] = TraceWriter(
                    self.path(req_id),
                    engine=self.engine,
                    q=self.q,
                    frame_rate=self.frame_rate,
                    sample_rate=self.sample_rate,
                    codebook_delays=list(range(self.q)),
                    force=True,
                )
            writer.write_step(rows[row, 0], staged[row, : self.q].tolist(), code_predictor_logits=list(rows[row, 1:]))

    def finish(self, req_id: str) -> None:
        writer = self.writers.pop(req_id, None)
        if writer is not None:
            writer.close()
            note_vocoder_chunks(writer.path)  # the Code2Wav stage's chunks, when they came first

    def close(self) -> None:
        for req_id in list(self.writers):
            self.finish(req_id)


def attach_higgs(runner: Any, config: RecorderConfig, stage: int | None) -> HiggsTalkerRecorder:
    """The recorder inside vLLM-Omni's AR runner (runner_patch.py): rows in `input_batch.req_ids` order, traces
    named by request id, closed when the scheduler reports a request finished or the runner shuts down."""
    from .setting import engine_name, setting_header

    recorder = HiggsTalkerRecorder(
        runner.model,
        config.out_dir,
        lambda: list(runner.input_batch.req_ids),
        engine=engine_name(setting_header(runner, stage)),
        name=trace_name,
        wants=config.wants_request,
    )
    close_with_runner(runner, recorder.finish, recorder.close)
    return recorder
