"""`python3 -m tts_parity.capture_check FILE.py:FUNCTION --steps FILE.py:STEP_INPUTS [--json]`.

STEP_INPUTS names a list of step argument tuples, a dict {step name: argument tuple}, a generator (object,
or generator function of no arguments: consumed one step at a time, so it can do the host work before each
step), or a function of no arguments returning any of these. NAME may be dotted (`step.decode`, a bound
method). Both FILE.py may be the same file; it is then loaded once, so the step function and its inputs
share that module's state (a model built at import, say).
Exit codes: 0 no findings, 1 findings, 2 bad usage or the step itself raised (one line, SystemExit included),
130 interrupted (Ctrl-C), 3 internal error (PARITY_DEBUG=1 shows its traceback).
"""

from __future__ import annotations

import argparse
import collections.abc
import contextlib
import importlib.util
import os
import sys
from typing import TYPE_CHECKING, NoReturn

from .._cli import run_main
from .._errors_text import first_line
from ..errors import UsageError
from .check import capture_check
from .source_location import is_internal

if TYPE_CHECKING:
    import types
    from collections.abc import Iterable, Sequence

__all__ = ["USAGE", "main"]

USAGE = "python3 -m tts_parity.capture_check FILE.py:FUNCTION --steps FILE.py:STEP_INPUTS [--json]"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (usage: {USAGE})")


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: exit 0 no findings, 1 findings, 2 bad usage or the step raised (one line), 130 on Ctrl-C,
    3 an internal error (PARITY_DEBUG=1 shows its traceback)."""
    return run_main("capture_check", _run, argv)


def _run(argv: list[str]) -> int:
    parser = _Parser(
        prog="python3 -m tts_parity.capture_check",
        description=(
            "Find the lines of a PyTorch decode step that would break or silently corrupt a captured CUDA graph."
        ),
    )
    parser.add_argument("function", metavar="FILE.py:FUNCTION", help="the decode step to check")
    parser.add_argument(
        "--steps",
        required=True,
        metavar="FILE.py:STEP_INPUTS",
        help="two or more consecutive steps' arguments (list of tuples, dict, generator, or a function returning one)",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    options = parser.parse_args(argv)

    modules: dict[str, object] = {}
    fn = _load_attribute(options.function, modules)
    if not callable(fn):
        raise UsageError(f"{options.function} is a {type(fn).__name__}, not a function")
    names, steps = _step_inputs(options.steps, _load_attribute(options.steps, modules))

    with contextlib.redirect_stdout(sys.stderr) if options.json else contextlib.nullcontext():
        try:
            report = capture_check(fn, steps, names=names)
        except UsageError:
            raise
        except KeyboardInterrupt:
            raise
        except (Exception, SystemExit) as error:  # the step's own error, SystemExit included, is the step's
            if steps.exhausted and steps.count < 2:  # a generator's step count is known once it is consumed
                raise UsageError(
                    f"{options.steps} holds {steps.count} step(s); the check compares two or more consecutive steps"
                ) from None
            raise UsageError(f"{options.function} raised {_raised(error, _raise_site(error))}") from None
    print(report.to_json() if options.json else report)
    return 0 if report.ok else 1


def _load_attribute(spec: str, modules: dict[str, object]) -> object:
    path, separator, attribute = spec.rpartition(":")
    if not separator or not path or not attribute:
        raise UsageError(f'"{spec}": expected FILE.py:NAME')
    path = os.path.abspath(path)
    if not os.path.isfile(path):
        raise UsageError(f"{spec}: no such file {path}")
    if path not in modules:
        modules[path] = _import_file(path)
    value: object = modules[path]
    walked: list[str] = []
    for part in attribute.split("."):  # `step.decode`: an attribute of a module-level object (a bound method)
        if not hasattr(value, part):
            owner = os.path.basename(path) + "".join(f"{':' if i == 0 else '.'}{name}" for i, name in enumerate(walked))
            raise UsageError(f'{spec}: {owner} has no attribute "{part}"')
        value = getattr(value, part)
        walked.append(part)
    return value


def _import_file(path: str) -> types.ModuleType:
    name = "capture_check_target_" + os.path.splitext(os.path.basename(path))[0].replace("-", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None:
        raise UsageError(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(path))
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)  # type: ignore[union-attr]  # spec_from_file_location of a .py file has one
    except (Exception, SystemExit) as error:
        raise UsageError(f"importing {path} raised {_raised(error)}") from None
    return module


def _step_inputs(spec: str, value: object) -> tuple[list[str] | None, _CheckedSteps]:
    """(names or None, a _CheckedSteps over the argument tuples) from the STEP_INPUTS attribute."""
    if callable(value):
        try:
            value = value()  # a generator function returns its generator, consumed lazily below
        except (Exception, SystemExit) as error:
            raise UsageError(f"{spec} raised {_raised(error)}") from None
    names = None
    if isinstance(value, dict):
        names, value = [str(name) for name in value], list(value.values())
    if isinstance(value, (list, tuple)):
        if len(value) < 2:
            raise UsageError(f"{spec} holds {len(value)} step(s); the check compares two or more consecutive steps")
    elif not isinstance(value, collections.abc.Iterator):
        raise UsageError(
            f"{spec} is a {type(value).__name__}; "
            "expected a list of argument tuples, one per step, or a generator of them"
        )
    return names, _CheckedSteps(spec, value)


class _CheckedSteps:
    """The step argument tuples, handed to capture_check one at a time (a generator's host work between
    steps runs in order); a non-tuple step or a generator that raises is a usage error naming STEP_INPUTS."""

    def __init__(self, spec: str, steps: Iterable[object]) -> None:
        self.spec, self.count, self.exhausted, self._steps = spec, 0, False, iter(steps)

    def __iter__(self) -> _CheckedSteps:
        return self

    def __next__(self) -> tuple[object, ...] | list[object]:
        try:
            args = next(self._steps)
        except StopIteration:
            self.exhausted = True
            raise
        except (Exception, SystemExit) as error:
            raise UsageError(f"{self.spec} raised {_raised(error, _raise_site(error))}") from None
        if not isinstance(args, (tuple, list)):
            raise UsageError(
                f"{self.spec}[{self.count}] is a {type(args).__name__}; "
                "each step is a tuple of the function's arguments"
            )
        self.count += 1
        return args


def _raise_site(error: BaseException) -> str:
    """file:line of the innermost traceback frame outside torch and this package (the user's line)."""
    site, traceback = "?", error.__traceback__
    while traceback is not None:
        filename = traceback.tb_frame.f_code.co_filename
        if not is_internal(filename):
            site = f"{filename}:{traceback.tb_lineno}"
        traceback = traceback.tb_next
    return site


def _raised(error: BaseException, site: str | None = None) -> str:
    """What a user's code raised, in one line: `ValueError at f.py:3: the message`, `SystemExit(3) at f.py:3`."""
    where = f" at {site}" if site else ""
    if isinstance(error, SystemExit):
        return f"SystemExit({error.code!r}){where}"
    message = first_line(error, with_type=False)
    return f"{type(error).__name__}{where}" + ("" if message == type(error).__name__ else f": {message}")
