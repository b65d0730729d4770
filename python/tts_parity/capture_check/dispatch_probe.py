"""StepProbe: watches one run of a step, op by op, without changing what the ops compute.

Two torch modes, entered together:
- a TorchDispatchMode sees every aten op below autograd with its real arguments and results (shapes, dtypes,
  Python numbers). It runs the op unchanged, then records it and applies the per-op rules.
- a TorchFunctionMode sees the Python-level calls that sync without any aten op on a CPU tensor: `.tolist()`,
  `.cpu()`, `.numpy()`, `np.asarray(t)` and printing/formatting a tensor. It also gives the aten ops
  their context: a 0-dim tensor lifted by `t[i] = 5` is a Python value, not `torch.tensor(...)`, and
  torch 1.13's `repeat_interleave(x, 2)` reaches aten as tensor repeats although its size is static.
The function mode is off inside its own handler, so it sees only the outermost torch call of a user line;
ops that the dispatch handler itself runs (the op, `.shape` reads) pass through it untouched.
"""

from __future__ import annotations

import itertools
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import torch
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode

from . import rules
from .report import Finding
from .source_location import source_line, user_location

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence

    from torch._ops import OpOverload

    from .rules import HintKind, Rule

    Shape = tuple[int, ...]
    Number = bool | int | float | complex
    Memory = tuple[int, int] | None  # (storage address, element offset); None where a tensor has no plain storage
    Location = tuple[str, int]  # (filename, lineno) in the user's code
    OpKey = tuple[str, int, str, int]  # (filename, lineno, op, occurrence)
    StateSite = tuple[OpKey, str]  # (the op that read the state, the input position it read it at)
    PythonCall = tuple[str, tuple[object, ...], dict[str, object]]  # (name, args, kwargs)
    TensorRefs = dict[int, weakref.ref[torch.Tensor]]  # id -> the tensor, held weakly

__all__ = ["OpRecord", "StateRead", "StepProbe"]


# Python-level calls that read tensor data on the host although no aten op says so on a CPU tensor.
_HOST_CALLS: dict[str, HintKind] = {
    "tolist": "copy-to-host",
    "cpu": "copy-to-host",
    "numpy": "copy-to-host",
    "__array__": "copy-to-host",
    "__repr__": "format",
    "__str__": "format",
    "__format__": "format",
}
_NUMBER_TYPES = (bool, int, float, complex)
_LIFTED_VALUES_KEPT = 64  # values of a lifted tensor compared across steps (more would be bulk data, not a counter)


@dataclass(frozen=True)
class OpRecord:
    """One aten op call of a step, as the cross-step rules compare it.

    key: (filename, lineno, op, occurrence) — the n-th call of this op from this user line in the step.
    input_shapes / scalars / external_inputs / state_memory: ((position, value), ...), position like "args[1][0]".
    external_inputs: tensor inputs not produced by an earlier op of the step, with a label naming them.
    state_memory: for the external inputs that are state (not a value the step was given), where their data
    lives (storage address, offset): a captured graph reads that memory at every replay.
    """

    key: OpKey
    op: str
    filename: str
    lineno: int
    input_shapes: tuple[tuple[str, Shape], ...]
    output_shapes: tuple[tuple[int, Shape], ...]  # position: the output's index
    scalars: tuple[tuple[str, Number], ...]
    external_inputs: tuple[tuple[str, str], ...]  # value: the label naming the tensor
    state_memory: tuple[tuple[str, Memory], ...]


class StepProbe:
    """Context manager around one call of the step: afterwards `records` and `findings` hold what it saw."""

    def __init__(
        self, argument_labels: Iterable[tuple[torch.Tensor, str]] = (), step_values: Iterable[torch.Tensor] = ()
    ) -> None:
        self.records: list[OpRecord] = []
        self.findings: list[Finding] = []
        self.in_dispatch = 0
        self.python_call: PythonCall | None = None  # the outermost torch call running
        self._occurrences: dict[tuple[str, int, str], int] = {}
        self._produced: TensorRefs = {}
        self._labels = {id(tensor): (weakref.ref(tensor), label) for tensor, label in argument_labels}
        self._step_values: TensorRefs = {id(tensor): weakref.ref(tensor) for tensor in step_values}
        self._outside_count = itertools.count(1)
        self._modes = (_FunctionProbe(self), _DispatchProbe(self))
        # Each state tensor's first read in the step, by where it happened
        self.state_reads: dict[StateSite, StateRead] = {}
        self._state_seen: TensorRefs = {}
        self._versions_before: dict[int, int | None] = {}

    def __enter__(self) -> StepProbe:
        for mode in self._modes:
            mode.__enter__()
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        for mode in reversed(self._modes):
            mode.__exit__(*exc)
        for read in self.state_reads.values():
            tensor = read.tensor()
            read.version_at_end = None if tensor is None else _version(tensor)
        return False

    def add_finding(self, rule: Rule, op: str, hint: str, location: Location | None = None) -> None:
        filename, lineno = location or user_location()
        self.findings.append(Finding(rule, op, filename, lineno, source_line(filename, lineno), hint))

    def on_python_call(self, name: str) -> None:
        kind = _HOST_CALLS.get(name)
        if kind is not None:
            self.add_finding(rules.HOST_SYNC, f"Tensor.{name}", rules.HINTS[kind])

    def on_op(self, func: OpOverload, args: Sequence[object], kwargs: Mapping[str, object], out: object) -> None:
        call_name = self.python_call[0] if self.python_call else None
        if call_name in _HOST_CALLS:
            return  # already reported once as the Python call; its inner ops (e.g. printing's) are not the step's
        location = user_location()
        op = str(func)
        leaves = _leaves(args, kwargs)
        scalars: list[tuple[str, Number]] = [
            (position, value) for position, value in leaves if isinstance(value, _NUMBER_TYPES)
        ]
        rule = self._per_op_rule(func, args, kwargs, out, call_name, scalars)
        if rule is not None:
            self.add_finding(rule[0], op, rule[1], location)
        counter_key = (location[0], location[1], op)
        occurrence = self._occurrences.get(counter_key, 0)
        self._occurrences[counter_key] = occurrence + 1
        inputs = [(position, value) for position, value in leaves if isinstance(value, torch.Tensor)]
        external = [(position, tensor) for position, tensor in inputs if not self._was_produced(tensor)]
        outputs = _output_tensors(out)
        self.records.append(
            OpRecord(
                key=(*counter_key, occurrence),
                op=op,
                filename=location[0],
                lineno=location[1],
                input_shapes=tuple((position, tuple(tensor.shape)) for position, tensor in inputs),
                output_shapes=tuple((index, tuple(tensor.shape)) for index, tensor in enumerate(outputs)),
                scalars=tuple(scalars),
                external_inputs=tuple((position, self._external_label(tensor)) for position, tensor in external),
                state_memory=()
                if rules.is_lift(func)  # its input is Python data made into a tensor this step, not state
                else tuple(
                    (position, _memory(tensor)) for position, tensor in external if not self._is_step_value(tensor)
                ),
            )
        )
        if not rules.is_lift(func):
            for position, tensor in external:
                if not self._is_step_value(tensor) and not _holds(self._state_seen, tensor):
                    self._state_seen[id(tensor)] = weakref.ref(tensor)
                    self.state_reads[((*counter_key, occurrence), position)] = StateRead(
                        self._external_label(tensor),
                        location[0],
                        location[1],
                        weakref.ref(tensor),
                        self._versions_before.get(id(tensor)),
                    )
        for tensor in outputs:
            self._produced[id(tensor)] = weakref.ref(tensor)

    def _per_op_rule(
        self,
        func: OpOverload,
        args: Sequence[object],
        kwargs: Mapping[str, object],
        out: object,
        call_name: str | None,
        scalars: list[tuple[str, Number]],
    ) -> tuple[Rule, str] | None:
        if rules.is_lift(func) and call_name == "__setitem__" and isinstance(out, torch.Tensor) and out.dim() == 0:
            scalars.append(("value", out.item()))  # `t[i] = 5`: the 5, a Python number (this read is the checker's own)
            return None
        if rules.is_lift(func) and isinstance(out, torch.Tensor) and out.numel() <= _LIFTED_VALUES_KEPT:
            # Python data made into a tensor: its values are the Python numbers the step read this time.
            scalars.extend((f"data[{i}]", value) for i, value in enumerate(out.flatten().tolist()))
        if rules.packet_name(func) == "aten.repeat_interleave" and call_name == "repeat_interleave":
            _, call_args, call_kwargs = self.python_call or ("", (), {})
            repeats = call_args[1] if len(call_args) > 1 else call_kwargs.get("repeats")
            if isinstance(repeats, int):
                return None  # integer repeats: static size (torch 1.13 routes it through the tensor overload)
        if rules.is_device_to_host_copy(func, args, out):
            return rules.HOST_SYNC, rules.HINTS["copy-to-host"]
        return rules.per_op_rule(func, args, kwargs)

    def _was_produced(self, tensor: torch.Tensor) -> bool:
        return _holds(self._produced, tensor)

    def _is_step_value(self, tensor: torch.Tensor) -> bool:
        return _holds(self._step_values, tensor)

    def _external_label(self, tensor: torch.Tensor) -> str:
        entry = self._labels.get(id(tensor))
        if entry is None or entry[0]() is not tensor:
            entry = (weakref.ref(tensor), f"tensor {next(self._outside_count)} from outside the step's arguments")
            self._labels[id(tensor)] = entry
        return entry[1]


class _FunctionProbe(TorchFunctionMode):
    def __init__(self, probe: StepProbe) -> None:
        super().__init__()
        self.probe = probe

    def __torch_function__(
        self,
        func: Callable[..., object],
        types: Sequence[type],
        args: tuple[object, ...] = (),
        kwargs: dict[str, object] | None = None,
    ) -> object:
        kwargs = kwargs or {}
        probe = self.probe
        if probe.in_dispatch or probe.python_call is not None:
            return func(*args, **kwargs)
        name = getattr(func, "__name__", "")
        probe.on_python_call(name)
        probe.python_call = (name, args, kwargs)
        try:
            return func(*args, **kwargs)
        finally:
            probe.python_call = None


class _DispatchProbe(TorchDispatchMode):
    def __init__(self, probe: StepProbe) -> None:
        super().__init__()
        self.probe = probe

    def __torch_dispatch__(
        self,
        func: OpOverload,
        types: Sequence[type],
        args: tuple[object, ...] = (),
        kwargs: dict[str, object] | None = None,
    ) -> object:
        kwargs = kwargs or {}
        probe = self.probe
        probe.in_dispatch += 1
        try:
            probe._versions_before = {
                id(value): _version(value) for _, value in _leaves(args, kwargs) if isinstance(value, torch.Tensor)
            }
            out = func(*args, **kwargs)
            probe.on_op(func, args, kwargs, out)
        finally:
            probe.in_dispatch -= 1
        return out


def _leaves(args: Sequence[object], kwargs: Mapping[str, object]) -> list[tuple[str, object]]:
    """[(position, value)] for every non-container value in args/kwargs, lists and tuples walked, in order."""
    leaves: list[tuple[str, object]] = []

    def walk(position: str, value: object) -> None:
        if isinstance(value, (list, tuple)):
            for index, item in enumerate(value):
                walk(f"{position}[{index}]", item)
        else:
            leaves.append((position, value))

    for index, value in enumerate(args):
        walk(f"args[{index}]", value)
    for name, value in kwargs.items():
        walk(name, value)
    return leaves


@dataclass
class StateRead:
    """A state tensor (not a value the step was given) read by an op of the step: where, which tensor, and its
    in-place version counter before that op and when the step ended (None where torch keeps none: inference
    tensors)."""

    label: str
    filename: str
    lineno: int
    tensor: weakref.ref[torch.Tensor]
    version_at_read: int | None
    version_at_end: int | None = None


def _version(tensor: torch.Tensor) -> int | None:
    try:
        return tensor._version
    except RuntimeError:  # an inference tensor has no version counter
        return None


def _holds(table: TensorRefs, tensor: torch.Tensor) -> bool:
    """Whether `table` ({id: weakref}) holds this very tensor (an id alone may be a dead tensor's, reused)."""
    ref = table.get(id(tensor))
    return ref is not None and ref() is tensor


def _memory(tensor: torch.Tensor) -> Memory:
    """(storage address, element offset) of a tensor's data, or None where a tensor has no plain storage."""
    try:
        return (tensor.untyped_storage().data_ptr(), int(tensor.storage_offset()))
    except (RuntimeError, NotImplementedError):
        return None


def _output_tensors(out: object) -> list[torch.Tensor]:
    if isinstance(out, torch.Tensor):
        return [out]
    return [value for _, value in _leaves((out,), {}) if isinstance(value, torch.Tensor)]
