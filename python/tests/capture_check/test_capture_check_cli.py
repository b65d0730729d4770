"""`python3 -m tts_parity.capture_check FILE.py:FUNCTION --steps FILE.py:STEP_INPUTS [--json]`: exit 1 with the
findings, 0 when clean, 2 with one line on bad usage (spawned for the real exit codes, in-process for the
refusals, which need no torch run)."""

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tts_parity.capture_check.cli import main
from tts_parity.examples import host_sync, seed_001_talker
from tts_parity.examples.markers import marked_findings

from conftest import PYTHON_DIR

HOST_SYNC = host_sync.__file__
SEED_001 = seed_001_talker.__file__


def spawn(*args):
    return subprocess.run(
        [sys.executable, "-m", "tts_parity.capture_check", *map(str, args)],
        cwd=PYTHON_DIR,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_findings_exit_1_with_a_table_naming_each_line():
    done = spawn(f"{SEED_001}:decode_request_token_positions", "--steps", f"{SEED_001}:step_inputs")
    assert done.returncode == 1, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()]
    expected = sorted(marked_findings(SEED_001), key=lambda marker: marker[1])
    assert [rule for rule, _ in expected] == ["host-sync", "data-dependent-shape"]
    assert [row[:2] for row in rows if row and row[0] in ("host-sync", "data-dependent-shape")] == [
        [rule, f"{_shown(SEED_001)}:{line}"] for rule, line in expected
    ]


def test_clean_step_exits_0():
    done = spawn(f"{SEED_001}:decode_request_token_positions_fixed", "--steps", f"{SEED_001}:step_inputs")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("capture check: no findings over 2 steps")


def test_json_output_stays_parseable_when_the_step_prints():
    done = spawn(f"{HOST_SYNC}:unsafe_step", "--steps", f"{HOST_SYNC}:step_inputs", "--json")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)  # the step's print went to stderr
    assert "peak logit" in done.stderr
    assert report["ok"] is False and report["steps"] == ["steps[0]", "steps[1]"]
    assert {(f["rule"], f["lineno"]) for f in report["findings"]} == marked_findings(HOST_SYNC)
    assert all(f["filename"] == HOST_SYNC for f in report["findings"])


def test_a_dict_of_steps_names_them(tmp_path, capsys):
    target = tmp_path / "decode.py"
    target.write_text(
        "import torch\n\ndef step(x, n):\n    return x * n\n\n"
        "STEPS = {'step 2': (torch.ones(2), 2), 'step 3': (torch.ones(2), 3)}\n"
    )
    assert main([f"{target}:step", "--steps", f"{target}:STEPS", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["steps"] == ["step 2", "step 3"]
    assert [(f["rule"], f["lineno"], f["code"]) for f in report["findings"]] == [
        ("python-scalar-varies-across-steps", 4, "return x * n")
    ]


GENERATOR_TARGET = """import torch

class Step:
    def __init__(self):
        self.position = torch.zeros(1)

    def decode(self):
        return self.position * 2

step = Step()

def steps():
    for n in (2, 3, 4):
        step.position.fill_(n)  # the host work before each replay, done between the check's steps
        yield ()

STEPS_OBJECT = steps()

def one_step():
    yield ()

def not_tuples():
    yield 5

def failing():
    yield ()
    raise KeyError("cache")
"""


@pytest.mark.parametrize("steps", ["steps", "STEPS_OBJECT"])
def test_a_generator_of_steps_and_a_dotted_bound_method_are_accepted(tmp_path, capsys, steps):
    target = tmp_path / "engine.py"
    target.write_text(GENERATOR_TARGET)
    assert main([f"{target}:step.decode", "--steps", f"{target}:{steps}", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    # the generator's fill_ before each step is the in-place write outside the step that a replay must follow
    assert report == {
        "ok": True,
        "steps": ["steps[0]", "steps[1]", "steps[2]"],
        "findings": [],
        "stateWrittenOutside": [
            {
                "label": "argument self.position",
                "filename": str(target),
                "lineno": 8,
                "code": "return self.position * 2",
                "before_steps": ["steps[1]", "steps[2]"],
            }
        ],
    }


@pytest.mark.parametrize(
    "steps, message",
    [
        ("one_step", "{f}:one_step holds 1 step(s); the check compares two or more consecutive steps"),
        ("not_tuples", "{f}:not_tuples[0] is a int; each step is a tuple of the function's arguments"),
        ("failing", "{f}:failing raised KeyError at {f}:27: 'cache'"),
    ],
)
def test_a_bad_generator_of_steps_is_a_usage_error(tmp_path, capsys, steps, message):
    target = tmp_path / "engine.py"
    target.write_text(GENERATOR_TARGET)
    assert main([f"{target}:step.decode", "--steps", f"{target}:{steps}"]) == 2
    err = capsys.readouterr().err
    assert err == f"capture_check: {message.replace('{f}', str(target))}\n"


@pytest.mark.parametrize(
    "args, message",
    [
        (["missing.py:step", "--steps", "missing.py:STEPS"], "no such file"),
        (["{f}:nope", "--steps", "{f}:STEPS"], 'has no attribute "nope"'),
        (["{f}:step.nope", "--steps", "{f}:STEPS"], 'decode.py:step has no attribute "nope"'),
        (["{f}:step", "--steps", "{f}:ONE_STEP"], "holds 1 step(s)"),
        (["{f}:step", "--steps", "{f}:NOT_STEPS"], "expected a list of argument tuples"),
        (["{f}", "--steps", "{f}:STEPS"], "expected FILE.py:NAME"),
        (["{f}:STEPS", "--steps", "{f}:STEPS"], "not a function"),
        (["{f}:step"], "--steps"),
        (["{f}:broken", "--steps", "{f}:STEPS"], "raised ZeroDivisionError at {f}:9"),
    ],
    ids=[
        "missing-file",
        "missing-attribute",
        "missing-dotted-attribute",
        "one-step",
        "not-steps",
        "no-colon",
        "not-callable",
        "no-steps",
        "step-raises",
    ],
)
def test_bad_usage_exits_2_with_one_line(tmp_path, capsys, args, message):
    target = tmp_path / "decode.py"
    target.write_text(
        "import torch\n\ndef step(x):\n    return x\n\nSTEPS = [(torch.ones(1),), (torch.ones(1),)]\n"
        "ONE_STEP = [(torch.ones(1),)]\nNOT_STEPS = 3\ndef broken(x): return 1 / 0\n"
    )  # broken: line 9
    status = main([a.replace("{f}", str(target)) for a in args])
    err = capsys.readouterr().err
    assert status == 2
    assert len(err.strip().splitlines()) == 1 and err.startswith("capture_check: ")
    assert message.replace("{f}", str(target)) in err
    assert "Traceback" not in err


def _shown(path):
    """How the table shows a path: relative to the working directory of the spawned CLI when under it."""
    relative = Path(path).resolve().relative_to(PYTHON_DIR)
    return str(relative)


# Issue 27: the step's own SystemExit is the step's, Ctrl-C exits 130 without a traceback, a bug of ours exits 3.

EXITING_TARGET = """import sys
import time

import torch

def exits(x):
    sys.exit(3)

def interrupted(x):
    raise KeyboardInterrupt

def sleeps(x):
    print("stepping", flush=True)
    time.sleep(60)
    return x

STEPS = [(torch.ones(1),), (torch.ones(1),)]
"""


def test_a_step_that_raises_system_exit_is_reported_as_the_steps(tmp_path, capsys):
    target = tmp_path / "exiting.py"
    target.write_text(EXITING_TARGET)
    assert main([f"{target}:exits", "--steps", f"{target}:STEPS"]) == 2
    assert capsys.readouterr().err == f"capture_check: {target}:exits raised SystemExit(3) at {target}:7\n"


def test_importing_a_file_that_exits_is_a_usage_error(tmp_path, capsys):
    target = tmp_path / "exits_at_import.py"
    target.write_text("import sys\nsys.exit('no GPU here')\n")
    assert main([f"{target}:step", "--steps", f"{target}:STEPS"]) == 2
    assert capsys.readouterr().err == f"capture_check: importing {target} raised SystemExit('no GPU here')\n"


def test_ctrl_c_in_the_step_exits_130_without_a_traceback(tmp_path, capsys):
    target = tmp_path / "exiting.py"
    target.write_text(EXITING_TARGET)
    assert main([f"{target}:interrupted", "--steps", f"{target}:STEPS"]) == 130
    assert capsys.readouterr().err == "capture_check: interrupted\n"


def test_a_real_sigint_exits_130_without_a_traceback(tmp_path):
    target = tmp_path / "exiting.py"
    target.write_text(EXITING_TARGET)
    process = subprocess.Popen(
        [sys.executable, "-m", "tts_parity.capture_check", f"{target}:sleeps", "--steps", f"{target}:STEPS"],
        cwd=PYTHON_DIR,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    assert process.stdout.readline() == "stepping\n"  # inside the step
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert err == "capture_check: interrupted\n"


def test_an_internal_error_exits_3_in_one_line_and_parity_debug_shows_the_traceback(tmp_path, capsys, monkeypatch):
    def broken(spec, value):
        raise RuntimeError("a bug of ours\nsecond line")

    monkeypatch.setattr("tts_parity.capture_check.cli._step_inputs", broken)
    target = tmp_path / "exiting.py"
    target.write_text(EXITING_TARGET)
    args = [f"{target}:exits", "--steps", f"{target}:STEPS"]
    assert main(args) == 3
    err = capsys.readouterr().err
    assert err == "capture_check: internal error: RuntimeError: a bug of ours (PARITY_DEBUG=1 shows the traceback)\n"
    monkeypatch.setenv("PARITY_DEBUG", "1")
    with pytest.raises(RuntimeError, match="a bug of ours"):
        main(args)
