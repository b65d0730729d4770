"""Ctrl-C while a `python -m tts_parity...` command starts (importing numpy, torch, the command's modules,
before run_main can catch anything): one line, exit 130, no traceback. Installed by the package's first
import only when the interpreter was started as `python -m tts_parity.<command>` and nobody else has set a
SIGINT handler, so a program that merely imports the package keeps its own Ctrl-C; run_main hands Ctrl-C back
to Python's KeyboardInterrupt once it is in charge."""

from __future__ import annotations

import signal
import sys
from typing import Any

__all__ = ["guard_module_startup", "release_startup_guard"]

_installed: list[Any] = []


def _command() -> str | None:
    """`tts_parity.<command>` when the interpreter runs `-m tts_parity...` (sys.orig_argv, Python >= 3.10)."""
    argv = list(getattr(sys, "orig_argv", []))
    i = 1
    while i < len(argv):
        arg = argv[i]
        if arg.startswith("-m"):
            name = arg[2:] or (argv[i + 1] if i + 1 < len(argv) else "")
            return name if name.split(".")[0] == "tts_parity" else None
        if arg.startswith("-c") or not arg.startswith("-"):
            return None  # `-c`'s code or a script: not ours
        i += 2 if arg in ("-X", "-W") else 1  # options whose value is the next argument
    return None


def guard_module_startup() -> None:
    command = _command()
    if command is None or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return

    def interrupted(signum: int, frame: Any) -> None:
        sys.stderr.write(f"{command}: interrupted\n")
        raise SystemExit(130)  # an exception, so finally blocks still run; no traceback is printed for it

    signal.signal(signal.SIGINT, interrupted)
    _installed.append(interrupted)


def release_startup_guard() -> None:
    """Ctrl-C is KeyboardInterrupt again (run_main reports it as `PROG: interrupted`, 130)."""
    if _installed and signal.getsignal(signal.SIGINT) is _installed[0]:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    _installed.clear()
