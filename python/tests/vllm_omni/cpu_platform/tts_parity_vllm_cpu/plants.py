"""Planted bugs for the tests (a `vllm.general_plugins` entry point of this fixture): the seeds' classes put into
vLLM-Omni's own code path at run time, per request, so one Omni start serves clean and buggy requests alike.

    TTS_PARITY_TEST_PLANT="stale-feedback=<glob>;cp-position=<glob>;swap-rows=<glob>;no-reset=<glob>;recorder-fail=<glob>"
    TTS_PARITY_TEST_PLANT_LOG=<file>   with swap-rows: each step's row order (req_ids) of a batch of 2+ rows; with
                                       no-reset: {"noReset": request, "row", "from": the row's previous request}

- stale-feedback (seed 000's class): the code predictor of a matching request is fed the code-0 embedding of its
  FIRST decode step at every later step (a feedback buffer written once and never refreshed), in
  `talker_mtp`'s input_embeds row. Frame 1 is right; frame 2's code predictor reads frame 1's code 0.
- cp-position (seed 004's class: a hand-written predictor loop whose decode positions are off by one after its
  two-token prefill): the code predictor of a matching request runs its re-prefill with positions 0, 1, 3, 4, ...
  (`pos_ids` of everything after the talker hidden state and codebook 0's embedding one too far). Groups 2..G-1
  read their hidden state at a shifted position; group 1 reads position 1, before the shift. Wrong from frame 1
  on, in the code predictor only, first at codebook 2. (Shifting every position alike would be no bug at all:
  RoPE sees relative positions only.)
- swap-rows (not a bug: what the runner itself may do): while every row of the batch matches and decodes, the
  first and last rows trade places at every step, where vLLM lets the attention backend reorder the batch
  (`_may_reorder_batch`, followed by the runner's own `refresh_metadata`). Rows change order at every step, so a
  recorder that matched by position would mix requests up.
- no-reset (a state buffer not reset between requests in a batch): the AR runner stages each decode row's talker
  hidden state into a per-row buffer, `last_talker_hidden` (vLLM-Omni 0.30.0 worker/gpu_model_runner.py: allocated at
  line 290, written for the decode rows at line 1835, read by `_talker_mtp_forward` at line 1962 as the code
  predictor's position 0). For a matching request's first decode step its row is not written: the code predictor
  of its first frame reads the hidden state the previous request of that row left there. The talker is right; the
  first frame's residual codebooks are not.
- recorder-fail (a failure inside the recorder, not of the engine): tts_parity's TraceWriter.write_record raises
  OSError(ENOSPC) at step 3 of a matching request's trace, as a full disk would.

Rows are matched to requests by the decode order `_talker_mtp_forward` is called with, never by batch position.
"""

from __future__ import annotations

import fnmatch
import json
import os
from typing import Any

import torch

ENV = "TTS_PARITY_TEST_PLANT"
_state: dict[str, Any] = {"req_ids": None, "first_embed": {}}


def _plants() -> dict[str, str]:
    plants = {}
    for item in os.environ.get(ENV, "").split(";"):
        if "=" in item:
            name, pattern = item.split("=", 1)
            plants[name.strip()] = pattern.strip()
    return plants


def _rows(pattern: str | None) -> list[int]:
    req_ids = _state["req_ids"] or []
    return [i for i, r in enumerate(req_ids) if pattern and fnmatch.fnmatchcase(r, pattern)]


def register() -> None:
    from .step_timer import install as install_step_timer

    install_step_timer()  # python/benchmarks/vllm_recording_cost.py's step clock; inert unless its variable is set
    plants = _plants()
    if not plants:
        return
    from vllm_omni.model_executor.models.common.qwen3_code_predictor import CodePredictorWrapper
    from vllm_omni.model_executor.models.qwen3_tts.qwen3_tts_talker import Qwen3TTSTalkerForConditionalGeneration
    from vllm_omni.worker.gpu_model_runner import OmniGPUModelRunner

    talker_mtp_forward = OmniGPUModelRunner._talker_mtp_forward

    def planted_talker_mtp_forward(self: Any, decode_req_ids: list[str], *args: Any, **kwargs: Any) -> Any:
        outer = _state["req_ids"]
        _state["req_ids"] = list(decode_req_ids)
        try:
            return talker_mtp_forward(self, decode_req_ids, *args, **kwargs)
        finally:
            _state["req_ids"] = outer

    OmniGPUModelRunner._talker_mtp_forward = planted_talker_mtp_forward

    if "swap-rows" in plants:
        may_reorder = OmniGPUModelRunner._may_reorder_batch

        def swapping_reorder(self: Any, scheduler_output: Any) -> None:
            may_reorder(self, scheduler_output)
            if not getattr(self, "has_talker_mtp", False):
                return  # the talker stage only
            batch = self.input_batch
            n = batch.num_reqs
            rows = range(n)
            if n >= 2 and all(
                fnmatch.fnmatchcase(batch.req_ids[i], plants["swap-rows"])
                and batch.num_computed_tokens_cpu[i] >= batch.num_prompt_tokens[i]
                for i in rows
            ):
                batch.swap_states(0, n - 1)
            log = os.environ.get(ENV + "_LOG")
            if log and n >= 2:
                with open(log, "a", encoding="utf-8") as f:
                    f.write(json.dumps(list(batch.req_ids[:n])) + "\n")

        OmniGPUModelRunner._may_reorder_batch = swapping_reorder

    if "stale-feedback" in plants:
        talker_mtp = Qwen3TTSTalkerForConditionalGeneration.talker_mtp

        def stale_talker_mtp(
            self: Any, input_ids: torch.Tensor, input_embeds: torch.Tensor, *args: Any, **kwargs: Any
        ) -> Any:
            rows = _rows(plants["stale-feedback"])
            if rows:
                input_embeds = input_embeds.clone()
                for row in rows:
                    req_id = _state["req_ids"][row]
                    first = _state["first_embed"].setdefault(req_id, input_embeds[row].clone())
                    input_embeds[row] = first
            return talker_mtp(self, input_ids, input_embeds, *args, **kwargs)

        Qwen3TTSTalkerForConditionalGeneration.talker_mtp = stale_talker_mtp

    if "cp-position" in plants:
        forward = CodePredictorWrapper.forward

        def shifted_forward(self: Any, *args: Any, **kwargs: Any) -> Any:
            rows = _rows(plants["cp-position"])
            if not rows:
                return forward(self, *args, **kwargs)
            saved = self._bucket_pos_ids
            self._bucket_pos_ids = _ShiftedPositions(self._num_groups + 1, rows)
            try:
                return forward(self, *args, **kwargs)
            finally:
                self._bucket_pos_ids = saved

        CodePredictorWrapper.forward = shifted_forward

    if "no-reset" in plants:
        _plant_no_reset(OmniGPUModelRunner, plants["no-reset"])

    if "recorder-fail" in plants:
        _plant_recorder_failure(plants["recorder-fail"])


def _plant_no_reset(runner_cls: Any, pattern: str) -> None:
    """Wraps _talker_mtp_forward, which reads the per-row buffer last_talker_hidden that the preprocess staged for
    this step: for a matching request's first decode step, its row is put back to what it held after the previous
    call (the state the previous request of that decode row left), as if the staging write had been skipped."""
    forward = runner_cls._talker_mtp_forward
    seen: set[str] = set()
    left: dict[int, tuple[str, torch.Tensor]] = {}

    def planted_forward(self: Any, decode_req_ids: list[str], *args: Any, **kwargs: Any) -> Any:
        rows = self.last_talker_hidden.gpu
        for row, req_id in enumerate(decode_req_ids):
            if req_id in seen:
                continue
            seen.add(req_id)
            if fnmatch.fnmatchcase(req_id, pattern) and row in left and left[row][0] != req_id:
                previous, hidden = left[row]
                rows[row].copy_(hidden)
                log = os.environ.get(ENV + "_LOG")
                if log:
                    with open(log, "a", encoding="utf-8") as f:
                        f.write(json.dumps({"noReset": req_id, "row": row, "from": previous}) + "\n")
        try:
            return forward(self, decode_req_ids, *args, **kwargs)
        finally:
            for row, req_id in enumerate(decode_req_ids):
                left[row] = (req_id, rows[row].clone())

    runner_cls._talker_mtp_forward = planted_forward


def _plant_recorder_failure(pattern: str) -> None:
    import errno

    from tts_parity.trace_writer import TraceWriter

    write_record = TraceWriter.write_record

    def failing_write_record(self: Any, record: Any, *args: Any, **kwargs: Any) -> Any:
        if record.get("step") == 3 and fnmatch.fnmatchcase(os.path.basename(self.path), pattern + ".jsonl"):
            raise OSError(errno.ENOSPC, "No space left on device (planted)", self.path)
        return write_record(self, record, *args, **kwargs)

    TraceWriter.write_record = failing_write_record


class _ShiftedPositions(dict):
    """Stands in for CodePredictorWrapper._bucket_pos_ids (per-row positions [batch, seq], 0..seq-1): the rows of the
    planted requests have positions 0, 1, 3, 4, ... (one too far after the first two); the other rows keep theirs."""

    def __init__(self, max_seq: int, rows: list[int]) -> None:
        super().__init__()
        self.max_seq, self.rows = max_seq, rows

    def get(self, key: Any, default: Any = None) -> torch.Tensor:
        bsz, seq = key if isinstance(key, tuple) else (key, self.max_seq)
        positions = torch.arange(seq, dtype=torch.long).unsqueeze(0).repeat(bsz, 1)
        positions[self.rows, 2:] += 1
        return positions
