"""The module-output sidecar of a trace, `tts-parity-modules/1` (docs/python-modules.md "The sidecar"): its names,
and a writer for engines without torch's forward hooks (MLX, JAX, a hand-written loop), numpy only. ModuleRecorder
(module_recorder.py, torch) writes the same files by hooks.

    write_module_sidecar({5: [("layers.0.self_attn", attn_out), ("layers.0.mlp", mlp_out), ...]}, path,
                         modules="^layers\\.\\d+\\.(self_attn|mlp)$")
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import numpy as np

from ._steps import check_step_number
from .arrays import as_numpy
from .errors import ParityTypeError, ParityValueError
from .safetensors_io import write_safetensors

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from .arrays import ArrayLike

__all__ = ["SIDECAR_SCHEMA", "SIDECAR_SUFFIX", "sidecar_key", "sidecar_path_for", "write_module_sidecar"]

SIDECAR_SCHEMA = "tts-parity-modules/1"
SIDECAR_SUFFIX = ".modules.safetensors"


def sidecar_path_for(trace_path: str | os.PathLike[str]) -> str:
    """The sidecar's conventional path beside a trace: `run/a.jsonl` -> `run/a.modules.safetensors`.

    Args:
        trace_path: the trace's path (str or os.PathLike).
    """
    root, _ = os.path.splitext(os.fspath(trace_path))
    return root + SIDECAR_SUFFIX


def sidecar_key(step: int, seq: int, name: str) -> str:
    """`{step}/{seq:05d}/{name}`: seq is the output's place in the step's execution order (0-based)."""
    return f"{step}/{seq:05d}/{name}"


def write_module_sidecar(
    outputs: Mapping[int, Sequence[tuple[str, ArrayLike]]],
    path: str | os.PathLike[str],
    *,
    modules: str,
    force: bool = False,
) -> None:
    """Writes module outputs recorded by hand as the sidecar ModuleRecorder writes (float32, keyed by step and
    execution order), so `parity compare-trace` drills into the first divergent step.

    Args:
        outputs: step (1 = the prefill) -> that step's `(module name, output)` pairs in execution order; an output is
            any real array (numpy, MLX, torch, anything arrays.as_numpy reads), stored as float32. Record the same
            modules over the same work in the two runs you compare: the k-th output of a name pairs with the k-th.
        path: the sidecar (`sidecar_path_for(trace)` gives the conventional name; give its file name to
            TraceWriter's `modules=`). An existing file is refused unless `force=True`.
        modules: what was recorded, for the header (ModuleRecorder stores its regular expression there).
        force: replace an existing file.
    """
    if not isinstance(modules, str):
        raise ParityTypeError(f"write_module_sidecar: modules: expected a string, found {type(modules).__name__}")
    if not hasattr(outputs, "items"):
        raise ParityTypeError(
            f"write_module_sidecar: outputs: expected a dict of step -> [(name, output), ...], found "
            f"{type(outputs).__name__}"
        )
    tensors: dict[str, np.ndarray] = {}
    for step, pairs in sorted(outputs.items(), key=lambda item: _step(item[0])):
        for seq, pair in enumerate(pairs):
            if not isinstance(pair, tuple) or len(pair) != 2 or not isinstance(pair[0], str) or not pair[0]:
                found = f"name {pair[0]!r}" if isinstance(pair, tuple) and len(pair) == 2 else type(pair).__name__
                raise ParityValueError(
                    f"write_module_sidecar: step {step}: output {seq}: "
                    f"expected a (module name, output) pair with a non-empty name, found {found}"
                )
            name, value = pair
            array = as_numpy(value, f'write_module_sidecar: step {step}: "{name}"')
            if not (np.issubdtype(array.dtype, np.floating) or np.issubdtype(array.dtype, np.integer)):
                raise ParityValueError(
                    f'write_module_sidecar: step {step}: "{name}": expected numbers, found dtype {array.dtype}'
                )
            tensors[sidecar_key(step, seq, name)] = array.astype(np.float32)
    metadata = {"schema": SIDECAR_SCHEMA, "modules": modules, "tuple_outputs": "first"}
    write_safetensors(tensors, path, metadata=metadata, force=force)


def _step(step: object) -> int:
    return check_step_number(step, "write_module_sidecar: outputs: step")
