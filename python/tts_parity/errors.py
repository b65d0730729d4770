"""The errors `tts_parity` raises: one base class, `ParityError`, and one subclass per kind of mistake, each also
a subclass of the built-in exception Python code already catches for that kind (so `except ValueError:` around
an older call still works).

| class | also a | raised when |
| --- | --- | --- |
| `ParityValueError` | `ValueError` | an argument has the right type but a value the call cannot take |
| `ParityTypeError` | `TypeError` | an argument has the wrong type |
| `ParityStateError` | `RuntimeError` | a call at the wrong time: after close(), a step entered twice or out of |
|                    |                | order, a step that logged nothing |
| `ParityFileExistsError` | `FileExistsError` | an output path exists and `force=True` was not given |
| `ExportError` | `ValueError` | `export_bundle` refused the modules or config, or their export failed |
| `CaptureRefused` | `RuntimeError` | CUDA refused to capture a step as a graph |
| `UsageError` | `ValueError` | a command line asked for something the command cannot do |

The same mistake raises the same class everywhere. Messages are one line, ASCII, and name the argument (or the
step), what was expected and what was found, so they can be grepped (`q-1`, `-inf`). A command-line entry point
turns any `ParityError` into that line on stderr and exit status `exit_code` (2).
"""

from __future__ import annotations

__all__ = [
    "CaptureRefused",
    "ExportError",
    "ParityError",
    "ParityFileExistsError",
    "ParityStateError",
    "ParityTypeError",
    "ParityValueError",
    "UsageError",
]


class ParityError(Exception):
    """Base class of every error `tts_parity` raises on purpose. `exit_code`: the status a CLI exits with."""

    exit_code: int = 2


class ParityValueError(ParityError, ValueError):
    """An argument of the right type with a value the call cannot take."""


class ParityTypeError(ParityError, TypeError):
    """An argument of the wrong type."""


class ParityStateError(ParityError, RuntimeError):
    """A call at the wrong time: after close(), a step entered twice or out of order, a step with nothing logged."""


class ParityFileExistsError(ParityError, FileExistsError):
    """An output path exists (a file, a FIFO, a link) and the call was not given `force=True`."""


class ExportError(ParityValueError):
    """`export_bundle` refused its inputs or their export failed: one line naming the network, the export and what to
    fix."""


class CaptureRefused(ParityError, RuntimeError):
    """CUDA refused to capture a decode step as a graph (a data-dependent shape inside it, say)."""


class UsageError(ParityValueError):
    """A command line asked for something the command cannot do."""
