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


def test_everything_a_command_prints_shows_control_characters_never_obeys_them(capsys):
    from tts_parity._cli import run_main
    from tts_parity.errors import ParityValueError

    def command(arguments):
        print("engine e\x1b[2J\x9b31m\x07 done\tok")
        raise ParityValueError("trace t.jsonl: module \x1b]0;title\x07 not found")

    assert run_main("tts_parity.demo", command, []) == 2
    out, err = capsys.readouterr()
    assert out == "engine e\\u001b[2J\\u009b31m\\u0007 done\tok\n"
    assert err == "tts_parity.demo: trace t.jsonl: module \\u001b]0;title\\u0007 not found\n"
    for code in [*range(0x20), 0x7F, *range(0x80, 0xA0)]:
        if chr(code) not in "\t\n":
            assert chr(code) not in out + err
