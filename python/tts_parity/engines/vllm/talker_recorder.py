"""The talker stage's recorder: one tts-parity-trace/1 per request, written inside the worker that holds the model.

Where each field comes from, in one model-runner step of vLLM-Omni's AR runner (V1):

- `logits` (codebook 0): the output of the talker's `logits_processor` (vLLM's LogitsProcessor: lm_head applied to
  the hidden states at the runner's logits_indices), one row per scheduled request in `input_batch.req_ids` order.
  That is the raw row of the format: Qwen3-TTS's `compute_logits` masks the disallowed codec ids right after it,
  and the sampler applies penalties, temperature and top-k after that. (A forward hook on the runner's `sampler`
  sees the masked row instead.)
- `codePredictorLogits` and `codes`: the code predictor runs at the start of the NEXT runner step, inside
  `_talker_mtp_forward(decode_req_ids, ...)`, on the code 0 just sampled; its row b is request decode_req_ids[b].
  Hooks on its q-1 `lm_head` modules (vLLM-Omni's common/qwen3_code_predictor.py calls `lm_heads[g-1](hidden)`
  for group g) give the raw rows before argmax/sampling; the frame's q codes are `talker_mtp`'s output.

So trace step n of a request is: the talker row of its n-th sampled step (step 1 = the prefill) with the frame
that row's code 0 starts. Rows are matched to requests by id at every step, never by batch position: the batch
reorders as requests join, finish and are condensed. A request's last talker row that no frame follows (its EOS,
or max_tokens) is written as a logits-only step.

The trace is closed when the scheduler reports the request finished; the Code2Wav stage (another process) writes
the WAV beside it (audio_recorder.py), so the trace's per-step vocoder NaN/Inf counts are not counted here (0).

Every hook body runs guarded (failsafe.py): a failure stops recording for the requests it concerns, says so in
one line on stderr, keeps their lines so far as `<id>.jsonl.partial`, and the engine goes on.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import torch

from ...trace_writer import TraceWriter
from ._lifecycle import close_with_runner
from .batch_stats import batch_logit_stats
from .config import RecorderConfig, trace_name
from .failsafe import report, requests_label
from .module_tap import ModuleTap
from .setting import engine_name, setting_header, unseen_under_graphs
from .vocoder_chunks import note_vocoder_chunks

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

logger = logging.getLogger("tts_parity.vllm")


_Row = tuple[dict[str, Any], int, int]  # a row's statistics as the trace holds them, its NaN and Inf counts


@dataclass
class _Request:
    writer: TraceWriter
    pending: _Row | None = None  # the talker row whose frame the code predictor has not made yet
    steps: int = 0
    modules: list[dict[str, torch.Tensor]] = field(default_factory=list)


class TalkerRecorder:
    def __init__(self, runner: Any, config: RecorderConfig, stage: int | None) -> None:
        self.runner = runner
        self.config = config
        self.stage = stage
        model = runner.model
        self.q = int(model.talker_config.num_code_groups)
        self.frame_rate, self.sample_rate = _codec_rates(runner.vllm_config.model_config.model)
        self.header: dict[str, Any] | None = None  # read at the first request: attention is set up after loading
        self.unseen = unseen_under_graphs(runner)
        self.requests: dict[str, _Request] = {}
        self.stopped: set[str] = set()  # requests whose recording failed: never recorded again
        # (group, rows) from the lm_head hooks inside _talker_mtp_forward, in call order
        self._cp_rows: list[tuple[int, torch.Tensor]] | None = None
        self._cp_req_ids: list[str] | None = None
        self._frames: torch.Tensor | None = None
        os.makedirs(config.out_dir, exist_ok=True)
        self.taps = ModuleTap(model, config, runner, self._guarded, self._step_recorded) if config.modules else None

        model.logits_processor.register_forward_hook(self._on_talker_logits)
        runner.sampler.register_forward_hook(self._on_sampled)
        for group, head in enumerate(model.code_predictor.lm_head, start=1):
            head.register_forward_hook(self._cp_hook(group))
        self._wrap_runner()

    # ---- hooks --------------------------------------------------------------------------------------------------

    def _on_talker_logits(self, module: Any, inputs: Any, logits: torch.Tensor) -> None:
        with self._guarded("reading the talker's logits"):
            self._talker_logits(logits)

    def _talker_logits(self, logits: torch.Tensor) -> None:
        req_ids = list(self.runner.input_batch.req_ids)
        if logits is None or logits.dim() != 2 or logits.shape[0] != len(req_ids):
            return  # a profile or dummy run, or a layout this recorder does not read (speculative rows)
        wanted = [row for row, req_id in enumerate(req_ids) if self._request(req_id) is not None]
        if not wanted:
            return
        stats = batch_logit_stats(logits[wanted])
        taps = self.taps.take_talker(req_ids) if self.taps else None
        for row, row_stats in zip(wanted, stats):
            with self._guarded("writing a talker step", [req_ids[row]]):
                request = self.requests[req_ids[row]]
                if request.pending is not None:  # a row that no frame followed: chunked prefill or a dropped sample
                    self._write(request, request.pending, None, None)
                request.pending = row_stats
                if taps is not None:
                    request.modules.append(taps.get(req_ids[row], {}))

    def _on_sampled(self, module: Any, inputs: Any, output: Any) -> None:
        """Closes the trace of a request whose code 0 just ended it, by the scheduler's own stop rules (check_stop:
        EOS or a stop id, max_tokens, max_model_len): the scheduler says so only with the next step it schedules,
        which never comes after the last request."""
        with self._guarded("reading the sampled code 0"):
            self._sampled(output)

    def _sampled(self, output: Any) -> None:
        sampled = getattr(output, "sampled_token_ids", None)
        req_ids = list(self.runner.input_batch.req_ids)
        if sampled is None or sampled.shape[0] != len(req_ids):
            return
        tokens = sampled[:, 0].tolist()
        max_model_len = self.runner.vllm_config.model_config.max_model_len
        for req_id, token in zip(req_ids, tokens):
            state = self.runner.requests.get(req_id)
            if req_id not in self.requests or state is None or state.sampling_params is None:
                continue
            params = state.sampling_params
            outputs = len(state.output_token_ids) + 1
            if (
                token == params.eos_token_id
                or token in (params.stop_token_ids or ())
                or outputs >= (params.max_tokens or max_model_len)
                or len(state.prompt_token_ids or ()) + outputs >= max_model_len
            ):
                self._finish(req_id)

    def _cp_hook(self, group: int) -> Any:
        def hook(module: Any, inputs: Any, logits: torch.Tensor) -> None:
            with self._guarded(f"reading the code predictor's group {group} row", self._cp_req_ids):
                if self._cp_rows is not None:
                    self._cp_rows.append((group, logits.detach()))

        return hook

    def _wrap_runner(self) -> None:
        runner = self.runner
        talker_mtp_forward = runner._talker_mtp_forward
        talker_mtp = runner.talker_mtp

        def recorded_talker_mtp(*args: Any, **kwargs: Any) -> Any:
            output = talker_mtp(*args, **kwargs)
            with self._guarded("reading the frame's codes", self._cp_req_ids):
                self._frames = output[1].detach().cpu()
            return output

        def recorded_talker_mtp_forward(decode_req_ids: list[str], *args: Any, **kwargs: Any) -> Any:
            outer = (self._cp_rows, self._cp_req_ids, self._frames)
            self._cp_rows, self._cp_req_ids, self._frames = [], list(decode_req_ids), None
            with self._guarded("starting the code predictor's module taps", self._cp_req_ids):
                if self.taps is not None:
                    self.taps.begin_code_predictor()
            try:
                return talker_mtp_forward(decode_req_ids, *args, **kwargs)
            finally:
                with self._guarded("writing the code predictor's frame", self._cp_req_ids):
                    taps = self.taps.take_code_predictor(self._cp_req_ids) if self.taps is not None else None
                    if self._frames is not None:
                        self._on_frames(self._cp_req_ids, self._frames, self._cp_rows, taps)
                self._cp_rows, self._cp_req_ids, self._frames = outer

        runner._talker_mtp_forward = recorded_talker_mtp_forward
        runner.talker_mtp = recorded_talker_mtp
        close_with_runner(runner, self._finish, self.close)

    # ---- per request --------------------------------------------------------------------------------------------

    def _on_frames(
        self,
        req_ids: list[str],
        frames: torch.Tensor,
        cp_rows: list[tuple[int, torch.Tensor]] | None,
        taps: dict[str, dict[str, torch.Tensor]] | None,
    ) -> None:
        wanted = [
            row
            for row, req_id in enumerate(req_ids)
            if self.requests.get(req_id) is not None and self.requests[req_id].pending is not None
        ]
        if not wanted:
            return
        groups = self.q - 1
        cp_stats = None
        # One lm_head call per group, on the whole decode batch, is what vLLM-Omni's predictor does; anything else
        # (a predictor called per subset of rows) cannot be mapped to rows here, and the rows are left out.
        if (
            cp_rows is not None
            and [g for g, _ in cp_rows] == list(range(1, groups + 1))
            and all(t.shape[0] >= len(req_ids) for _, t in cp_rows)
        ):  # [groups, batch, vocab] -> wanted rows, group-major
            stacked = torch.stack([t[: len(req_ids)] for _, t in cp_rows])[:, wanted]
            flat = batch_logit_stats(stacked.reshape(-1, stacked.shape[-1]))
            cp_stats = [[flat[g * len(wanted) + i] for g in range(groups)] for i in range(len(wanted))]
        codes = frames.tolist()
        for i, row in enumerate(wanted):
            with self._guarded("writing a frame", [req_ids[row]]):
                request = self.requests[req_ids[row]]
                pending, request.pending = request.pending, None
                if pending is None:
                    continue
                if taps is not None and request.modules:
                    request.modules[-1].update(taps.get(req_ids[row], {}))
                self._write(request, pending, codes[row], None if cp_stats is None else cp_stats[i])

    def _step_recorded(self) -> bool:
        return any(
            r in self.requests or (r not in self.stopped and self.config.wants_request(r))
            for r in self.runner.input_batch.req_ids
        )

    def _request(self, req_id: str) -> _Request | None:
        request = self.requests.get(req_id)
        if request is None and req_id not in self.stopped and self.config.wants_request(req_id):
            with self._guarded("opening the trace", [req_id]):
                request = self._open(req_id)
        return request

    def _open(self, req_id: str) -> _Request:
        if self.header is None:
            self.header = {**setting_header(self.runner, self.stage), "notSeen": self.unseen}
        stem = os.path.join(self.config.out_dir, trace_name(req_id))
        modules = os.path.basename(stem) + ".modules.safetensors" if self.taps else None
        writer = TraceWriter(
            stem + ".jsonl",
            engine=engine_name(self.header),
            q=self.q,
            frame_rate=self.frame_rate,
            sample_rate=self.sample_rate,
            modules=modules,
            extra_header={"requestId": req_id, "vllm": self.header},
            force=True,
        )
        request = self.requests[req_id] = _Request(writer)
        return request

    def _write(self, request: _Request, talker: _Row, codes: list[int] | None, cp: list[_Row] | None) -> None:
        """One trace line from the step's statistics. The JSON Schema check is left out (write_record's schema=False:
        it cost a quarter of the recorder's step); the structure is this function's, and the vLLM suite checks every
        line the recorder writes against the schema (parity compare-trace reads each)."""
        record: dict[str, Any] = {"step": request.writer.steps_written + 1, "logits": talker[0]}
        if codes is not None:
            record["codes"] = codes
        cp_nan = cp_inf = 0
        if cp is not None:
            record["codePredictorLogits"] = [row[0] for row in cp]
            cp_nan, cp_inf = sum(row[1] for row in cp), sum(row[2] for row in cp)
        record["nan"] = {"talker": talker[1], "codePredictor": cp_nan, "vocoder": 0}
        record["inf"] = {"talker": talker[2], "codePredictor": cp_inf, "vocoder": 0}
        request.writer.write_record(record, schema=False)
        request.steps += 1

    def _finish(self, req_id: str) -> None:
        request = self.requests.get(req_id)
        if request is None:
            return
        with self._guarded("closing the trace", [req_id]):
            if request.pending is not None:
                self._write(request, request.pending, None, None)
            if self.taps is not None:
                self.taps.write(request.writer.path, request.modules)
            request.writer.close()
            self.requests.pop(req_id, None)
            note_vocoder_chunks(request.writer.path)  # the Code2Wav stage's chunks, when they came first

    def close(self) -> None:
        for req_id in list(self.requests):
            self._finish(req_id)

    # ---- failures -----------------------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _guarded(self, what: str, req_ids: Iterable[str] | None = None) -> Iterator[None]:
        """Runs the recorder's own code; on a failure, stops recording for `req_ids` (default: the requests of this
        runner step that are being recorded) and says so in one line. The engine's calls are never inside."""
        try:
            yield
        except Exception as error:  # any failure of the recorder, by design (failsafe.py)
            self._stop(what, error, req_ids)

    def _stop(self, what: str, error: Exception, req_ids: Iterable[str] | None) -> None:
        if req_ids is None:
            try:
                req_ids = [r for r in self.runner.input_batch.req_ids if r in self.requests]
            except Exception:  # the runner's own batch is what looked wrong
                req_ids = list(self.requests)
        ids = [r for r in req_ids if r not in self.stopped]
        for req_id in ids:
            self.stopped.add(req_id)
            request = self.requests.pop(req_id, None)
            if request is not None and not request.writer.closed:
                with contextlib.suppress(Exception):
                    request.writer.__exit__(type(error), error, None)  # keeps the lines so far as .partial
        if ids:
            report(
                requests_label(ids),
                what,
                error,
                "recording stopped for it (its lines so far kept as <id>.jsonl.partial); generation goes on",
            )


def _codec_rates(model_path: str) -> tuple[float, int]:
    """Frames per second and audio sample rate, from the checkpoint's speech_tokenizer/config.json."""
    with open(os.path.join(model_path, "speech_tokenizer", "config.json"), encoding="utf-8") as f:
        codec = json.load(f)
    sample_rate = int(codec.get("output_sample_rate", 24000))
    return sample_rate / float(codec.get("decode_upsample_rate", 1920)), sample_rate
