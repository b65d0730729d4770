"""Finding and CaptureReport: what the capture check found, as a table for people and JSON for machines."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, TypedDict, TypeVar

from ..errors import ParityValueError
from .rules import RULES

if TYPE_CHECKING:
    from .rules import Rule

__all__ = [
    "CaptureReport",
    "CaptureReportJson",
    "Finding",
    "FindingJson",
    "StateWrittenOutside",
    "StateWrittenOutsideJson",
]

_Output = TypeVar("_Output")


class FindingJson(TypedDict):
    rule: Rule
    op: str
    filename: str
    lineno: int
    code: str
    hint: str


class StateWrittenOutsideJson(TypedDict):
    label: str
    filename: str
    lineno: int
    code: str
    before_steps: list[str]


class CaptureReportJson(TypedDict):
    """The report as `to_json` writes it (docs/capture-check.md)."""

    ok: bool
    steps: list[str]
    findings: list[FindingJson]
    stateWrittenOutside: list[StateWrittenOutsideJson]


@dataclass(frozen=True)
class Finding:
    """One line of the user's step that would break or silently corrupt a captured CUDA graph."""

    rule: Rule
    op: str
    filename: str
    lineno: int
    code: str
    hint: str

    def __post_init__(self) -> None:
        if self.rule not in RULES:
            raise ParityValueError(f'Finding: rule: unknown rule "{self.rule}" (known: {", ".join(RULES)})')

    @property
    def where(self) -> str:
        return f"{_display_path(self.filename)}:{self.lineno}"

    def to_dict(self) -> FindingJson:
        return {
            "rule": self.rule,
            "op": self.op,
            "filename": self.filename,
            "lineno": self.lineno,
            "code": self.code,
            "hint": self.hint,
        }


@dataclass(frozen=True)
class StateWrittenOutside:
    """State the step reads that something outside the step wrote in place between two steps (its version counter
    moved between the end of one step and the read in the next): not a hazard by itself, since a captured graph
    reads the same memory at every replay, but the graph sees the write only if it lands before the replay."""

    label: str
    filename: str
    lineno: int
    code: str
    before_steps: tuple[str, ...]  # the steps whose read saw a write made since the previous step ended

    @property
    def where(self) -> str:
        return f"{_display_path(self.filename)}:{self.lineno}"

    def to_dict(self) -> StateWrittenOutsideJson:
        return {
            "label": self.label,
            "filename": self.filename,
            "lineno": self.lineno,
            "code": self.code,
            "before_steps": list(self.before_steps),
        }


@dataclass
class CaptureReport(Generic[_Output]):
    """The check's result: `ok` is True when there are no findings. `outputs` holds fn's return value per step
    (exactly what fn returned; kept out of `to_json`). `state_written_outside` lists the state read inside the
    step and written in place outside it between steps (information, not findings)."""

    step_names: list[str]
    findings: list[Finding]
    outputs: list[_Output] = field(default_factory=list, repr=False, compare=False)
    state_written_outside: list[StateWrittenOutside] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.findings

    def to_dict(self) -> CaptureReportJson:
        return {
            "ok": self.ok,
            "steps": list(self.step_names),
            "findings": [finding.to_dict() for finding in self.findings],
            "stateWrittenOutside": [state.to_dict() for state in self.state_written_outside],
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    def __str__(self) -> str:
        steps = ", ".join(self.step_names)
        if self.ok:
            return f"capture check: no findings over {len(self.step_names)} steps ({steps})" + self._state_lines()
        count = len(self.findings)
        lines = [
            f"capture check: {count} finding{'s' if count != 1 else ''} over {len(self.step_names)} steps ({steps})"
        ]
        header = ("RULE", "WHERE", "OP", "CODE")
        rows = [(f.rule, f.where, f.op, f.code) for f in self.findings]
        widths = [max(len(row[i]) for row in [header, *rows]) for i in range(3)]
        lines.append("  ".join(text.ljust(width) for text, width in zip(header[:3], widths)) + "  " + header[3])
        for finding, row in zip(self.findings, rows):
            lines.append("  ".join(text.ljust(width) for text, width in zip(row[:3], widths)) + "  " + row[3])
            lines.append(" " * (widths[0] + 2) + "fix: " + finding.hint)
        return "\n".join(lines) + self._state_lines()

    def _state_lines(self) -> str:
        if not self.state_written_outside:
            return ""
        lines = ["", "state read in the step and written in place outside it (a graph reads it at replay: the write"]
        lines.append("must land before the replay):")
        for state in self.state_written_outside:
            lines.append(
                f"  {state.label} at {state.where} (written before {', '.join(state.before_steps)})  {state.code}"
            )
        return "\n".join(lines)


def _display_path(filename: str) -> str:
    """Relative to the working directory when the file is under it, else as given."""
    try:
        relative = os.path.relpath(filename)
    except ValueError:
        return filename
    return filename if relative.startswith("..") else relative
