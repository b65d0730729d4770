"""python/gpu/capture_check_gpu.py: without CUDA it says so in one line and exits 77 (this CI); with CUDA every
case is confirmed against a real capture. Its case list names every rule example and functions that exist."""

import importlib
import importlib.util
import json
import subprocess
import sys

import torch

from tts_parity.capture_check import RULES

from conftest import PYTHON_DIR

SCRIPT = PYTHON_DIR / "gpu" / "capture_check_gpu.py"


def load_script():
    spec = importlib.util.spec_from_file_location("capture_check_gpu", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_without_cuda_one_line_and_exit_77_else_every_case_confirmed():
    done = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, timeout=600)
    if not torch.cuda.is_available():
        assert done.returncode == 77
        assert done.stdout == ""
        assert done.stderr.count("\n") == 1 and "CUDA is not available" in done.stderr
    else:
        assert done.returncode == 0, done.stdout + done.stderr
        summary = json.loads(done.stdout)
        assert summary["confirmed"] and all(case["confirmed"] for case in summary["cases"])


def test_cases_cover_every_rule_example_and_name_real_functions():
    script = load_script()
    modules = {name: importlib.import_module(f"tts_parity.examples.{name}") for name in script.RULE_MODULES}
    assert sorted(module.RULE for module in modules.values()) == sorted(RULES)
    cases = script.cases()
    for name in script.RULE_MODULES:
        assert {(c[2], c[4]) for c in cases if c[1] == name} == {("unsafe_step", "breaks"), ("safe_step", "captures")}
    for _, module_name, step_name, inputs_name, _ in cases:
        module = importlib.import_module(f"tts_parity.examples.{module_name}")
        assert callable(getattr(module, step_name))
        assert callable(getattr(module, inputs_name, module.step_inputs))


def test_cases_run_several_at_a_time_in_order_with_a_line_as_each_finishes(capsys):
    import threading
    import time

    script = load_script()
    running, most = [0], [0]
    lock = threading.Lock()

    def run_one(case_id):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.05 if case_id != "a" else 0.3)  # the first case finishes last
        with lock:
            running[0] -= 1
        return {"case": case_id, "confirmed": case_id != "c", "observed": "replays equal eager"}

    results = script.run_all(["a", "b", "c", "d"], run_one, children=3)
    assert [r["case"] for r in results] == ["a", "b", "c", "d"] and most[0] == 3
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 4 and lines[-1].startswith("capture_check_gpu: [4/4] a: confirmed (replays equal eager) at ")
    assert any(line.startswith("capture_check_gpu: [") and "] c: NOT confirmed" in line for line in lines)
