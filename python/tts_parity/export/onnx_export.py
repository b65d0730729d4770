"""One network variant to one ONNX file with the bundle's tensor names, checked on the way out.

torch.onnx.export's TorchScript exporter (torch 1.13's only one; asked for by `dynamo=False` where torch
offers the choice, as torch >= 2.9 defaults to the dynamo exporter): the exporter whose behaviour
docs/bundle-format.md describes and `parity bundle check --smoke` tests.
"""

from __future__ import annotations

import inspect
from typing import Any

import onnx
import torch

from ..errors import ExportError

__all__ = ["EXPORTER", "TORCH_DTYPES", "check_trial_outputs", "export_onnx"]


EXPORTER: dict[str, Any] = {"dynamo": False} if "dynamo" in inspect.signature(torch.onnx.export).parameters else {}

TORCH_DTYPES = {
    "float32": torch.float32,
    "float16": torch.float16,
    "float64": torch.float64,
    "int64": torch.int64,
    "int32": torch.int32,
    "bool": torch.bool,
}


def _shape_text(shape):
    return "[" + ", ".join(str(d) for d in shape) + "]"


def _concrete(shape, sizes):
    return [d if isinstance(d, int) else sizes[d] for d in shape]


def check_trial_outputs(label, got, outputs, sizes, hint):
    """The module run once on the example inputs: one output per declared tensor, each of the declared
    dtype and of the shape the example sizes give (`sizes`: symbol -> int). `hint`: added to a shape
    mismatch (what the export mode requires)."""
    got = tuple(got) if isinstance(got, (tuple, list)) else (got,)
    if len(got) != len(outputs):
        names = ", ".join(t["name"] for t in outputs)
        raise ExportError(
            f"{label}: the forward returned {len(got)} outputs, the protocol expects {len(outputs)} ({names})"
        )
    for value, spec in zip(got, outputs):
        expected = _concrete(spec["shape"], sizes)
        if not isinstance(value, torch.Tensor):
            raise ExportError(
                f'{label}: output "{spec["name"]}" is a {type(value).__name__}, expected a tensor {spec["dtype"]} '
                f"{_shape_text(expected)}"
            )
        if value.dtype != TORCH_DTYPES[spec["dtype"]]:
            raise ExportError(
                f'{label}: output "{spec["name"]}" is {str(value.dtype).replace("torch.", "")}, expected '
                f"{spec['dtype']}"
            )
        if list(value.shape) != expected:
            raise ExportError(
                f'{label}: output "{spec["name"]}" has shape {_shape_text(list(value.shape))} on the example inputs, '
                f"expected {_shape_text(expected)}{hint}"
            )


def _dynamic_axes(tensors):
    axes = {t["name"]: {i: d for i, d in enumerate(t["shape"]) if isinstance(d, str)} for t in tensors}
    return {name: a for name, a in axes.items() if a}


def export_onnx(module, path, label, inputs, outputs, example_args, opset):
    """Exports `module` called on `example_args` (one per declared input, in order) to `path`: declared
    symbolic dims become dynamic axes of those names, fixed ones stay fixed. Refuses a declared input the
    exporter dropped; pins every fixed output dimension in the file."""
    try:
        torch.onnx.export(
            module,
            tuple(example_args),
            str(path),
            input_names=[t["name"] for t in inputs],
            output_names=[t["name"] for t in outputs],
            dynamic_axes=_dynamic_axes(inputs + outputs) or None,
            opset_version=opset,
            do_constant_folding=True,
            **EXPORTER,
        )
    except Exception as error:  # the exporter's own failure, in one line: it names the unsupported op or value
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ExportError(f"{label}: torch.onnx.export failed: {first}") from error
    model = onnx.load(str(path), load_external_data=False)
    _refuse_dropped_inputs(label, model, inputs)
    if _pin_fixed_output_dims(label, model, outputs):
        onnx.save(model, str(path))


def _refuse_dropped_inputs(label, model, inputs):
    initializers = {i.name for i in model.graph.initializer}
    found = [i.name for i in model.graph.input if i.name not in initializers]
    for spec in inputs:
        if spec["name"] not in found:
            raise ExportError(
                f'{label}: the exported forward never reads input "{spec["name"]}", so torch.onnx.export dropped it '
                f"(the model has: {', '.join(found)}); the engine feeds it every call: read it in the forward "
                "(docs/python-export.md, the forward protocol) and export again"
            )


def _pin_fixed_output_dims(label, model, outputs):
    """Writes each declared fixed dimension into the file's graph outputs where the exporter left it
    symbolic or unset (ONNX Runtime infers them, but CUDA-graph capture and other runtimes read the
    file). A fixed dimension of another size is refused. Returns whether anything changed."""
    changed = False
    by_name = {o.name: o for o in model.graph.output}
    for spec in outputs:
        if spec["name"] not in by_name:
            raise ExportError(
                f'{label}: output "{spec["name"]}" is missing from the exported file (it has: {", ".join(by_name)}); '
                "return a distinct tensor for each output"
            )
        fixed = [(i, d) for i, d in enumerate(spec["shape"]) if isinstance(d, int)]
        if not fixed:
            continue
        shape = by_name[spec["name"]].type.tensor_type.shape
        if len(shape.dim) == 0:
            for _ in spec["shape"]:
                shape.dim.add()
        if len(shape.dim) != len(spec["shape"]):
            raise ExportError(
                f'{label}: output "{spec["name"]}" has rank {len(shape.dim)} in the exported file, expected '
                f"{_shape_text(spec['shape'])}"
            )
        for i, size in fixed:
            dim = shape.dim[i]
            if dim.HasField("dim_value"):
                if dim.dim_value != size:
                    raise ExportError(
                        f'{label}: output "{spec["name"]}" dimension {i} is {dim.dim_value} in the exported file, '
                        f"expected {size} ({_shape_text(spec['shape'])})"
                    )
                continue
            dim.Clear()
            dim.dim_value = size
            changed = True
    return changed
