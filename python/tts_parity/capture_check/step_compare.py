"""The two cross-step rules: the same op compared over the given steps.

Ops are matched across steps by (user file, line, op, n-th call from that line). For a matched op:
- shape-varies-across-steps, reported once per origin, not at every op downstream:
  * an op whose output shape differs while all its inputs keep their shapes (it makes the variation:
    `torch.zeros(n)`, `cache[:, :pos]`);
  * a tensor from outside the step (an argument, module state) whose shape differs, at its first use
    (a KV cache grown by `torch.cat` and fed back as the next step's argument).
  Ops whose inputs already vary just follow and are not reported.
- python-scalar-varies-across-steps: an op whose shapes all stay the same but a Python number among its
  arguments differs (a step counter used as a position or factor). An op that runs in some steps and not in
  others is the same hazard through control flow (a Python branch), reported once per line.
- state-tensor-varies-across-steps: an op whose shapes all stay the same but which reads state (a parameter,
  a buffer, an attribute; not a value the step was given) from different memory in different steps: a
  ModuleList picked by a Python step counter (`lm_head[generation_step]`), or state rebound (`self.h = ...`)
  instead of written in place. A captured graph would replay the first step's memory.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from .report import Finding
from .rules import DATA_DEPENDENT_SHAPE, HINTS, PYTHON_SCALAR_VARIES, SHAPE_VARIES, STATE_TENSOR_VARIES
from .source_location import source_line

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from .dispatch_probe import OpKey, OpRecord
    from .rules import Rule

    Records = Sequence[OpRecord]  # the records of one op matched across the steps, one per step
    Position = str | int  # an input position ("args[1][0]") or an output's index

__all__ = ["compare_steps"]

# The OpRecord fields that are ((position, value), ...) pairs, compared position by position
_PairsField = Literal["input_shapes", "output_shapes", "scalars", "external_inputs", "state_memory"]


def compare_steps(
    traces: Sequence[Sequence[OpRecord]], step_names: Sequence[str], per_op_findings: Iterable[Finding]
) -> list[Finding]:
    """traces: one list of OpRecord per step. Returns the cross-step findings, one per origin or line."""
    maps = [{record.key: record for record in trace} for trace in traces]
    dynamic_lines = {(f.filename, f.lineno) for f in per_op_findings if f.rule == DATA_DEPENDENT_SHAPE}
    findings: list[Finding] = []
    seen_lines: set[tuple[Rule, str, int]] = set()
    reported_externals: set[str] = set()

    def add(rule: Rule, record: OpRecord, hint: str) -> None:
        line = (rule, record.filename, record.lineno)
        if line not in seen_lines:
            seen_lines.add(line)
            findings.append(
                Finding(
                    rule, record.op, record.filename, record.lineno, source_line(record.filename, record.lineno), hint
                )
            )

    for key in _keys_in_order(traces):
        in_steps = [step_map.get(key) for step_map in maps]
        records = [record for record in in_steps if record is not None]
        if len(records) < len(in_steps):
            present = [name for name, record in zip(step_names, in_steps) if record is not None]
            absent = [name for name, record in zip(step_names, in_steps) if record is None]
            add(
                PYTHON_SCALAR_VARIES,
                records[0],
                f"runs in {', '.join(present)} but not in {', '.join(absent)}: "
                "Python control flow differs between steps and a captured graph replays only the branch it saw; "
                f"{HINTS[PYTHON_SCALAR_VARIES]}",
            )
            continue
        first = records[0]
        varying_inputs = _varying(records, "input_shapes")
        unexplained = (first.filename, first.lineno) not in dynamic_lines
        if _differs(records, "output_shapes") and not varying_inputs and unexplained:
            add(
                SHAPE_VARIES,
                first,
                f"output shape {_per_step(records, 'output_shapes', None, step_names)} "
                f"from inputs of unchanged shapes; {HINTS[SHAPE_VARIES]}",
            )
        for position in varying_inputs:
            label = _external_label(records, position)
            if label is not None and label not in reported_externals:
                reported_externals.add(label)
                add(
                    SHAPE_VARIES,
                    first,
                    f"{label} has shape {_per_step(records, 'input_shapes', position, step_names)} "
                    f"(first used here); {HINTS[SHAPE_VARIES]}",
                )
        if not varying_inputs and not _differs(records, "output_shapes"):
            for position in _varying(records, "scalars"):
                add(
                    PYTHON_SCALAR_VARIES,
                    first,
                    f"the Python number at {position} is {_per_step(records, 'scalars', position, step_names)}; "
                    f"{HINTS[PYTHON_SCALAR_VARIES]}",
                )
            for position in _varying(records, "state_memory"):
                tensors = ", ".join(
                    f"{_table(record, 'external_inputs').get(position, 'nothing')} in {name}"
                    for record, name in zip(records, step_names)
                )
                add(STATE_TENSOR_VARIES, first, f"{position} reads {tensors}; {HINTS[STATE_TENSOR_VARIES]}")
    return findings


def _keys_in_order(traces: Sequence[Sequence[OpRecord]]) -> list[OpKey]:
    keys: list[OpKey] = []
    seen: set[OpKey] = set()
    for trace in traces:
        for record in trace:
            if record.key not in seen:
                seen.add(record.key)
                keys.append(record.key)
    return keys


def _table(record: OpRecord, field: _PairsField) -> dict[Position, object]:
    """One of the record's ((position, value), ...) fields as a dict."""
    pairs: tuple[tuple[Position, object], ...] = getattr(record, field)
    return dict(pairs)


def _differs(records: Records, field: _PairsField) -> bool:
    return any(getattr(record, field) != getattr(records[0], field) for record in records[1:])


def _varying(records: Records, field: _PairsField) -> list[Position]:
    """Positions whose value differs between steps (a position missing in some step counts as differing)."""
    tables = [_table(record, field) for record in records]
    positions: list[Position] = []
    for position in dict.fromkeys(p for table in tables for p in table):
        values = [table.get(position, _MISSING) for table in tables]
        if any(value != values[0] for value in values[1:]):
            positions.append(position)
    return positions


def _external_label(records: Records, position: Position) -> str | None:
    """The label of the input at `position` when it comes from outside the step in every step, else None."""
    labels = {_table(record, "external_inputs").get(position) for record in records}
    label = labels.pop() if len(labels) == 1 else None
    return label if isinstance(label, str) else None  # a label (a str) is there only for an outside tensor


def _per_step(records: Records, field: _PairsField, position: Position | None, step_names: Sequence[str]) -> str:
    """ "[1, 4] in step 2, [1, 5] in step 3" for one position (or the first differing one when position is None)."""
    tables = [_table(record, field) for record in records]
    if position is None:
        position = next(
            p
            for p in dict.fromkeys(p for t in tables for p in t)
            if any(t.get(p, _MISSING) != tables[0].get(p, _MISSING) for t in tables[1:])
        )
    return ", ".join(f"{_show(table.get(position, _MISSING))} in {name}" for table, name in zip(tables, step_names))


def _show(value: object) -> str:
    if value is _MISSING:
        return "nothing"
    return str(list(value)) if isinstance(value, tuple) else repr(value)


class _Missing:
    def __repr__(self) -> str:
        return "<missing>"


_MISSING = _Missing()
