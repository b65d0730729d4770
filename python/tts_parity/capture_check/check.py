"""capture_check(fn, step_inputs): run a decode step over two or more steps and report capture hazards."""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, TypeVar

import torch

from ..errors import ParityTypeError, ParityValueError
from .dispatch_probe import StepProbe
from .report import CaptureReport, StateWrittenOutside
from .source_location import source_line
from .step_compare import compare_steps

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from .dispatch_probe import StateRead, StateSite
    from .report import Finding

__all__ = ["capture_check"]

_Output = TypeVar("_Output")


def capture_check(
    fn: Callable[..., _Output], step_inputs: Iterable[Sequence[object]], *, names: Sequence[object] | None = None
) -> CaptureReport[_Output]:
    """Runs `fn(*args)` once for each `args` in `step_inputs` (two or more consecutive decode steps, in order),
    exactly as it would run without the check, and reports the lines that would break or silently corrupt a
    CUDA graph captured from it. Works on CPU or GPU tensors.

    Args:
        fn: the decode step, a callable (a function, a bound method, an `nn.Module`).
        step_inputs: each step's positional arguments as a tuple (tensors on any device, any dtype; Python
            values too), two or more steps in order: a sequence, or an iterable consumed one step at a time (a
            generator can set the host-side state of each step, e.g. a position buffer, before yielding its
            arguments, as a decode loop does before each replay).
        names: labels of the steps for the report (e.g. ["step 2", "step 3"]); default "steps[0]", "steps[1]".

    Returns a CaptureReport (`ok`, `findings`, `outputs`: fn's return value per step). Raises ParityTypeError
    for a non-callable `fn` or a step that is not a tuple, ParityValueError for fewer than two steps or names
    that do not match them; an exception of `fn` itself propagates unchanged.
    """
    if not callable(fn):
        raise ParityTypeError(f"capture_check: fn: expected the decode step (a callable), found {type(fn).__name__}")
    if names is not None and (isinstance(names, (str, bytes)) or not hasattr(names, "__len__")):
        raise ParityTypeError(f"capture_check: names: expected a list of step labels, found {type(names).__name__}")
    probes: list[StepProbe] = []
    outputs: list[_Output] = []
    for index, args in enumerate(step_inputs):  # lazily: a generator may set host-side state between steps
        if not isinstance(args, (tuple, list)):
            raise ParityTypeError(
                f"capture_check: step_inputs[{index}]: expected a tuple of fn's positional arguments, found "
                f"{type(args).__name__}"
            )
        with StepProbe(_argument_labels(fn, args), _step_values(args)) as probe:
            outputs.append(fn(*args))
        probes.append(probe)
    if len(probes) < 2:
        raise ParityValueError(
            f"capture_check: step_inputs: expected two or more consecutive steps, found {len(probes)} step(s)"
        )
    step_names = [f"steps[{i}]" for i in range(len(probes))] if names is None else [str(n) for n in names]
    if len(step_names) != len(probes):
        raise ParityValueError(
            f"capture_check: names: expected {len(probes)} names (one per step), found {len(step_names)}"
        )

    per_op = _first_of_each([finding for probe in probes for finding in probe.findings])
    cross_step = compare_steps([probe.records for probe in probes], step_names, per_op)
    findings = sorted(per_op + cross_step, key=lambda finding: (finding.filename, finding.lineno))
    return CaptureReport(step_names, findings, outputs, _state_written_outside(probes, step_names))


def _state_written_outside(probes: list[StepProbe], step_names: list[str]) -> list[StateWrittenOutside]:
    """State whose first read in a step saw a version counter other than the one it had when the previous step
    ended: written in place by code outside the step (the loop between two replays)."""
    before: dict[StateSite, list[str]] = {}
    reads: dict[StateSite, StateRead] = {}
    for previous, current, name in zip(probes, probes[1:], step_names[1:]):
        for site, read in current.state_reads.items():
            earlier = previous.state_reads.get(site)
            if earlier is None or earlier.tensor() is None or earlier.tensor() is not read.tensor():
                continue
            if (
                None not in (earlier.version_at_end, read.version_at_read)
                and earlier.version_at_end != read.version_at_read
            ):
                before.setdefault(site, []).append(name)
                reads.setdefault(site, read)
    states = [
        StateWrittenOutside(
            read.label, read.filename, read.lineno, source_line(read.filename, read.lineno), tuple(before[site])
        )
        for site, read in reads.items()
    ]
    return sorted(states, key=lambda state: (state.filename, state.lineno, state.label))


def _first_of_each(findings: list[Finding]) -> list[Finding]:
    """One finding per (rule, line, op): the same line over several steps or loop iterations is one fix."""
    seen: set[tuple[str, str, int, str]] = set()
    kept: list[Finding] = []
    for finding in findings:
        key = (finding.rule, finding.filename, finding.lineno, finding.op)
        if key not in seen:
            seen.add(key)
            kept.append(finding)
    return kept


def _argument_labels(fn: Callable[..., object], args: Sequence[object]) -> list[tuple[torch.Tensor, str]]:
    """(tensor, 'argument NAME') for each tensor reachable from the arguments (and from `self` of a bound
    method): inside lists, tuples, dicts, module buffers and parameters, and object attributes."""
    try:
        roots = list(inspect.signature(fn).bind(*args).arguments.items())
    except (TypeError, ValueError):
        roots = [(f"args[{i}]", value) for i, value in enumerate(args)]
    if inspect.ismethod(fn):
        roots.append(("self", fn.__self__))
    labels: list[tuple[torch.Tensor, str]] = []
    seen: set[int] = set()
    stack = [(name, value, 0) for name, value in reversed(roots)]
    while stack:
        name, value, depth = stack.pop()
        if id(value) in seen or depth > _LABEL_DEPTH:
            continue
        seen.add(id(value))
        if isinstance(value, torch.Tensor):
            labels.append((value, f"argument {name}"))
        elif isinstance(value, torch.nn.Module):
            named = list(value.named_parameters()) + list(value.named_buffers())
            stack += [(f"{name}.{key}", item, depth + 1) for key, item in reversed(named)]
        elif isinstance(value, (list, tuple)):
            stack += [(f"{name}[{i}]", item, depth + 1) for i, item in reversed(list(enumerate(value)))]
        elif isinstance(value, dict):
            stack += [(f"{name}[{key!r}]", item, depth + 1) for key, item in reversed(list(value.items()))]
        elif hasattr(value, "__dict__") and not isinstance(value, type):
            stack += [(f"{name}.{key}", item, depth + 1) for key, item in reversed(list(vars(value).items()))]
    return labels


def _step_values(args: Sequence[object]) -> list[torch.Tensor]:
    """The tensors a step is given as values: its arguments, and tensors inside argument lists, tuples and
    dicts. A loop copies these into a graph's static inputs before each replay, so they may be new tensors in
    each step; tensors reached through modules and objects (parameters, buffers, caches) are state."""
    values: list[torch.Tensor] = []
    stack = list(args)
    while stack:
        value = stack.pop()
        if isinstance(value, torch.Tensor):
            values.append(value)
        elif isinstance(value, (list, tuple)):
            stack += value
        elif isinstance(value, dict):
            stack += value.values()
    return values


_LABEL_DEPTH = 4
