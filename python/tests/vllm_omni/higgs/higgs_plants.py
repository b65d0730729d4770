"""A planted bug for the Higgs-Audio-v3 talker (test fixture): seed 000's first suspect made real.

stale feedback: at a target request's first decode step (its second forward), the audio-feedback embedding
(`_apply_audio_feedback`) reads that request's `_decode_last_codes` row as it was before the prefill's sample()
wrote the BOC seed into it: zeros, the value the state pool gives a new request's row. That is what a captured
decode graph would read if its replay ran ahead of sample()'s write. The row is restored after the read, so
only that one step's input is stale."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable


def plant_stale_feedback(model: Any, req_ids: Callable[[], list[str]], targets: set[str]) -> None:
    apply_feedback = model._apply_audio_feedback
    forwards: dict[str, int] = {}

    def planted(hidden_states, input_ids):
        stale = []
        for row, req_id in enumerate(req_ids()):
            forwards[req_id] = forwards.get(req_id, 0) + 1
            if req_id in targets and forwards[req_id] == 2:
                stale.append(row)
        if not stale:
            return apply_feedback(hidden_states, input_ids)
        saved = model._decode_last_codes[stale].clone()
        model._decode_last_codes[stale] = 0
        try:
            return apply_feedback(hidden_states, input_ids)
        finally:
            model._decode_last_codes[stale] = saved

    model._apply_audio_feedback = planted
