"""ModuleRecorder: chosen modules' outputs at chosen decode steps, written to a safetensors sidecar of a
trace, so `parity compare-trace` can name the first module whose output differs (docs/python-modules.md).

Torch helper: imports torch (1.13 through 2.x). Two ways to record:

- eager: `with recorder.step(n): model(...)` — forward hooks copy each output to host memory;
- static buffers (graph-safe): `with recorder.static(): ...` around the CUDA-graph capture (or, without a
  graph, around EVERY call of the static-buffer step) — the hooks copy each output into a device buffer
  allocated once, a copy that is part of the captured work, so every replay refreshes the buffers; after
  each replay `recorder.flush(n)` reads them into the sidecar. The numbers are the graph's own.

Hooks run on every forward call, so the recorder knows when no hook refreshed the buffers: without a
capture, `flush(n)` refuses buffers that no `static()` call has written since the previous flush (they
would hold an older step's outputs). Once a `static()` block has run inside a CUDA-graph capture, the
buffers are fed by the graph's replays, which no hook sees, and that check is off.
"""

import collections
import contextlib
import os
import re
import weakref

import torch

from .safetensors_io import write_safetensors
from .static_buffers import StaticBuffers
from .unclosed import creation_site, warn_at

SIDECAR_SCHEMA = "tts-parity-modules/1"
SIDECAR_SUFFIX = ".modules.safetensors"
TUPLE_OUTPUTS = ("first", "each")


def sidecar_path_for(trace_path):
    """The sidecar's conventional path beside a trace: `run/a.jsonl` -> `run/a.modules.safetensors`."""
    root, _ = os.path.splitext(os.fspath(trace_path))
    return root + SIDECAR_SUFFIX


def sidecar_key(step, seq, name):
    """`{step}/{seq:05d}/{name}`: seq is the output's place in the step's execution order (0-based)."""
    return f"{step}/{seq:05d}/{name}"


def _selected_tensors(output, tuple_outputs):
    """(suffix, tensor) pairs to record from one forward's output: a tensor as is; a tuple, list or dict
    (HF ModelOutput) by its tensor elements — the first one (`first`), or each as `name#i` (`each`).
    Non-tensor elements (None, caches) are skipped."""
    if isinstance(output, torch.Tensor):
        return [("", output)]
    if isinstance(output, dict):
        elements = list(output.values())
    elif isinstance(output, (tuple, list)):
        elements = list(output)
    else:
        return []
    tensors = [(f"#{i}", t) for i, t in enumerate(elements) if isinstance(t, torch.Tensor)]
    if tuple_outputs == "first":
        return [("", tensors[0][1])] if tensors else []
    return tensors


def _to_host(tensors, copy):
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
    """Records the outputs of `model`'s submodules whose `named_modules()` name matches `modules`
    (a regular expression, `re.search`; the root module is never recorded) at `steps` (an iterable of
    step numbers, 1 = prefill; None = every step), as float32, into a safetensors file at `path`
    written by `close()` (also on leaving a `with` block, exceptions included). Hooks are removed then.

    `tuple_outputs`: "first" records the first tensor of a tuple/dict output under the module's name;
    "each" records every tensor element as `name#i` (i = its index in the tuple).
    """

    def __init__(self, model, path, modules, steps=None, tuple_outputs="first"):
        if tuple_outputs not in TUPLE_OUTPUTS:
            raise ValueError(f'tuple_outputs: expected one of {", ".join(TUPLE_OUTPUTS)}, found {tuple_outputs!r}')
        pattern = re.compile(modules) if isinstance(modules, str) else modules
        targets = [(name, m) for name, m in model.named_modules() if name and pattern.search(name)]
        if not targets:
            names = [name for name, _ in model.named_modules() if name]
            raise ValueError(f"modules {pattern.pattern!r} matches no submodule name (some names: {', '.join(names[:8]) or 'none'})")
        self.path = os.fspath(path)
        self.module_names = [name for name, _ in targets]
        self._pattern = pattern.pattern
        self._tuple_outputs = tuple_outputs
        self._steps = None if steps is None else frozenset(self._check_step(s) for s in steps)
        self._mode = None  # "eager" (host copies for self._step) | "static" (device buffer copies) | None
        self._step = None
        self._seq = 0
        self._pending = []  # eager: (label, float32 copy on the output's device) of the step, in call order
        self._tensors = {}  # key -> float32 CPU tensor
        self._buffers = StaticBuffers()  # named "{seq:05d}/{label}": the order the capture called them
        self._labels = []
        self._static = []  # (label, buffer) by seq: the hook's short path after the first call
        self._refreshed = False  # a static() block ran since the last flush (the buffers hold its outputs)
        self._graph_fed = False  # a static() block ran inside a CUDA-graph capture: replays refresh the buffers
        self._dropped = collections.Counter()  # module name -> forward calls outside step()/static()
        self._closed = False
        self._handles = [m.register_forward_hook(self._hook(name)) for name, m in targets]
        self._site = creation_site()
        # Never closed: at garbage collection or interpreter exit, write what was recorded and say so.
        self._finalizer = weakref.finalize(self, _close_unclosed, self.path, self._tensors, self._metadata(), self._dropped, self._site)

    @staticmethod
    def _check_step(step):
        if isinstance(step, bool) or not isinstance(step, int) or step < 1:
            raise ValueError(f"steps are integers >= 1 (1 = the prefill), found {step!r}")
        return step

    def wants(self, step):
        """True when `step` is one of the steps to record."""
        return self._steps is None or step in self._steps

    @contextlib.contextmanager
    def step(self, step):
        """Eager recording: forward calls inside the block are step `step` (recorded if wanted)."""
        self._check_open()
        self._check_step(step)
        if self._mode is not None:
            raise RuntimeError(f"step {step}: the recorder is already inside a {self._mode} block")
        self._mode, self._step, self._pending = ("eager" if self.wants(step) else "idle"), step, []
        try:
            yield self
        finally:
            # Also after an exception: what the step recorded up to it (a NaN's first module) is kept.
            pending, self._pending, self._mode, self._step = self._pending, [], None, None
            self._store(step, [label for label, _ in pending], [t for _, t in pending], copy=False)

    @contextlib.contextmanager
    def static(self):
        """Graph-safe recording: inside the block (the CUDA-graph capture, or EVERY call of a step that
        runs on static buffers without a graph) each output is copied into a device buffer allocated on its
        first call; `flush(step)` after the replay reads the buffers. The step must call the same modules
        in the same order every time (as a captured graph does)."""
        self._check_open()
        if self._mode is not None:
            raise RuntimeError(f"the recorder is already inside a {self._mode} block")
        self._mode, self._seq = "static", 0
        try:
            yield self
            if self._seq != len(self._labels):
                raise RuntimeError(f"static recording: this call made {self._seq} module outputs, the first made {len(self._labels)}; a static (captured) step must call the same modules every time")
            self._refreshed = True
        finally:
            self._mode = None

    def flush(self, step):
        """After a replay (or static call) of step `step`: the static buffers' contents into the sidecar."""
        self._check_open()
        self._check_step(step)
        if not self._labels:
            raise RuntimeError(f"flush({step}): no static buffers; record the capture inside `with recorder.static():`")
        if not (self._refreshed or self._graph_fed):
            raise RuntimeError(
                f"flush({step}): no `with recorder.static():` call refreshed the module buffers since the last flush, so they "
                "hold an older step's outputs; without a captured CUDA graph, run every step call inside `recorder.static()`"
            )
        self._refreshed = False
        if not self.wants(step):
            return
        buffers = [self._buffers[f"{seq:05d}/{label}"] for seq, label in enumerate(self._labels)]
        self._store(step, self._labels, buffers, copy=True)

    def close(self):
        """Removes the hooks and writes the sidecar (once). Warns when forward calls of recorded modules ran
        outside `step(n)` and `static()` (they were not recorded)."""
        if self._closed:
            return
        self._closed = True
        self._finalizer.detach()
        for handle in self._handles:
            handle.remove()
        _write_sidecar(self.path, self._tensors, self._metadata())
        if self._dropped:
            warn_at(self._site, f"ModuleRecorder({self.path}): {_dropped_calls(self._dropped)}")

    def _metadata(self):
        return {"schema": SIDECAR_SCHEMA, "modules": self._pattern, "tuple_outputs": self._tuple_outputs}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def _check_open(self):
        if self._closed:
            raise RuntimeError(f"the recorder of {self.path} is closed")

    def _store(self, step, labels, tensors, copy):
        """One step's outputs (in execution order) into the sidecar's tensors, as float32 on the host."""
        keys = [sidecar_key(step, seq, label) for seq, label in enumerate(labels)]
        twice = [k for k in keys if k in self._tensors]
        if twice:
            raise ValueError(f'sidecar key "{twice[0]}" recorded twice: each step is recorded once')
        self._tensors.update(zip(keys, _to_host(tensors, copy)))

    def _hook(self, name):
        def hook(module, inputs, output):
            mode = self._mode
            if mode == "eager":
                if isinstance(output, torch.Tensor):  # the common case, kept short: this runs inside the step
                    self._pending.append((name, output.detach().to(torch.float32, copy=True)))
                    return
                for suffix, tensor in _selected_tensors(output, self._tuple_outputs):
                    self._pending.append((name + suffix, tensor.detach().to(torch.float32, copy=True)))
            elif mode is None:
                self._dropped[name] += 1
            elif mode == "static":
                seq = self._seq
                if seq == 0 and not self._graph_fed:
                    self._graph_fed = _capturing(output)
                if isinstance(output, torch.Tensor) and seq < len(self._static):  # every call after the first
                    label, buffer = self._static[seq]
                    if label == name and buffer.shape == output.shape and buffer.dtype == output.dtype and buffer.device == output.device:
                        buffer.copy_(output.detach())
                        self._seq = seq + 1
                        return
                for suffix, tensor in _selected_tensors(output, self._tuple_outputs):
                    self._copy_to_buffer(self._seq, name + suffix, tensor)
                    self._seq += 1

        return hook

    def _copy_to_buffer(self, seq, label, tensor):
        if seq == len(self._labels):
            self._labels.append(label)
        if self._labels[seq] != label:
            raise RuntimeError(
                f"static recording: call {seq} of the step is {label}, but was {self._labels[seq]} when the buffers were made; "
                "a static (captured) step must call the same modules every time"
            )
        # StaticBuffers refuses another shape under the same name (the graph writes the captured buffer).
        buffer = self._buffers.record(f"{seq:05d}/{label}", tensor)
        if seq == len(self._static):
            self._static.append((label, buffer))


def _capturing(output):
    """True while the current CUDA stream captures a graph (the output's device decides; CPU never does)."""
    tensor = output if isinstance(output, torch.Tensor) else next((t for _, t in _selected_tensors(output, "first")), None)
    return tensor is not None and tensor.is_cuda and torch.cuda.is_current_stream_capturing()


def _write_sidecar(path, tensors, metadata):
    write_safetensors(path, {k: t.numpy() for k, t in tensors.items()}, metadata)


def _dropped_calls(dropped):
    calls = ", ".join(f"{name} ×{count}" for name, count in dropped.items())
    return (f"{sum(dropped.values())} forward call(s) of recorded modules ran outside `recorder.step(n)` and "
            f"`recorder.static()` and were not recorded ({calls})")


def _close_unclosed(path, tensors, metadata, dropped, site):
    """The finalizer of a recorder nobody closed (garbage collection or interpreter exit)."""
    if tensors:
        _write_sidecar(path, tensors, metadata)
        steps = sorted({int(key.split("/", 1)[0]) for key in tensors})
        span = f"step {steps[0]}" if len(steps) == 1 else f"steps {steps[0]}–{steps[-1]}"
        done = f"wrote the {len(tensors)} output(s) it recorded ({span})"
    else:
        done = "it had recorded nothing, so no sidecar was written"
    dropped_note = f"; {_dropped_calls(dropped)}" if dropped else ""
    warn_at(site, f"ModuleRecorder({path}) was never closed: {done}; call close() or use `with`{dropped_note}")
