"""Runs `parity bundle check DIR --smoke` on an exported bundle (docs/bundle-format.md, "Smoke check")."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from ..errors import ExportError

__all__ = ["CHECKOUT", "find_parity", "smoke_check"]


# python/tts_parity/export/smoke.py -> the checkout's root, where bin/parity.js is.
CHECKOUT = Path(__file__).resolve().parents[3]


def find_parity(parity_cmd=None):
    """The command that runs `parity`: `parity_cmd` when given (a string or a list, e.g.
    ["node", "/src/parity/bin/parity.js"]), else `parity` on PATH, else `node bin/parity.js` of the
    checkout this package was imported from (its dist/ built)."""
    if parity_cmd:
        return [parity_cmd] if isinstance(parity_cmd, str) else list(parity_cmd)
    on_path = shutil.which("parity")
    if on_path:
        return [on_path]
    script = CHECKOUT / "bin" / "parity.js"
    if script.exists() and (CHECKOUT / "dist" / "electron" / "cli" / "main.js").exists() and shutil.which("node"):
        return ["node", str(script)]
    raise ExportError(
        "cannot find the parity CLI for the smoke check: no `parity` on PATH and no built checkout around this package "
        f"({script} with dist/); pass parity_cmd=[...] or smoke=False"
    )


def smoke_check(bundle_dir, parity_cmd=None, timeout_s=600):
    """Runs the smoke check; returns its stdout lines. A failure raises ExportError with the check's own line."""
    command = [*find_parity(parity_cmd), "bundle", "check", str(bundle_dir), "--smoke"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise ExportError(f"smoke check: could not run {' '.join(command)}: {error}") from error
    if done.returncode != 0:
        lines = [line for line in done.stderr.strip().splitlines() if line.strip()]
        message = lines[-1] if lines else f"exit status {done.returncode}, no message"
        raise ExportError(f"smoke check failed (exit {done.returncode}): {message}")
    return done.stdout.splitlines()
