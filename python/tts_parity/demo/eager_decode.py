"""Profile eager: the loop as a plain PyTorch engine runs it, op by op, with a dynamic KV cache grown by
concatenation (the engine's eager export), codes chosen on the host after each forward. Mirrors
electron/engine/synthesize.ts and run/code-predictor-loop.ts."""

from __future__ import annotations

import time
from contextlib import nullcontext
from typing import TYPE_CHECKING

import torch

from .faults import MLP_SCALE, MLP_SCALE_LAYER, Faults, decode_request_rows
from .kv_cache import DynamicCache, causal_mask
from .step_output import StepOutput

if TYPE_CHECKING:
    from .model import DemoTwin


__all__ = ["EagerDecoder", "eager_frames"]


def _sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


class EagerDecoder:
    """One synthesis, step by step: `run_step(1)` is the prefill, `run_step(s)` decode step s.
    `selector` picks codes from logit rows (selection.py); `recorder` (a ModuleRecorder, or None)
    records each step by forward hooks."""

    def __init__(self, twin: DemoTwin, ids: list, faults: Faults, selector, recorder=None):
        m = twin.manifest
        self.twin, self.ids, self.faults, self.selector, self.recorder = twin, ids, faults, selector, recorder
        self.device = twin.talker.lm_head.weight.device
        self.cache = DynamicCache(m.talker.layers)
        self.feedback = torch.full((1, m.codebooks), m.bos, dtype=torch.long, device=self.device)
        self.previous: torch.Tensor | None = None  # the last step's codes, on the device
        self.length = 0

    def snapshot(self):
        """The decoding state (the cache's lists are rebuilt by every update, never written in place)."""
        return list(self.cache.keys), list(self.cache.values), self.length, self.feedback.clone(), self.previous

    def restore(self, state) -> None:
        keys, values, self.length, feedback, self.previous = state
        self.cache.keys, self.cache.values = list(keys), list(values)
        self.feedback.copy_(feedback)

    def run_step(self, s: int) -> StepOutput:
        twin, m, device = self.twin, self.twin.manifest, self.device
        scale = twin.talker.layers[MLP_SCALE_LAYER].mlp.fault_scale
        if scale is not None and s == self.faults.mlp_scale:
            scale.fill_(MLP_SCALE)
        with torch.no_grad(), self.recorder.step(s) if self.recorder else nullcontext():
            _sync(device)
            t0 = time.perf_counter()
            if s == 1:
                x = twin.embed.text(torch.tensor(self.ids, device=device))
                positions = torch.arange(len(self.ids), device=device)
            else:
                if self.faults.stale_feedback != s:
                    self.feedback[0].copy_(self.previous)
                positions = torch.tensor([self.length], device=device)
                rows = decode_request_rows(positions, m.talker.max_positions, self.faults.bool_mask)
                x = twin.feedback(self.feedback.index_select(0, rows)[0])
            logits, hidden = twin.talker(x, self.cache, positions, causal_mask(positions, self.length + x.shape[1]))
            self.length += x.shape[1]
            row, h = logits[0, -1], hidden[0, -1]
            code0 = self.selector.pick(row, s, 0, suppress=m.eos)
            _sync(device)
            t1 = time.perf_counter()
            codes, cp_rows = _predict_codes(twin, h, code0, s, self.selector)
            _sync(device)
            t2 = time.perf_counter()
        self.previous = torch.tensor(codes, device=device)
        return StepOutput(
            step=s,
            talker_logits=row.float().cpu().numpy(),
            hidden=h.float().cpu().numpy(),
            codes=codes,
            code_predictor_logits=torch.stack(cp_rows).float().cpu().numpy(),
            step_ms=(t2 - t0) * 1e3,
            times_ms={"talker": (t1 - t0) * 1e3, "codePredictor": (t2 - t1) * 1e3},
        )


def eager_frames(twin: DemoTwin, ids: list, frames: int, faults: Faults, selector, recorder=None):
    """Yields one StepOutput per step 1..frames."""
    decoder = EagerDecoder(twin, ids, faults, selector, recorder)
    for s in range(1, frames + 1):
        yield decoder.run_step(s)


def _predict_codes(twin: DemoTwin, hidden, code0: int, step: int, selector):
    """The code predictor's KV-cached loop: prefill [talker hidden, embedding of code 0] -> codebook 1, then
    one position per codebook, each fed that codebook's own embedding of the previous code and read
    through its own head (lm_heads[codebook - 1])."""
    m = twin.manifest
    device = hidden.device
    cache = DynamicCache(m.code_predictor.layers)
    x = torch.cat([hidden.reshape(1, 1, -1), twin.embed.code(0, torch.tensor(code0, device=device))], dim=1)
    positions = torch.arange(2, device=device)
    codes, rows = [code0], []
    for cb in range(1, m.codebooks):
        total = cb + 1  # positions so far: hidden, code 0, then one per codebook fed back
        logits = twin.code_predictor(x, cache, positions, causal_mask(positions, total), head=cb - 1)
        row = logits[0, -1]
        code = selector.pick(row, step, cb)
        codes.append(code)
        rows.append(row)
        x = twin.embed.code(cb, torch.tensor(code, device=device))
        positions = torch.tensor([cb + 1], device=device)
    return codes, rows
