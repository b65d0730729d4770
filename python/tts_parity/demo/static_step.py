"""Profile graph: one frame's whole work on static buffers, the shape a captured CUDA graph needs.

The talker decodes one token through fixed [1, kvHeads, maxPositions, D] KV buffers written in place at
the position held in `position` (a device tensor), attention masked over the whole buffer; codes are
chosen on the device (greedy argmax, EOS masked by a constant mask); the code predictor runs its
fixed 2 + (Q-2) positions through its own static buffers; the outputs are copied into StaticBuffers
(tts_parity.static_buffers), so after a replay they hold the graph's own numbers. No host sync and no
data-dependent shape anywhere in `decode()` — unless fault bool-mask puts one in (faults.py).

Inputs of a decode step: `position` and `feedback_codes` (the audio-feedback buffer, [1, Q]: one row
per request). The caller refreshes the feedback buffer from the previous step's codes before each
step; fault stale-feedback@N is that refresh skipped before step N.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch

from ..static_buffers import StaticBuffers
from .faults import Faults, decode_request_rows
from .kv_cache import StaticKVCache, causal_mask

if TYPE_CHECKING:
    from .model import DemoTwin


__all__ = ["StaticStep"]


class StaticStep:
    def __init__(self, twin: DemoTwin, faults: Faults):
        m = twin.manifest
        device = twin.talker.lm_head.weight.device
        self.twin, self.faults, self.m = twin, faults, m
        t, c = m.talker, m.code_predictor
        self.position = torch.zeros(1, dtype=torch.long, device=device)
        self.feedback_codes = torch.full((1, m.codebooks), m.bos, dtype=torch.long, device=device)
        self.talker_cache = StaticKVCache(t.layers, t.kv_heads, t.max_positions, t.head_dim, device)
        self.cp_cache = StaticKVCache(c.layers, c.kv_heads, c.max_positions, c.head_dim, device)
        # The code predictor's positions are the same every frame: [0, 1] (prefill), then 2, 3, ...
        self.cp_positions = [torch.arange(2, device=device)] + [
            torch.tensor([cb + 1], device=device) for cb in range(1, m.codebooks - 1)
        ]
        self.cp_masks = [causal_mask(p, c.max_positions) for p in self.cp_positions]
        self.eos_mask = torch.zeros(m.talker_vocab, dtype=torch.bool, device=device)
        self.eos_mask[m.eos] = True
        self.out = StaticBuffers()

    def prefill(self, ids: list) -> None:
        """Step 1, eager in both profiles (as vLLM's FULL_DECODE_ONLY): the text through the static buffers."""
        positions = torch.arange(len(ids), device=self.position.device)
        self._frame(self.twin.embed.text(torch.tensor(ids, device=self.position.device)), positions)

    def decode(self) -> None:
        """One decode step; what gets captured. Reads `position` and `feedback_codes`, writes self.out."""
        rows = decode_request_rows(self.position, self.m.talker.max_positions, self.faults.bool_mask)
        self._frame(self.twin.feedback(self.feedback_codes.index_select(0, rows)[0]), self.position)

    def refresh_feedback(self) -> None:
        """The feedback buffer takes the codes of the step just run (a device copy, before the next replay)."""
        self.feedback_codes[0].copy_(self.out["codes"])

    def _frame(self, x, positions) -> None:
        twin, m = self.twin, self.m
        logits, hidden = twin.talker(x, self.talker_cache, positions, causal_mask(positions, m.talker.max_positions))
        row, h = logits[0, -1], hidden[0, -1]
        code0 = torch.argmax(row.masked_fill(self.eos_mask, float("-inf")))
        self.cp_cache.zero_()
        x = torch.cat([h.reshape(1, 1, -1), twin.embed.code(0, code0)], dim=1)
        codes, rows = [code0], []
        for cb in range(1, m.codebooks):
            cp_row = twin.code_predictor(
                x, self.cp_cache, self.cp_positions[cb - 1], self.cp_masks[cb - 1], head=cb - 1
            )[0, -1]
            code = torch.argmax(cp_row)
            codes.append(code)
            rows.append(cp_row)
            x = twin.embed.code(cb, code)
        self.out.write("talker_logits", row)
        self.out.write("hidden", h)
        self.out.write("codes", torch.stack(codes))
        self.out.write("code_predictor_logits", torch.stack(rows))
