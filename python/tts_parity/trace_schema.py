"""The `tts-parity-trace/1` rules a writer must keep (docs/trace-format.md), checked before a line is
written: the JSON Schemas generated from the TypeScript zod schemas and the reader's own per-line rules
(schema/*.json, committed; a TS test fails when they drift: "at least one of logits, codes,
codePredictorLogits" and the longest line come from there, with the reader's words), plus what a JSON
Schema cannot say — steps 1, 2, 3… in order, exactly q codes,
exactly q-1 code-predictor entries, and no bare NaN/Infinity (JSON has none: they are written as the
strings "NaN", "Infinity", "-Infinity"). Every refusal is a ParityValueError (a ValueError) naming the step and the
field, in
the words `parity compare-trace` uses for the same problem in a file.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

import fastjsonschema
import jsonschema

from .errors import ParityValueError

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = [
    "MAX_LINE",
    "TRACE_SCHEMA",
    "check_header",
    "check_step",
    "check_step_schema",
    "encode_line",
    "json_number",
    "json_stats",
]

SCHEMA_DIR = Path(__file__).resolve().parent / "schema"
TRACE_SCHEMA = "tts-parity-trace/1"


class _Schema:
    """One generated JSON Schema, checked two ways: fastjsonschema's compiled check decides (about 30 times
    faster per step line than jsonschema 4.25, which TraceWriter.close() runs on every line), and jsonschema
    names the field only when a value is refused, in the words the tests and the CLI use."""

    def __init__(self, name: str):
        schema = json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))
        self.max_line: int = schema["x-parity-max-line-characters"]
        inlined = _inline_refs(schema, schema.pop("$defs", {}))
        # The reader's "at least one of" rule, decided alone so that write_step() (whose records are checked
        # against the whole schema only at close) is refused at once, in the reader's words.
        self.data_rule = fastjsonschema.compile({"anyOf": inlined["anyOf"]}) if "anyOf" in inlined else None
        self.data_message: str | None = schema.get("x-parity-anyOf-message")
        self.explain = jsonschema.Draft202012Validator(inlined)
        # The generated schemas use only keywords that mean the same in draft 7, the newest fastjsonschema
        # knows (tests/test_trace_schema_fast_path.py checks both agree).
        self.decide = fastjsonschema.compile({**inlined, "$schema": "http://json-schema.org/draft-07/schema#"})


def _inline_refs(node: Any, defs: dict[str, Any]) -> Any:
    """The schema with each `{"$ref": "#/$defs/X"}` replaced by X (the trace schemas are not recursive), so the
    validator does not resolve a $ref at every use."""
    # Measured with jsonschema 4.10: a q=16 step line validates about 20% faster inlined (2.0 -> 1.6 ms CPU time).
    if isinstance(node, dict):
        ref = node.get("$ref")
        if ref is not None and ref.startswith("#/$defs/") and len(node) == 1:
            return _inline_refs(defs[ref[len("#/$defs/") :]], defs)
        return {key: _inline_refs(value, defs) for key, value in node.items()}
    if isinstance(node, list):
        return [_inline_refs(item, defs) for item in node]
    return node


HEADER_SCHEMA = _Schema("trace-header.schema.json")
STEP_SCHEMA = _Schema("trace-step.schema.json")
MAX_LINE = STEP_SCHEMA.max_line


def json_number(x: float) -> float | str:
    """A float as the trace holds it: itself when finite, else "NaN", "Infinity" or "-Infinity"."""
    x = float(x)
    if math.isfinite(x):
        return x
    return "NaN" if math.isnan(x) else ("Infinity" if x > 0 else "-Infinity")


def json_stats(stats: Mapping[str, Any]) -> dict[str, Any]:
    """Statistics (logit_stats, hidden_stats) as the file holds them: non-finite numbers as strings."""
    out = dict(stats)
    for key in ("mean", "std", "min", "max"):
        out[key] = json_number(out[key])
    if "top5" in out:
        out["top5"] = [{"id": t["id"], "logit": json_number(t["logit"])} for t in out["top5"]]
    return out


def check_header(header: dict[str, Any]) -> None:
    """Refuses a header that `parity compare-trace` would refuse, naming the field."""
    encode_line(header, "header")
    _check_schema(HEADER_SCHEMA, header, "header")


def encode_line(value: Any, where: str) -> str:
    """The JSON line of a header or step record (compact, UTF-8, like JSON.stringify); a bare NaN or
    ±Infinity anywhere is refused naming its field (json.dumps finds it; the walk names it)."""
    try:
        line = json.dumps(value, allow_nan=False, separators=(",", ":"), ensure_ascii=False)
    except ValueError:
        _refuse_bare_non_finite(value, where)
        raise
    # The reader counts UTF-16 units (JavaScript's length): at most twice the code points.
    if len(line) > MAX_LINE // 2 and (units := len(line.encode("utf-16-le")) // 2) > MAX_LINE:
        raise ParityValueError(
            f"{where}: the line is {units} characters long, over the {MAX_LINE} a trace line may have "
            "(the reader refuses it; docs/trace-format.md)"
        )
    return line


def check_step(record: Any, expected_step: int, q: int, *, schema: bool = True) -> None:
    """Refuses a step line that `parity compare-trace` would refuse (or misread), naming the field; a
    bare NaN is refused by encode_line when the line is written. schema=False leaves out the JSON Schema (for records
    whose structure the writer built itself; see
    check_step_schema), keeping the rules."""
    where = f"step {record.get('step', expected_step)}" if isinstance(record, dict) else f"step {expected_step}"
    if not isinstance(record, dict):
        raise ParityValueError(f"{where}: expected a JSON object, found {type(record).__name__}")
    step = record.get("step")
    if isinstance(step, int) and not isinstance(step, bool) and step != expected_step:
        raise ParityValueError(
            f"expected step {expected_step}, found step {step} (steps are 1, 2, 3... in order; 1 = prefill)"
        )
    rule = STEP_SCHEMA.data_rule
    if rule is not None:
        try:
            rule(record)
        except fastjsonschema.JsonSchemaValueException:
            raise ParityValueError(f"{where}: {STEP_SCHEMA.data_message}") from None
    if schema:
        check_step_schema(record)
    codes = record.get("codes")  # every field but "step" is optional: a partial record
    if codes is not None and len(codes) != q:
        raise ParityValueError(f'{where}: "codes": expected {q} codes (q in the header), found {len(codes)}')
    entries = record.get("codePredictorLogits")
    if entries is not None and len(entries) != q - 1:
        raise ParityValueError(f'{where}: "codePredictorLogits": expected {q - 1} entries (q-1), found {len(entries)}')


def check_step_schema(record: dict[str, Any]) -> None:
    """Refuses a step line that does not match the generated JSON Schema, naming the field."""
    _check_schema(STEP_SCHEMA, record, f"step {record.get('step')}")


def _check_schema(schema: _Schema, value: Any, where: str) -> None:
    try:
        schema.decide(value)
        return
    except fastjsonschema.JsonSchemaValueException as refused:
        error = jsonschema.exceptions.best_match(schema.explain.iter_errors(value))
        if error is None:  # the two disagree: say what the deciding check refused
            raise ParityValueError(f"{where}: {refused.message}") from None
    path = ".".join(str(p) for p in error.absolute_path)
    message = error.message
    if error.validator == "anyOf":  # only JsonNumber is a union: say what it takes
        message += ' (expected a number, or one of "NaN", "Infinity", "-Infinity")'
    raise ParityValueError(f'{where}: "{path}": {message}' if path else f"{where}: {message}")


def _refuse_bare_non_finite(value: Any, where: str, path: str = "") -> None:
    if isinstance(value, float) and not math.isfinite(value):
        raise ParityValueError(
            f'{where}: "{path}": {value!r} is not JSON: a non-finite number is written as the string '
            f'"{json_number(value)}" where the format allows one (logit and hidden statistics), nowhere else'
        )
    if isinstance(value, dict):
        for key, item in value.items():
            _refuse_bare_non_finite(item, where, f"{path}.{key}" if path else str(key))
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _refuse_bare_non_finite(item, where, f"{path}.{i}" if path else str(i))
