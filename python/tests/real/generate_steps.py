"""Decode steps exactly as generate() calls them, for capture_check on any transformers model.

`recorded_decode_steps(model, run)` runs `run()` (a generate() call) once, keeps a deep copy of the forward's
keyword arguments at the first chosen step (the cache included, as it was before that step), and the arguments
of the later steps; it then yields them one step at a time with the first step's copied cache in place, so
running the steps in order rebuilds the same states generate() went through."""

from __future__ import annotations

import copy

__all__ = ["recorded_decode_steps"]


def recorded_decode_steps(model, run, steps=(2, 3)):
    """Yields ((kwargs,),) for each step in `steps` (consecutive, 1 = the prefill), for
    `capture_check(lambda kwargs: model(**kwargs), recorded_decode_steps(model, run))`."""
    kept, calls = {}, {"n": 0}
    first = steps[0]

    def keep(module, args, kwargs):
        calls["n"] += 1
        if calls["n"] == first:
            kept[first] = copy.deepcopy(kwargs)
        elif calls["n"] in steps:
            kept[calls["n"]] = {k: v for k, v in kwargs.items() if k != "past_key_values"}

    handle = model.register_forward_pre_hook(keep, with_kwargs=True)
    try:
        run()
    finally:
        handle.remove()
    missing = [s for s in steps if s not in kept]
    if missing:
        raise ValueError(
            f"recorded_decode_steps: generate() made {calls['n']} forward calls; steps {missing} never ran"
        )
    cache = kept[first].get("past_key_values")
    for step in steps:
        kwargs = dict(kept[step])
        if cache is not None:
            kwargs["past_key_values"] = cache
        yield (kwargs,)
