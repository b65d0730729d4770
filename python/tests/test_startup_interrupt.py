"""Ctrl-C during a `python -m tts_parity...` command's start-up (issue 38): one line, exit 130, no traceback.
The interrupt is sent once the child has imported the package and is still importing the command's modules
(torch among them): `-X importtime` tells when each import ends, so the moment is the same every run."""

import os
import signal
import subprocess
import sys

import pytest

import tts_parity
from tts_parity._startup import _command

COMMANDS = ["tts_parity.capture_check", "tts_parity.demo"]


@pytest.mark.parametrize("command", COMMANDS)
def test_ctrl_c_while_a_command_imports_prints_one_line_and_exits_130(command):
    env = {**os.environ, "PYTHONPATH": os.path.dirname(os.path.dirname(tts_parity.__file__))}
    child = subprocess.Popen(
        [sys.executable, "-X", "importtime", "-m", command, "--help"],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    lines = []
    for line in child.stderr:
        lines.append(line)
        if line.rstrip().endswith("| tts_parity"):  # the package's own import has just finished
            child.send_signal(signal.SIGINT)
            break
    rest = child.stderr.read()
    child.wait(timeout=60)
    printed = "".join(lines) + rest
    assert child.returncode == 130, printed[-2000:]
    assert "Traceback" not in printed and "KeyboardInterrupt" not in printed
    assert f"{command}: interrupted\n" in rest


def test_the_guard_is_only_for_our_own_commands(monkeypatch):
    for argv, expected in [
        (["python", "-m", "tts_parity.demo", "--out", "x"], "tts_parity.demo"),
        (["python", "-X", "importtime", "-mtts_parity.capture_check"], "tts_parity.capture_check"),
        (["python", "-m", "mytool"], None),
        (["python", "script.py", "-m", "tts_parity.demo"], None),
        (["python", "-c", "import tts_parity"], None),
    ]:
        monkeypatch.setattr(sys, "orig_argv", argv, raising=False)
        assert _command() == expected, argv
