"""The one `main` wrapper of the package's command lines (`python3 -m tts_parity.demo`, `python3 -m
tts_parity.capture_check`): the same exit statuses and the same behaviour on interrupt and on our own bugs.

- a ParityError (a user error: bad argument, bad input, refused capture): `PROG: message` on stderr, its
  `exit_code` (2);
- Ctrl-C (KeyboardInterrupt): `PROG: interrupted`, exit 130, no traceback (during start-up too: _startup.py);
- stdout closed early (`... | head`): exit 0 quietly;
- any other exception (a bug of ours): `PROG: internal error: Type: first line`, exit 3; PARITY_DEBUG=1 shows the
  traceback instead;
- everything the command prints (reports, module and engine names, messages quoting a user's file) goes through
  terminal_safe: a control character (C0 but tab and newline, DEL, C1) is shown as `\\uXXXX`, never obeyed, as
  the TypeScript CLI does (electron/common/text/terminal-safe.ts).
"""

from __future__ import annotations

import os
import re
import sys
from typing import TYPE_CHECKING, Any, TextIO

from ._errors_text import first_line
from ._startup import release_startup_guard
from .errors import ParityError

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

__all__ = ["INTERNAL_ERROR", "INTERRUPTED", "run_main", "terminal_safe"]

_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def terminal_safe(text: str) -> str:
    """`text` with every control character but tab and newline written as a visible `\\uXXXX` escape."""
    return _CONTROLS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class _SafeStream:
    """A text stream whose writes go through terminal_safe (the rest is the wrapped stream's)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(terminal_safe(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a command ended by Ctrl-C
INTERNAL_ERROR = 3


def run_main(prog: str, run: Callable[[list[str]], int], argv: Sequence[str] | None = None) -> int:
    """`run(argv)`'s exit status, with the package's handling of errors, interrupts and a closed stdout.

    Args:
        prog: the command's name, first on every message line ("tts_parity.demo").
        run: the command: takes the arguments (without the program name), returns the exit status.
        argv: the arguments; None reads `sys.argv[1:]`.
    """
    arguments = list(sys.argv[1:] if argv is None else argv)
    release_startup_guard()
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _SafeStream(out), _SafeStream(err)
    try:
        return _run(prog, run, arguments)
    finally:
        sys.stdout, sys.stderr = out, err


def _run(prog: str, run: Callable[[list[str]], int], arguments: list[str]) -> int:
    try:
        return run(arguments)
    except ParityError as error:
        print(f"{prog}: {error}", file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except Exception as error:
        if os.environ.get("PARITY_DEBUG"):
            raise
        print(f"{prog}: internal error: {first_line(error)} (PARITY_DEBUG=1 shows the traceback)", file=sys.stderr)
        return INTERNAL_ERROR


def _quiet_stdout() -> None:
    """After EPIPE: point stdout at /dev/null so the interpreter's final flush does not raise again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
