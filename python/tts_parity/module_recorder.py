"""ModuleRecorder: chosen modules' outputs at chosen decode steps, written to a safetensors sidecar of a trace, so
`parity compare-trace` can name the first module whose output differs (docs/python-modules.md).

Torch helper: imports torch (1.13 through 2.x). One loop, the same vocabulary as StepRecorder:

- `with recorder.step(n): ...` around step n's work: forward hooks copy each recorded output (eager, or a
  static-buffer step called without a graph);
- `with recorder.graph_capture(): ...` around the warm-up runs and the CUDA-graph capture: the hooks copy each
  output into a device buffer allocated once, a copy that is part of the captured work, so every replay
  refreshes the buffers; `with recorder.step(n): graph.replay()` then reads them as step n. The numbers are
  the graph's own.

A step in which no recorded module ran is refused while the buffers exist but no capture feeds them (a
graph_capture() block that ran while no stream captured): the buffers would hold an older step's outputs.
"""

from __future__ import annotations

import collections
import contextlib
import re
import weakref
from typing import TYPE_CHECKING, Any, Callable, Literal

import torch

from ._output_files import check_output_path
from ._steps import StepSequence, check_step_number
from .arrays import check_tensor_readable
from .errors import ParityStateError, ParityTypeError, ParityValueError
from .module_sidecar import SIDECAR_SCHEMA, SIDECAR_SUFFIX, sidecar_key, sidecar_path_for
from .safetensors_io import write_safetensors
from .static_buffers import StaticBuffers
from .unclosed import creation_site, warn_at

if TYPE_CHECKING:
    import os
    from collections.abc import Iterable, Iterator

__all__ = ["SIDECAR_SCHEMA", "SIDECAR_SUFFIX", "ModuleRecorder", "sidecar_key", "sidecar_path_for"]

TupleOutputs = Literal["first", "each"]
TUPLE_OUTPUTS: tuple[TupleOutputs, ...] = ("first", "each")


def _selected_tensors(output: Any, tuple_outputs: TupleOutputs) -> list[tuple[str, torch.Tensor]]:
    """(suffix, tensor) pairs to record from one forward's output: a tensor as is; otherwise its tensor leaves,
    found through tuples, lists and dicts (HF ModelOutput) at any depth — the first one (`first`), or each as
    `name#i` (`each`; `#i.j` for element j of element i). Other leaves (None, ints, caches) hold nothing to
    record; an output with no tensor leaf at all gives [] (the recorder says so at close)."""
    if isinstance(output, torch.Tensor):
        return [("", output)]
    tensors = list(_tensor_leaves(output, ""))
    if tuple_outputs == "first":
        return [("", tensors[0][1])] if tensors else []
    return tensors


def _tensor_leaves(node: Any, path: str) -> Iterator[tuple[str, torch.Tensor]]:
    if isinstance(node, torch.Tensor):
        yield path, node
        return
    if isinstance(node, dict):
        elements = list(node.values())
    elif isinstance(node, (tuple, list)):
        elements = list(node)
    else:
        return
    for i, element in enumerate(elements):
        yield from _tensor_leaves(element, f"{path}.{i}" if path else f"#{i}")


def _to_host(tensors: list[torch.Tensor], copy: bool) -> list[torch.Tensor]:
    """float32 CPU tensors of `tensors`. Device tensors of one device go over in one copy (one
    synchronisation per step, not one per module); CPU ones are copied only when `copy` (static buffers
    are rewritten by the next step; eager outputs were copied by the hook)."""
    if not tensors:
        return []
    devices = {t.device for t in tensors}
    if len(devices) == 1 and next(iter(devices)).type != "cpu":
        flat = torch.cat([t.reshape(-1).to(torch.float32) for t in tensors]).cpu()
        return [part.view(t.shape) for part, t in zip(torch.split(flat, [t.numel() for t in tensors]), tensors)]
    return [t.to("cpu", torch.float32, copy=copy) for t in tensors]


class ModuleRecorder:
    """Records the outputs of `model`'s submodules whose `named_modules()` name matches `modules`, step by step, as
    float32, into a safetensors sidecar at `path` written by `close()` (also on leaving a `with` block, exceptions
    included); the forward hooks are removed then. The same vocabulary as StepRecorder: `with recorder.step(n):`
    around step n's work, `with recorder.graph_capture():` around the warm-up and the capture of a CUDA graph.

    Args:
        model: the `torch.nn.Module` whose submodules are recorded (the root module never is).
        path: the sidecar file (`sidecar_path_for(trace)` gives the conventional name beside a trace).
        modules: a regular expression (str or compiled), `re.search`ed in each submodule's name; anchor it (`^...$`)
            to pick exact modules. One that matches no name is refused, with some of the names.
        steps: the step numbers to keep (an iterable of ints >= 1; 1 = the prefill), None = every step. Every step
            is still entered with `step(n)`; the others are run and not stored.
        tuple_outputs: "first" records the first tensor of a tuple/list/dict output under the module's name;
            "each" records every tensor element as `name#i` (i = its index).
        force: replace an existing file at `path` (default: refuse it when the recorder is made).

    Steps are entered 1, 2, 3... in order, each once, as in the trace; a step entered twice, out of order,
    inside another step, or after close() raises ParityStateError naming it.
    """

    def __init__(
        self,
        model: torch.nn.Module,
        path: str | os.PathLike[str],
        modules: str | re.Pattern[str],
        *,
        steps: Iterable[int] | None = None,
        tuple_outputs: TupleOutputs = "first",
        force: bool = False,
    ) -> None:
        if not isinstance(model, torch.nn.Module):
            raise ParityTypeError(f"ModuleRecorder: model: expected a torch.nn.Module, found {type(model).__name__}")
        if tuple_outputs not in TUPLE_OUTPUTS:
            raise ParityValueError(
                f"ModuleRecorder: tuple_outputs: expected one of {', '.join(TUPLE_OUTPUTS)}, found {tuple_outputs!r}"
            )
        if isinstance(modules, str):
            try:
                pattern = re.compile(modules)
            except re.error as error:
                raise ParityValueError(
                    f"ModuleRecorder: modules: {modules!r} is not a regular expression: {error}"
                ) from None
        elif isinstance(modules, re.Pattern):
            pattern = modules
        else:
            raise ParityTypeError(
                f"ModuleRecorder: modules: expected a regular expression (str), found {type(modules).__name__}"
            )
        targets = [(name, m) for name, m in model.named_modules() if name and pattern.search(name)]
        if not targets:
            names = [name for name, _ in model.named_modules() if name]
            raise ParityValueError(
                f"ModuleRecorder: modules: {pattern.pattern!r} matches no submodule name "
                f"(some names: {', '.join(names[:8]) or 'none'})"
            )
        self.path = check_output_path(path, force=force, what="ModuleRecorder: path")
        self.module_names = [name for name, _ in targets]
        self._pattern = pattern.pattern
        self._tuple_outputs = tuple_outputs
        self._steps = None if steps is None else frozenset(check_step_number(s, "ModuleRecorder: steps") for s in steps)
        self._sequence = StepSequence(f"ModuleRecorder({self.path})")
        self._pending: list[
            tuple[str, torch.Tensor]
        ] = []  # step(): (label, float32 copy on the output's device), call order
        self._tensors: dict[str, torch.Tensor] = {}  # key -> float32 CPU tensor
        self._buffers = StaticBuffers()  # named "{seq:05d}/{label}": the order the capture called them
        self._labels: list[str] = []
        self._static: list[
            tuple[str, torch.Tensor]
        ] = []  # (label, buffer) by seq: the hook's short path after the first call
        self._seq = 0
        self._graph_fed = False  # a graph_capture() block ran while the stream captured: replays refresh the buffers
        self._dropped: collections.Counter[str] = (
            collections.Counter()
        )  # module name -> forward calls outside any block
        self._untensored: dict[str, str] = {}  # module name -> the type of an output with no tensor in it
        self._failed_step: int | None = None  # a step block that raised: the sidecar is then kept as .partial
        # The hooks reach the recorder through a weak reference (as torch/utils/hooks.py does), so a model does
        # not keep an unclosed recorder alive and the finalizer below can run.
        this = weakref.ref(self)
        self._handles = [m.register_forward_hook(_forward_hook(this, name)) for name, m in targets]
        self._site = creation_site()
        # Never closed: at garbage collection or interpreter exit, remove the hooks, keep what was recorded as
        # <sidecar>.partial and say so.
        self._finalizer = weakref.finalize(
            self, _close_unclosed, self.path, self._tensors, self._metadata(), self._dropped, self._site, self._handles
        )

    def wants(self, step: int) -> bool:
        """True when `step` is one of the steps to keep."""
        return self._steps is None or step in self._steps

    @contextlib.contextmanager
    def step(self, step: int) -> Iterator[ModuleRecorder]:
        """Step `step`'s work runs inside the block. Module calls inside it are recorded by forward hooks (eager,
        or a static-buffer step called without a graph); after a CUDA graph was captured inside graph_capture(),
        the buffers its replay refreshed are read as the step's outputs when the block ends.

        Args:
            step: the step number, 1 (the prefill), 2, 3... in order.
        """
        n = self._sequence.enter_step(step)
        self._pending = []
        try:
            yield self
        except BaseException:
            self._failed_step = n
            raise
        finally:
            # Also after an exception: what the step recorded up to it (a NaN's first module) is kept.
            pending, self._pending = self._pending, []
            self._sequence.leave_step()
            self._end_step(n, pending)

    @contextlib.contextmanager
    def graph_capture(self) -> Iterator[ModuleRecorder]:
        """Around each run of the step that prepares or makes a CUDA graph capture (the side-stream warm-up runs
        and the `torch.cuda.graph(g)` block): each recorded output is copied into a device buffer allocated on
        its first call; made while the stream captures, the copies are part of the graph, so every replay
        refreshes the buffers. Not a step: nothing is stored. Every run must call the same modules in the same
        order with the same shapes (as a captured graph does); a change is refused, naming the call."""
        outer = self._sequence.enter_capture()
        self._seq = 0
        try:
            yield self
            if self._seq != len(self._labels):
                raise ParityStateError(
                    f"ModuleRecorder: graph_capture(): this run made {self._seq} module outputs, the first "
                    f"made {len(self._labels)}; a captured step must call the same modules every time"
                )
        finally:
            self._sequence.leave_capture(outer)

    def close(self) -> None:
        """Removes the hooks and writes the sidecar (once). Warns when forward calls of recorded modules ran
        outside `step(n)` and `graph_capture()` (they were not recorded). After a step block that raised, the
        sidecar is kept as `<sidecar>.partial` (with what that step recorded up to the error), as a trace is:
        a failed block leaves nothing under the real name."""
        self._finish(failed=self._failed_step is not None)

    def _finish(self, *, failed: bool) -> None:
        if self._sequence.closed:
            return
        self._sequence.closed = True
        self._finalizer.detach()
        for handle in self._handles:
            handle.remove()
        if failed:
            partial = self.path + ".partial"
            _write_sidecar(partial, self._tensors, self._metadata())
            during = f"step {self._failed_step} raised" if self._failed_step is not None else "its block raised"
            warn_at(self._site, f"ModuleRecorder({self.path}): {during}: what it recorded is kept as {partial}")
        else:
            _write_sidecar(self.path, self._tensors, self._metadata())
        if self._dropped:
            warn_at(self._site, f"ModuleRecorder({self.path}): {_dropped_calls(self._dropped)}")
        if self._untensored:
            found = ", ".join(f"{name} returned {kind}" for name, kind in self._untensored.items())
            warn_at(
                self._site,
                f"ModuleRecorder({self.path}): {len(self._untensored)} recorded module(s) returned no tensor, so "
                f"nothing of theirs is in the sidecar ({found}); record a submodule that returns one",
            )

    def _metadata(self) -> dict[str, str]:
        return {"schema": SIDECAR_SCHEMA, "modules": self._pattern, "tuple_outputs": self._tuple_outputs}

    def __enter__(self) -> ModuleRecorder:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, traceback: object) -> None:
        self._finish(failed=kind is not None or self._failed_step is not None)

    def _end_step(self, n: int, pending: list[tuple[str, torch.Tensor]]) -> None:
        labels: list[str] = []
        tensors: list[torch.Tensor] = []
        if self._graph_fed:  # a replay ran inside the step: the graph's outputs, then any eager calls after them
            labels += self._labels
            tensors += [self._buffers[f"{seq:05d}/{label}"] for seq, label in enumerate(self._labels)]
        elif not pending and self._labels:
            raise ParityStateError(
                f"step {n}: ModuleRecorder: no recorded module ran inside the step, "
                "and no CUDA graph captured inside graph_capture() refreshes the static buffers "
                "(no stream was capturing); without a graph, call the step inside `with recorder.step(n):`"
            )
        labels += [label for label, _ in pending]
        if self.wants(n):
            # Static buffers are rewritten by the next replay: copied; eager outputs were copied by the hook.
            self._store(n, labels, _to_host(tensors, copy=True) + _to_host([t for _, t in pending], copy=False))

    def _store(self, step: int, labels: list[str], tensors: list[torch.Tensor]) -> None:
        """One step's outputs (in execution order) into the sidecar's tensors, as float32 on the host."""
        self._tensors.update((sidecar_key(step, seq, label), t) for seq, (label, t) in enumerate(zip(labels, tensors)))

    def _on_output(self, name: str, output: Any) -> None:
        """A recorded module's forward returned `output` (called by its forward hook)."""
        block = self._sequence.block
        if block == "step":
            if isinstance(output, torch.Tensor):  # the common case, kept short: this runs inside the step
                check_tensor_readable(output, f'ModuleRecorder: step {self._sequence.current}: "{name}" output')
                self._pending.append((name, output.detach().to(torch.float32, copy=True)))
                return
            selected = _selected_tensors(output, self._tuple_outputs)
            if not selected:
                self._untensored.setdefault(name, type(output).__name__)
            for suffix, tensor in selected:
                check_tensor_readable(
                    tensor, f'ModuleRecorder: step {self._sequence.current}: "{name + suffix}" output'
                )
                self._pending.append((name + suffix, tensor.detach().to(torch.float32, copy=True)))
        elif block is None:
            self._dropped[name] += 1
        else:  # graph_capture
            seq = self._seq
            if seq == 0 and not self._graph_fed:
                self._graph_fed = _capturing(output)
            if isinstance(output, torch.Tensor) and seq < len(self._static):  # every run after the first
                label, buffer = self._static[seq]
                if (
                    label == name
                    and buffer.shape == output.shape
                    and buffer.dtype == output.dtype
                    and buffer.device == output.device
                ):
                    buffer.copy_(output.detach())
                    self._seq = seq + 1
                    return
            for suffix, tensor in _selected_tensors(output, self._tuple_outputs):
                self._copy_to_buffer(self._seq, name + suffix, tensor)
                self._seq += 1

    def _copy_to_buffer(self, seq: int, label: str, tensor: torch.Tensor) -> None:
        if seq == len(self._labels):
            self._labels.append(label)
        if self._labels[seq] != label:
            raise ParityStateError(
                f"ModuleRecorder: graph_capture(): call {seq} of the step is {label}, "
                f"but was {self._labels[seq]} when the buffers were made; "
                "a captured step must call the same modules every time"
            )
        # StaticBuffers refuses another shape under the same name (the graph writes the captured buffer).
        buffer = self._buffers.write(f"{seq:05d}/{label}", tensor, what=f"ModuleRecorder: graph_capture(): {label}")
        if seq == len(self._static):
            self._static.append((label, buffer))


def _forward_hook(
    recorder: weakref.ReferenceType[ModuleRecorder], name: str
) -> Callable[[torch.nn.Module, Any, Any], None]:
    def hook(module: torch.nn.Module, inputs: Any, output: Any) -> None:
        live = recorder()
        if live is not None:  # else collected: its finalizer removes this hook
            live._on_output(name, output)

    return hook


def _capturing(output: Any) -> bool:
    """True while the current CUDA stream captures a graph (the output's device decides; CPU never does)."""
    tensor = (
        output if isinstance(output, torch.Tensor) else next((t for _, t in _selected_tensors(output, "first")), None)
    )
    return tensor is not None and tensor.is_cuda and torch.cuda.is_current_stream_capturing()


def _write_sidecar(path: str, tensors: dict[str, torch.Tensor], metadata: dict[str, str]) -> None:
    # The path was checked when the recorder was made (force or not): replacing what is there now is the
    # recorder's own file (a second close, or a file that appeared meanwhile under the name it was given).
    write_safetensors({k: t.numpy() for k, t in tensors.items()}, path, metadata=metadata, force=True)


def _dropped_calls(dropped: collections.Counter[str]) -> str:
    calls = ", ".join(f"{name} x{count}" for name, count in dropped.items())
    return (
        f"{sum(dropped.values())} forward call(s) of recorded modules ran outside `recorder.step(n)` and "
        f"`recorder.graph_capture()` and were not recorded ({calls})"
    )


def _close_unclosed(
    path: str,
    tensors: dict[str, torch.Tensor],
    metadata: dict[str, str],
    dropped: collections.Counter[str],
    site: tuple[str, int],
    handles: list[Any],
) -> None:
    """The finalizer of a recorder nobody closed (garbage collection or interpreter exit): its hooks are removed,
    what it recorded is kept as `<sidecar>.partial`, as an unclosed trace's lines are."""
    for handle in handles:
        handle.remove()
    if tensors:
        _write_sidecar(path + ".partial", tensors, metadata)
        steps = sorted({int(key.split("/", 1)[0]) for key in tensors})
        span = f"step {steps[0]}" if len(steps) == 1 else f"steps {steps[0]}-{steps[-1]}"
        done = f"the {len(tensors)} output(s) it recorded ({span}) are kept as {path}.partial"
    else:
        done = "it had recorded nothing, so no sidecar was written"
    dropped_note = f"; {_dropped_calls(dropped)}" if dropped else ""
    warn_at(site, f"ModuleRecorder({path}) was never closed: {done}; call close() or use `with`{dropped_note}")
