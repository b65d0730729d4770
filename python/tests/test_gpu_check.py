# ruff: noqa: E501  (CHECK_OUTPUT holds native/test/check.cu's output lines as printed)
"""scripts/gpu-check's CPU half (docs/gpu.md): the one-line refusal without a GPU, the files the GPU machine
needs, the pack's wheels pinned by the lock, the step runner and summary with a planted device, and the
native check's figures read from its real output lines."""

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "python" / "gpu"))
import gpu_check
import gpu_pack

# The lines native/test/check.cu prints (format), with the numbers the issue reports from an H200 run as sample values.
CHECK_OUTPUT = """\
device: CPU emulation of the CUDA kernels (no graph capture, no GPU timing)
PASS eager: every step within 1e-04 of ORT CPU, codes identical
graph: decode step captured as a CUDA graph: no; kernels per decode step: eager 178 launches, graph 178 nodes
sampled: seed 7, temperature 0.9, top-k 40, top-p 0.95, repetition penalty 1.1; kernels per decode step: eager 194 launches, graph 194 nodes
vocoder: max|daudio| 6.700e-04 over 27648 samples
timing: decode step median over 5 passes: eager 0.8600 ms device (0.9000 ms host), graph 0.6860 ms device (0.7000 ms host)
timing: graph speed-up 1.25x (device), 1.29x (host)
FAIL graph >= 3x faster than eager
timing: fused kernels launched one by one (no graph): 0.7270 ms device (0.7745 ms host); graph speed-up over it 1.05x (informational)
profile: eager (one launch per operation): 214 launches, 812.5 us per decode step (mean of 112 steps; informational): rms_norm 36 x 2.10 us, matmul 36 x 3.00 us
fused: kernels per decode step: greedy 35 (unfused 178), sampled 35 (unfused 194)
pick: barriers per sampled pick V=3072 (fixture settings): 23 (the one-block program's phases, counted in emulation)
timing: pick microbenchmark V=128 (temperature 1 only): greedy argmax 4.10 us, sampled 83.00 us per pick (64 picks per graph, median of 50 replays; informational)
timing: pick microbenchmark V=3072 (fixture settings): greedy argmax 4.70 us, sampled 821.00 us per pick (64 picks per graph, median of 50 replays; informational)
SOME CHECKS FAILED
"""


def test_without_a_gpu_it_says_so_in_one_line_and_exits_3():
    done = subprocess.run(
        [sys.executable, str(REPO_ROOT / "scripts" / "gpu-check"), "--out", "/nonexistent/never-written"],
        capture_output=True,
        text=True,
        env={"CUDA_VISIBLE_DEVICES": "", "PATH": "/usr/bin:/bin"},
        timeout=120,
    )
    assert done.returncode == gpu_check.EXIT_NO_GPU == 3
    lines = done.stdout.splitlines()
    assert (
        len(lines) == 1
        and lines[0].startswith("gpu-check: NO GPU: torch ")
        and lines[0].endswith("nothing was run (exit 3)")
    )
    assert not Path("/nonexistent/never-written").exists()


def test_the_files_the_gpu_machine_needs_exist_are_small_and_hold_no_node_modules():
    files = gpu_pack.checkout_files()
    paths = [p for p, _ in files]
    for entry in gpu_check.GPU_FILES:
        assert any(p == entry or p.startswith(entry + "/") for p in paths), entry
    assert not any("node_modules" in p for p in paths)
    assert "native/src/session.cu" in paths and "python/gpu/twin_check.py" in paths and "scripts/gpu-check" in paths
    assert (
        sum(size for _, size in files) < 4 << 20
    )  # the pack (about 15 MiB) and this stay far under the 64 MiB a call carries
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO_ROOT, capture_output=True, text=True, check=True
    ).stdout.split("\0")
    tree = sum((REPO_ROOT / p).stat().st_size for p in tracked if p and (REPO_ROOT / p).is_file())
    assert tree + (16 << 20) < gpu_pack.CARRY_LIMIT, (
        f"tracked files {tree / 2**20:.1f} MiB + a 16 MiB pack would not travel"
    )


def test_the_pack_takes_exactly_the_locked_jsonschema_packages():
    lock = gpu_pack.LOCK.read_text(encoding="utf-8")
    pins = {name: gpu_pack.locked(name, lock) for name in gpu_pack.SITE_PACKAGES}
    assert pins["jsonschema"][0].startswith("4.") and len(pins["jsonschema"][1]) >= 1
    assert len(pins["rpds-py"][1]) > 10  # a binary package: one hash per platform wheel
    with pytest.raises(ValueError, match="not-a-package is not pinned"):
        gpu_pack.locked("not-a-package", lock)


def test_a_wheel_whose_hash_is_not_in_the_lock_is_refused(tmp_path, monkeypatch):
    version, _ = gpu_pack.locked("jsonschema", gpu_pack.LOCK.read_text(encoding="utf-8"))
    for name in gpu_pack.SITE_PACKAGES:  # planted files with the right names, wrong bytes
        ver = gpu_pack.locked(name, gpu_pack.LOCK.read_text(encoding="utf-8"))[0]
        (tmp_path / f"{name.replace('-', '_')}-{ver}-py3-none-any.whl").write_bytes(b"not the wheel")
    with pytest.raises(
        ValueError, match=rf"jsonschema-{version}-py3-none-any.whl: sha256 [0-9a-f]+ is not one of the lock's hashes"
    ):
        gpu_pack.fetch_wheels(tmp_path, gpu_pack.LOCK.read_text(encoding="utf-8"))


def test_cuda_arch_builds_machine_code_for_the_device_and_ptx_beyond():
    assert gpu_check.cuda_arch((9, 0)) == "-gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90"


def test_pytest_runs_in_parallel_only_where_xdist_and_cores_are_there():
    assert gpu_check.pytest_workers(cpus=16, have_xdist=True) == ["-n", "8"]  # the GPU machines: 16 cores
    assert gpu_check.pytest_workers(cpus=2, have_xdist=True) == []
    assert gpu_check.pytest_workers(cpus=16, have_xdist=False) == []


def test_native_figures_are_read_from_the_check_s_own_lines():
    figures = gpu_check.native_figures(CHECK_OUTPUT)
    assert figures["greedy_eager_launches"] == 178 and figures["greedy_graph_nodes"] == 178
    assert figures["sampled_eager_launches"] == 194 and figures["sampled_graph_nodes"] == 194
    assert figures["vocoder_max_abs"] == pytest.approx(6.7e-4)
    assert figures["eager_step_ms"] == 0.86 and figures["graph_step_ms"] == 0.686 and figures["graph_speedup"] == 1.25
    assert figures["fused_eager_step_ms"] == 0.727
    assert figures["profile"] == [
        {
            "label": "eager (one launch per operation)",
            "launches": 214,
            "us_per_step": 812.5,
            "kernels": "rms_norm 36 x 2.10 us, matmul 36 x 3.00 us",
        }
    ]
    assert figures["failed"] == ["graph >= 3x faster than eager"] and not figures["all_passed"]
    assert figures["pick_microbenchmark"] == [
        {"V": 128, "settings": "temperature 1 only", "argmax_us": 4.1, "sampled_us": 83.0},
        {"V": 3072, "settings": "fixture settings", "argmax_us": 4.7, "sampled_us": 821.0},
    ]
    assert figures["pick_barriers"] == [{"V": 3072, "settings": "fixture settings", "barriers": 23}]
    assert (
        figures["fused_greedy_kernels"] == 35
        and figures["unfused_greedy_kernels"] == 178
        and figures["fused_sampled_kernels"] == 35
    )
    assert "sampling_us_per_pick" not in gpu_check.native_figures("timing: not measured under --emulate\n")


STEPS_BUT_REAL_MODELS = ["native-build", "native-check", "twin-check", "twin-traces", "capture-rules", "fp16-export"]


def _pack(tmp_path):
    pack = tmp_path / "pack"
    (pack / "native-fixture").mkdir(parents=True)
    (pack / "native-fixture" / "config.txt").write_text("x 1\n")
    (pack / "cache").mkdir()
    manifest = {
        "format": gpu_check.PACK_FORMAT,
        "cache": "cache",
        "native_fixture": "native-fixture",
        "site": None,
        "files": [{"path": "native-fixture/config.txt", "bytes": 4}],
    }
    (pack / "manifest.json").write_text(json.dumps(manifest))
    return pack


def test_with_a_planted_device_every_step_is_recorded_and_a_missing_piece_does_not_fail(tmp_path, monkeypatch, capsys):
    gpu = {"name": "planted", "capability": [9, 0]}
    monkeypatch.setattr(gpu_check, "probe_gpu", lambda: (gpu, None))
    monkeypatch.setattr(gpu_check, "REAL_MODEL_SCRIPTS", {"no_such_script.py": (lambda out: [], "x.json")})
    steps = STEPS_BUT_REAL_MODELS
    out = tmp_path / "out"
    argv = ["--out", str(out), "--pack", str(_pack(tmp_path))] + [a for s in [*steps, "pytest"] for a in ("--skip", s)]
    assert gpu_check.main(argv) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["format"] == "tts-parity-gpu-check/1" and summary["passed"] and summary["device"] == gpu
    assert [s["status"] for s in summary["steps"]] == ["skipped"] * len(steps) + ["missing", "skipped"]
    assert summary["steps"][-1]["name"] == "pytest"  # the longest step runs last
    assert summary["missing"] == ["real-models-no_such_script"]
    assert "no_such_script.py is not in this checkout (issue 25): not run" in summary["steps"][-2]["reason"]


def test_a_failing_step_fails_the_run_with_its_last_line(tmp_path, monkeypatch):
    monkeypatch.setattr(gpu_check, "probe_gpu", lambda: ({"name": "planted", "capability": [9, 0]}, None))
    script = tmp_path / "real_fails.py"
    script.write_text("import sys\nprint('loading')\nprint('RuntimeError: planted failure')\nsys.exit(4)\n")
    # an absolute path: Path join keeps it
    monkeypatch.setattr(
        gpu_check, "REAL_MODEL_SCRIPTS", {str(script): (lambda out: ["--out", out / "r.json"], "r.json")}
    )
    steps = STEPS_BUT_REAL_MODELS
    out = tmp_path / "out"
    argv = ["--out", str(out), "--pack", str(_pack(tmp_path)), "--archive", str(tmp_path / "r.tar.gz")] + [
        a for s in [*steps, "pytest"] for a in ("--skip", s)
    ]
    assert gpu_check.main(argv) == 1
    summary = json.loads((out / "summary.json").read_text())
    last = summary["steps"][-2]
    assert last["status"] == "failed" and last["exit_code"] == 4 and last["reason"] == "RuntimeError: planted failure"
    assert summary["failed"] == ["real-models-real_fails"]
    import tarfile

    with tarfile.open(tmp_path / "r.tar.gz") as tar:
        assert "gpu-check/summary.json" in tar.getnames()


def test_no_pack_is_a_usage_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(gpu_check, "probe_gpu", lambda: ({"name": "planted", "capability": [9, 0]}, None))
    assert gpu_check.main(["--out", str(tmp_path / "o"), "--pack", str(tmp_path / "none")]) == 2
    assert "run scripts/gpu-pack on a CPU machine with Node" in capsys.readouterr().err


def test_needs_node_skips_where_no_node_is_on_path(tmp_path, monkeypatch):
    from parity_cli import needs_node

    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(pytest.skip.Exception, match="needs Node: no `node` on PATH"):
        needs_node()


def test_a_step_past_the_run_s_budget_is_skipped_and_said_so(tmp_path, monkeypatch):
    monkeypatch.setattr(gpu_check, "probe_gpu", lambda: ({"name": "planted", "capability": [9, 0]}, None))
    script = tmp_path / "real_sleeps.py"
    script.write_text("import time\ntime.sleep(30)\n")
    other = tmp_path / "real_sleeps_too.py"
    other.write_text("import time\ntime.sleep(30)\n")
    monkeypatch.setattr(
        gpu_check,
        "REAL_MODEL_SCRIPTS",
        {str(script): (lambda out: [], "a.json"), str(other): (lambda out: [], "b.json")},
    )
    steps = STEPS_BUT_REAL_MODELS
    out = tmp_path / "out"
    argv = ["--out", str(out), "--pack", str(_pack(tmp_path)), "--budget", "7"] + [
        a for s in steps for a in ("--skip", s)
    ]
    began = time.monotonic()
    assert gpu_check.main(argv) == 1
    assert time.monotonic() - began < 20
    first, second, last = json.loads((out / "summary.json").read_text())["steps"][-3:]
    assert first["status"] == "timed-out" and first["limit_seconds"] in (6, 7)  # 90 s cut to what was left of 7 s
    assert first["reason"] == f"ran past its {first['limit_seconds']} s limit"
    assert second["status"] == "skipped" and "time budget (7 s, --budget) was spent" in second["reason"]
    assert last["name"] == "pytest" and last["status"] == "skipped"


def test_a_real_model_script_that_cannot_import_its_model_is_missing_not_failed(tmp_path, monkeypatch):
    monkeypatch.setattr(gpu_check, "probe_gpu", lambda: ({"name": "planted", "capability": [9, 0]}, None))
    script = tmp_path / "real_no_model.py"
    script.write_text(
        "import sys\nprint('real: qwen-tts: the model code does not import here: ImportError: librosa')\nsys.exit(78)\n"
    )
    monkeypatch.setattr(gpu_check, "REAL_MODEL_SCRIPTS", {str(script): (lambda out: [], "x.json")})
    steps = STEPS_BUT_REAL_MODELS
    out = tmp_path / "out"
    argv = ["--out", str(out), "--pack", str(_pack(tmp_path))] + [a for s in [*steps, "pytest"] for a in ("--skip", s)]
    assert gpu_check.main(argv) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["missing"] == ["real-models-real_no_model"] and summary["passed"]
    assert summary["steps"][-2]["reason"] == "real: qwen-tts: the model code does not import here: ImportError: librosa"


def test_the_real_model_scripts_are_called_as_they_take_their_arguments(tmp_path):
    qwen, hf = (gpu_check.REAL_MODEL_SCRIPTS[n] for n in ("real_models_gpu.py", "real_models_gpu_hf.py"))
    assert qwen[0](tmp_path) == ["--model", "qwen-tts", "--out", tmp_path] and qwen[1] == "qwen-tts.json"
    assert hf[0](tmp_path) == ["--out", tmp_path / "real_models_gpu_hf.json"] and hf[1] == "real_models_gpu_hf.json"
    for name in gpu_check.REAL_MODEL_SCRIPTS:  # merged from issue 25: both there, both taking --out
        assert "--out" in (gpu_check.REPO / "python" / "gpu" / name).read_text(encoding="utf-8")


def test_the_pack_carries_the_locks_transformers_and_what_it_needs_as_wheels():
    lock = gpu_pack.LOCK.read_text(encoding="utf-8")
    pins = {name: gpu_pack.locked(name, lock)[0] for name in gpu_pack.HF_PACKAGES}
    assert pins["transformers"] == "4.57.3"  # the recipes' file:line findings are for it (the GPU image has 5.17)
    assert pins["huggingface-hub"].startswith("0.") and pins["tokenizers"].startswith("0.22.")
    assert not set(gpu_pack.HF_PACKAGES) & set(gpu_pack.SITE_PACKAGES)


def test_an_hf_wheel_whose_hash_is_not_in_the_lock_is_refused(tmp_path):
    lock = gpu_pack.LOCK.read_text(encoding="utf-8")
    version = gpu_pack.locked("tokenizers", lock)[0]
    (tmp_path / f"tokenizers-{version}-cp39-abi3-manylinux_2_17_x86_64.whl").write_bytes(b"not the wheel")
    with pytest.raises(ValueError, match=rf"tokenizers-{version}-cp39-abi3-.*: sha256 [0-9a-f]+ is not one of"):
        gpu_pack.fetch_wheels(tmp_path, lock, ("tokenizers",))


def _pack_with_hf_wheel(tmp_path):
    """A pack whose hf-wheels hold one planted wheel with the module `planted_pinned`."""
    import zipfile

    pack = _pack(tmp_path)
    (pack / "hf-wheels").mkdir()
    wheel = pack / "hf-wheels" / "planted_pinned-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("planted_pinned.py", "WHERE = __file__\n")
    manifest = json.loads((pack / "manifest.json").read_text())
    manifest["hf_wheels"] = "hf-wheels"
    manifest["files"].append({"path": "hf-wheels/" + wheel.name, "bytes": wheel.stat().st_size})
    (pack / "manifest.json").write_text(json.dumps(manifest))
    return pack


def test_the_real_model_steps_import_the_packs_pinned_model_code_unpacked_outside_the_results(tmp_path, monkeypatch):
    monkeypatch.setattr(gpu_check, "probe_gpu", lambda: ({"name": "planted", "capability": [9, 0]}, None))
    script = tmp_path / "real_pinned.py"
    script.write_text("import planted_pinned\nprint('from', planted_pinned.WHERE)\n")
    monkeypatch.setattr(gpu_check, "REAL_MODEL_SCRIPTS", {str(script): (lambda out: [], "x.json")})
    out = tmp_path / "out"
    argv = ["--out", str(out), "--pack", str(_pack_with_hf_wheel(tmp_path))] + [
        a for s in [*STEPS_BUT_REAL_MODELS, "pytest"] for a in ("--skip", s)
    ]
    assert gpu_check.main(argv) == 0
    log = (out / "real-models-real_pinned.log").read_text()
    where = Path(log.split("from ", 1)[1].strip())
    assert where.name == "planted_pinned.py" and out not in where.parents
    assert not where.exists()  # the scratch folder is removed at the end


def test_the_pytest_step_reports_failures_briefly_and_splits_the_cores(tmp_path, monkeypatch):
    monkeypatch.setattr(gpu_check, "probe_gpu", lambda: ({"name": "planted", "capability": [9, 0]}, None))
    seen = {}

    def fake_step(self, name, argv, env, limit, **kwargs):
        seen[name] = (list(map(str, argv)), env, limit)
        self.note(name, "skipped", "recorded by the test")
        return self.steps[-1]

    monkeypatch.setattr(gpu_check.Run, "step", fake_step)
    monkeypatch.setattr(gpu_check, "pytest_workers", lambda: ["-n", "8"])
    monkeypatch.setattr(gpu_check.os, "cpu_count", lambda: 16)
    skips = [a for s in ["native-build", "native-check", "real-models"] for a in ("--skip", s)]
    gpu_check.main(["--out", str(tmp_path / "out"), "--pack", str(_pack_with_hf_wheel(tmp_path)), *skips])
    argv, env, limit = seen["pytest"]
    assert {"-rfEs", "--tb=short", "--durations=10"} <= set(argv) and argv[argv.index("-n") + 1] == "8"
    assert env["OMP_NUM_THREADS"] == "2" and limit == gpu_check.LIMITS["pytest"]
    assert list(seen)[-1] == "pytest"
    for name, (_, step_env, _) in seen.items():  # every python step unbuffered: a killed step still has its log
        assert step_env["PYTHONUNBUFFERED"] == "1", name
    scratch = env["PYTHONPATH"].split(":")[0]
    assert "gpu-check-hf-" in scratch and scratch not in seen["twin-check"][1]["PYTHONPATH"].split(":")


def test_a_module_the_gpu_image_lacks_skips_a_test_only_under_gpu_check(monkeypatch):
    from optional_modules import need

    monkeypatch.setenv("PARITY_GPU_CHECK", "1")
    with pytest.raises(pytest.skip.Exception, match=r"needs the planted thing: not importable here \(ModuleNotFound"):
        need("no_such_module_here", "the planted thing")
    monkeypatch.delenv("PARITY_GPU_CHECK")
    with pytest.raises(ModuleNotFoundError):  # in CI the test fails instead of skipping
        need("no_such_module_here", "the planted thing")
    assert gpu_check.pack_env(Path("/p"), {"cache": "c"})["PARITY_GPU_CHECK"] == "1"


def test_gpu_pack_moves_to_the_repositorys_venv_from_another_python(tmp_path):
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / ".venv" / "bin" / "python").write_text("")
    assert gpu_pack.venv_python(tmp_path, "/usr") == str(tmp_path / ".venv" / "bin" / "python")
    assert gpu_pack.venv_python(tmp_path, str(tmp_path / ".venv")) is None  # already there: no loop
    assert gpu_pack.venv_python(tmp_path / "elsewhere", "/usr") is None  # no .venv: run as is


def test_a_missing_step_is_printed_as_missing_not_failed(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(gpu_check, "probe_gpu", lambda: ({"name": "planted", "capability": [9, 0]}, None))
    script = tmp_path / "real_absent.py"
    script.write_text("import sys\nprint('real: no model here')\nsys.exit(78)\n")
    monkeypatch.setattr(gpu_check, "REAL_MODEL_SCRIPTS", {str(script): (lambda out: [], "x.json")})
    argv = ["--out", str(tmp_path / "out"), "--pack", str(_pack(tmp_path))] + [
        a for s in [*STEPS_BUT_REAL_MODELS, "pytest"] for a in ("--skip", s)
    ]
    assert gpu_check.main(argv) == 0
    assert "gpu-check: real-models-real_absent: missing (" in capsys.readouterr().out


def test_a_step_past_its_limit_is_interrupted_first_so_it_can_write_its_summary(tmp_path):
    script = tmp_path / "slow.py"
    script.write_text(
        "import time\ntry:\n    print('started', flush=True)\n    time.sleep(30)\n"
        "except KeyboardInterrupt:\n    print('short test summary: 1 failed so far', flush=True)\n"
    )
    log = tmp_path / "slow.log"
    began = time.monotonic()
    with log.open("w") as sink:
        assert gpu_check.run_group([sys.executable, str(script)], tmp_path, None, sink, limit=3, grace=5) is None
    assert time.monotonic() - began < 10
    assert log.read_text().splitlines() == ["started", "short test summary: 1 failed so far"]
    stubborn = tmp_path / "stubborn.py"  # ignores SIGINT: killed after the grace
    stubborn.write_text("import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\ntime.sleep(30)\n")
    began = time.monotonic()
    with log.open("w") as sink:
        assert gpu_check.run_group([sys.executable, str(stubborn)], tmp_path, None, sink, limit=1, grace=1) is None
    assert time.monotonic() - began < 8


def test_pytest_counts_are_read_from_its_last_line_with_or_without_q():
    quiet = "....F\nFAILED tests/a.py::t - x\n1 failed, 266 passed, 79 skipped, 37 warnings in 141.59s (0:02:21)\n"
    assert gpu_check.pytest_figures(quiet) == {
        "failed": 1,
        "passed": 266,
        "skipped": 79,
        "warnings": 37,
        "skip_reasons": [],
    }
    assert gpu_check.pytest_figures("===== 3 passed, 1 error in 2.00s =====\n")["error"] == 1
