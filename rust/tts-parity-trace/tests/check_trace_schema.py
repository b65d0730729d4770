"""Checks a trace written by the Rust crate with tts_parity's own validator (trace_schema: the JSON Schemas
generated from the zod schemas, plus the rules a schema cannot say). Usage: check_trace_schema.py TRACE.
Prints one line per refused line and exits 1, or prints nothing and exits 0. Used by the crate's tests."""

import json
import sys

from tts_parity.trace_schema import check_header, check_step

path = sys.argv[1]
problems = []
with open(path, encoding="utf-8") as lines:
    header = json.loads(next(lines))
    try:
        check_header(header)
    except ValueError as error:
        problems.append(f"line 1: {error}")
    for n, line in enumerate(lines, start=1):
        try:
            check_step(json.loads(line), n, header["q"])
        except ValueError as error:
            problems.append(f"line {n + 1}: {error}")
print("\n".join(problems))
sys.exit(1 if problems else 0)
