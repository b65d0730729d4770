"""The twin's graph decode step (tts_parity.demo.static_step.StaticStep, capture-ready) and three deliberately
unsafe variants of it, each a capture hazard from the seeds (docs/capture-check.md#the-twin):

- BoolMaskStep: seed 001's boolean-mask decode positions — data-dependent-shape.
- StepCounterStep: the position set from a Python step counter inside the step — python-scalar-varies.
- GrowingCacheTalker: the talker's KV cache grown by torch.cat each step (the eager profile's cache) —
  shape-varies, reported where the cache enters the step, not at the attention ops that follow it.

Each `*_steps` generator does what the twin's graph loop does on the host before each replay (feedback
refresh, position) and yields the step's arguments, so `capture_check(fn, generator)` sees real steps.
"""

import torch

from tts_parity.demo.static_step import StaticStep


class BoolMaskStep(StaticStep):
    """decode() filtering the decode positions with seed 001's mask (all True in a uniform decode batch)."""

    def decode(self):
        spans = torch.ones_like(self.position)
        decode_mask = (spans == 1) & (self.position >= 0) & (self.position < self.m.talker.max_positions)
        self.position.copy_(self.position[decode_mask])  # capture-check: data-dependent-shape
        super().decode()


class StepCounterStep(StaticStep):
    """decode_at(step_number): the host's position update moved inside the step, from a Python counter."""

    prompt_length = 0

    def decode_at(self, step_number):
        self.position.fill_(self.prompt_length + step_number - 2)  # capture-check: python-scalar-varies-across-steps
        self.decode()


class ConcatKVCache:
    """The StaticKVCache interface, grown by concatenation like the eager profile's DynamicCache."""

    def __init__(self, layers):
        self.keys = [None] * layers
        self.values = [None] * layers
        self.length = 0

    def update(self, k, v, layer, cache_kwargs=None):  # HF order, as the twin's caches
        if self.keys[layer] is not None:
            k = torch.cat([self.keys[layer], k], dim=2)  # capture-check: shape-varies-across-steps
            v = torch.cat([self.values[layer], v], dim=2)  # capture-check: shape-varies-across-steps
        self.keys[layer], self.values[layer] = k, v
        self.length = k.shape[2]
        return k, v


class GrowingCacheTalker:
    """The twin's talker decode step on a ConcatKVCache: feedback embedding, talker, greedy code 0."""

    def __init__(self, twin):
        self.twin = twin
        self.cache = ConcatKVCache(twin.manifest.talker.layers)

    def prefill(self, ids):
        positions = torch.arange(len(ids))
        allowed = positions[None, :] <= positions[:, None]
        self.twin.talker(self.twin.embed.text(torch.tensor(ids)), self.cache, positions, allowed)

    def decode(self, feedback_codes, position):
        """feedback_codes: [Q] the previous frame's codes; position: [1] int64."""
        x = self.twin.feedback(feedback_codes)
        allowed = torch.ones(1, self.cache.length + 1, dtype=torch.bool)  # capture-check: shape-varies-across-steps
        logits, _ = self.twin.talker(x, self.cache, position, allowed)
        return logits[0, -1].argmax()


def graph_steps(step, ids, decode_steps=(2, 3)):
    """For StaticStep (and BoolMaskStep): prefill, then before each decode step the graph loop's host-side
    updates (tts_parity.demo.graph_decode): feedback refresh and position. Yields () for step.decode."""
    step.prefill(ids)
    for number in decode_steps:
        step.refresh_feedback()
        step.position.fill_(len(ids) + number - 2)
        yield ()


def step_counter_steps(step, ids, decode_steps=(2, 3)):
    """For StepCounterStep: the host only refreshes the feedback; yields (step_number,) for decode_at."""
    step.prefill(ids)
    step.prompt_length = len(ids)
    for number in decode_steps:
        step.refresh_feedback()
        yield (number,)


def growing_cache_steps(talker, ids, decode_steps=(2, 3)):
    """For GrowingCacheTalker: prefill, then (feedback codes, position) per decode step (BOS feedback)."""
    talker.prefill(ids)
    bos = torch.full((talker.twin.manifest.codebooks,), talker.twin.manifest.bos, dtype=torch.long)
    for number in decode_steps:
        yield (bos, torch.tensor([len(ids) + number - 2]))
