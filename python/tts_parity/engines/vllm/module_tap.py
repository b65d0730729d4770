"""The module sidecar of the talker stage: chosen modules' outputs (by the runner model's own `named_modules()` names,
e.g. `model.layers.1.mlp`, `code_predictor.model.layers.0`), per request and trace step, in the format of
tts_parity.module_recorder (`tts-parity-modules/1`, keys `{step}/{seq:05d}/{name}`).

vLLM runs a batch as one flat token axis, so a talker module's output is cut per request at the row of the
request's last scheduled token in the runner step (the row its logits come from; the prefill's last prompt token
at step 1). The code predictor's modules run in the next runner step's preprocessing, once per codebook group g on
a [batch, position, hidden] re-prefill: their output ([batch, position, ...], e.g. a q/k norm's [batch, position,
head, dim]) is cut at the request's decode row and position g (the position whose hidden state its lm_head reads)
and kept as `name@g{g}`, after the talker's modules of the same trace step (pipeline order). A tuple output (vLLM's
decoder layers return (hidden, residual)) is kept as `name#0`, `name#1`.
Each hook runs inside the recorder's guard (`guarded(what)`, failsafe.py): a failure there stops the step's
recorded requests, never the model's forward.
"""

from __future__ import annotations

import collections
from typing import TYPE_CHECKING, Any

import torch

from ...module_recorder import SIDECAR_SCHEMA, _selected_tensors, sidecar_key, sidecar_path_for
from ...safetensors_io import write_safetensors

if TYPE_CHECKING:
    from collections.abc import Callable
    from contextlib import AbstractContextManager

    from .config import RecorderConfig

CODE_PREDICTOR = "code_predictor"


class ModuleTap:
    def __init__(
        self,
        model: torch.nn.Module,
        config: RecorderConfig,
        runner: Any,
        guarded: Callable[[str], AbstractContextManager[None]],
        recording: Callable[[], bool],
    ) -> None:
        self.runner = runner
        self.guarded = guarded
        self.recording = recording  # whether a request of this runner step is recorded
        self.patterns = ",".join(config.modules)
        self.in_code_predictor = False
        self._talker: list[tuple[str, torch.Tensor]] = []
        self._cp: list[tuple[str, int, torch.Tensor]] = []
        self._cp_calls: collections.Counter[str] = collections.Counter()
        self._asked: tuple[tuple[str, ...], bool] | None = None  # (the batch's request ids, recording() for it)
        for name, module in model.named_modules():
            if name and config.wants_module(name):
                module.register_forward_hook(self._hook(name, name.startswith(CODE_PREDICTOR)))

    def _hook(self, name: str, in_cp: bool) -> Any:
        def hook(module: Any, inputs: Any, output: Any) -> None:
            with self.guarded(f"recording the output of module {name}"):
                self._record(name, in_cp, output)

        return hook

    def _record(self, name: str, in_cp: bool, output: Any) -> None:
        if in_cp != self.in_code_predictor or self.runner.input_batch.num_reqs == 0 or not self._recording():
            return  # a profile, warm-up or dummy run (or the predictor's warm-up), or no request recorded
        tensors = _selected_tensors(output, "each")
        if in_cp:
            self._cp_calls[name] += 1
            self._cp.extend((name + suffix, self._cp_calls[name], t.detach()) for suffix, t in tensors)
        else:
            self._talker.extend((name + suffix, t.detach()) for suffix, t in tensors if t.dim() >= 1)

    def _recording(self) -> bool:
        """recording(), asked once per batch of requests rather than at each of the step's module calls (hundreds).
        A request whose recording stops keeps its batch's answer: its outputs are cut, then dropped."""
        batch = tuple(self.runner.input_batch.req_ids)
        if self._asked is None or self._asked[0] != batch:
            self._asked = (batch, self.recording())
        return self._asked[1]

    def take_talker(self, req_ids: list[str]) -> dict[str, dict[str, torch.Tensor]]:
        """The talker's outputs of this runner step, cut per request at its last scheduled token."""
        outputs, self._talker = self._talker, []
        loc = self.runner.query_start_loc.cpu
        ends = [int(loc[i + 1]) - 1 for i in range(len(req_ids))]
        total = int(loc[len(req_ids)])
        cut: dict[str, dict[str, torch.Tensor]] = {req_id: {} for req_id in req_ids}
        for label, tensor in outputs:
            if tensor.shape[0] < total:
                continue  # not a token-major output of this step
            rows = tensor[ends].to("cpu", torch.float32)  # one copy of every request's row, split below (views)
            for req_id, row in zip(req_ids, rows.unbind(0)):
                cut[req_id][_unique(cut[req_id], label)] = row
        return cut

    def begin_code_predictor(self) -> None:
        self.in_code_predictor = True
        self._cp, self._cp_calls = [], collections.Counter()

    def take_code_predictor(self, req_ids: list[str]) -> dict[str, dict[str, torch.Tensor]]:
        """The code predictor's outputs of this call, cut per request at its decode row and group position."""
        self.in_code_predictor = False
        outputs, self._cp = self._cp, []
        cut: dict[str, dict[str, torch.Tensor]] = {req_id: {} for req_id in req_ids}
        batch = len(req_ids)
        for label, group, tensor in outputs:
            if tensor.dim() < 2 or tensor.shape[0] < batch:
                continue
            rows = tensor[:batch, group] if tensor.dim() >= 3 and tensor.shape[1] > group else tensor[:batch]
            for req_id, row in zip(req_ids, rows.to("cpu", torch.float32, copy=True).unbind(0)):
                cut[req_id][_unique(cut[req_id], f"{label}@g{group}")] = row
        return cut

    def write(self, trace_path: str, steps: list[dict[str, torch.Tensor]]) -> None:
        tensors = {
            sidecar_key(step, seq, label): tensor.numpy()
            for step, outputs in enumerate(steps, start=1)
            for seq, (label, tensor) in enumerate(outputs.items())
        }
        metadata = {"schema": SIDECAR_SCHEMA, "modules": self.patterns, "tuple_outputs": "each"}
        write_safetensors(tensors, sidecar_path_for(trace_path), metadata=metadata, force=True)


def _unique(seen: dict[str, torch.Tensor], label: str) -> str:
    if label not in seen:
        return label
    n = 1
    while f"{label}@{n}" in seen:
        n += 1
    return f"{label}@{n}"
