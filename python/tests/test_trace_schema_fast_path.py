"""The trace schemas' fast check (fastjsonschema, draft 7) and the explaining one (jsonschema, draft 2020-12)
agree on every line: real lines TraceWriter wrote, and each of them with one value replaced by a wrong one or
one unknown key added, at every place in the line."""

import copy
import json

import numpy as np
import torch

from tts_parity import TraceWriter
from tts_parity.trace_schema import HEADER_SCHEMA, STEP_SCHEMA

WRONG_VALUES = [None, "x", "NaN", -1, 2.5, 1e300, True, [], {}, "a" * 300]


def written_lines(tmp_path):
    writer = TraceWriter(
        tmp_path / "t.jsonl",
        engine="test",
        q=4,
        frame_rate=12.5,
        sample_rate=24000,
        profile="graph",
        seed=7,
        text="hello",
        codebook_delays=[0, 1, 2, 3],
    )
    logits = np.array([1.0, np.nan, 3.0, np.inf, 2.0], dtype=np.float32)
    rows = [torch.tensor([0.0, 2.0]), torch.tensor([5.0, 5.0]), torch.tensor([-1.0, -np.inf])]
    writer.write_step(
        logits,
        torch.tensor([2, 1, 0, 1]),
        code_predictor_logits=rows,
        nan={"vocoder": 3},
        times_ms={"talker": 1.5, "codePredictor": 0.25},
        hidden=torch.tensor([[1.0, 3.0]]),
    )
    writer.write_step(torch.tensor([0.5, 0.25]), torch.tensor([0, 0, 0, 0]))
    writer.close()
    return [json.loads(line) for line in (tmp_path / "t.jsonl").read_text(encoding="utf-8").splitlines()]


def variants(value):
    """The line with one leaf replaced by each wrong value, and with an unknown key added to each object."""
    places = []

    def walk(node, path):
        places.append(path)
        if isinstance(node, dict):
            for key, item in node.items():
                walk(item, [*path, key])
        elif isinstance(node, list):
            for index, item in enumerate(node):
                walk(item, [*path, index])

    walk(value, [])
    for path in places:
        parent = value
        for key in path[:-1]:
            parent = parent[key]
        target = parent if not path else parent[path[-1]]
        if isinstance(target, dict):
            changed = copy.deepcopy(value)
            node = changed
            for key in path:
                node = node[key]
            node["unknownKey"] = 1
            yield changed
        if path:
            for wrong in WRONG_VALUES:
                changed = copy.deepcopy(value)
                node = changed
                for key in path[:-1]:
                    node = node[key]
                node[path[-1]] = wrong
                yield changed


def agree(schema, value):
    try:
        schema.decide(value)
        fast = True
    except Exception:
        fast = False
    return fast == schema.explain.is_valid(value)


def test_the_fast_check_and_jsonschema_agree_on_written_lines_and_every_one_value_change(tmp_path):
    header, *steps = written_lines(tmp_path)
    checked = 0
    for schema, line in [(HEADER_SCHEMA, header)] + [(STEP_SCHEMA, step) for step in steps]:
        assert agree(schema, line) and schema.explain.is_valid(line)
        for changed in variants(line):
            assert agree(schema, changed), json.dumps(changed)
            checked += 1
    assert checked > 1000
