#!/usr/bin/env python3
"""scripts/gpu-check: every CUDA path of the project in one call on a lent GPU machine (docs/gpu.md).

No Node, no internet: what Node must make (the demo bundle, the native check's ORT fixture) and what the
GPU machine lacks (jsonschema) come in the pack folder that `scripts/gpu-pack` writes on a CPU machine
(default `.gpu-pack`, carried with the working tree). The steps, each with its own time limit:

  native-build   native/test's check built for this device's compute capability (nvcc)
  native-check   the check on the pack's fixture: numerics vs ORT, graph vs eager, timings, kernel count
  twin-check     python/gpu/twin_check.py (PyTorch twin under a real torch.cuda.CUDAGraph)
  twin-traces    the twin CLI on CUDA, eager and graph: trace.jsonl + audio.wav for the companion compare
  capture-rules  python/gpu/capture_check_gpu.py (capture-check rules against real capture)
  fp16-export    python/gpu/fp16_export_gpu.py (export_bundle fp32 + fp16 with the modules on CUDA)
  real-models    python/gpu/real_models_gpu.py and real_models_gpu_hf.py, where present
  pytest         python/tests on CUDA (tests that need Node skip, each with its reason); last, the longest

It writes one folder: summary.json (every step: status, exit code, seconds, figures, log file), one log
per step, the traces and WAVs, and with --archive a .tar.gz of the folder (a device call returns at most
8 files, 2 folders deep). `parity gpu-compare FOLDER` turns it into reports on any CPU machine.

Exit codes: 0 every step that ran passed, 1 a step failed or timed out, 2 bad usage or no pack,
3 no usable CUDA GPU here (one line says why; nothing else runs). A missing optional piece (the real-model
scripts) is reported as "missing" and does not fail the run.
"""

import argparse
import contextlib
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_NO_GPU = 0, 1, 2, 3
PACK_FORMAT = "tts-parity-gpu-pack/1"
SUMMARY_FORMAT = "tts-parity-gpu-check/1"
TWIN_TEXT = "The quick brown fox jumps over the lazy dog."  # held-out prompt (40 frames), as twin_check.py

# What the GPU machine needs of the checkout (besides the pack): checked by tests/test_gpu_check.py.
GPU_FILES = (
    "scripts/gpu-check",
    "native/src",
    "native/test",
    "python/gpu",
    "python/tts_parity",
    "python/tests",
    "python/pyproject.toml",
)

# Seconds per step, from the first H200 run (pack 2a127bb): native-build 8, native-check 3, twin-check 24,
# twin-traces 5.5 each, fp16-export 4, real_models_gpu_hf 30; capture-rules (14 cases, one process each) and
# pytest ran past 45 and 120. The run's budget (480 s) cuts the last steps first: pytest runs last.
LIMITS = {
    "native-build": 150,
    "native-check": 60,
    "twin-check": 60,
    "twin-traces": 40,
    "capture-rules": 90,
    "fp16-export": 40,
    "real-models": 90,
    "pytest": 240,
}
PYTEST_REPORT = ["-q", "-rfEs", "--tb=short", "--durations=10", "-p", "no:cacheprovider"]
# Issue 25's scripts: name -> (arguments for a results folder, the JSON file they write there). Their exit
# codes 77 (no CUDA) and 78 (the model code cannot be imported here, e.g. qwen-tts without transformers 4.57.3)
# make the step "missing" with the script's own reason: reported, not a failure of the run.
REAL_MODEL_SCRIPTS = {
    "real_models_gpu.py": (lambda out: ["--model", "qwen-tts", "--out", out], "qwen-tts.json"),
    "real_models_gpu_hf.py": (lambda out: ["--out", out / "real_models_gpu_hf.json"], "real_models_gpu_hf.json"),
}
MISSING_EXIT_CODES = (77, 78)


def find_nvcc(env=os.environ):
    """nvcc from $NVCC, PATH, $CUDA_HOME/bin, /usr/local/cuda/bin or a PyPI nvidia-cuda-nvcc beside python."""
    candidates = [env.get("NVCC"), shutil.which("nvcc", path=env.get("PATH"))]
    for home in (env.get("CUDA_HOME"), env.get("CUDA_PATH"), "/usr/local/cuda"):
        if home:
            candidates.append(str(Path(home) / "bin" / "nvcc"))
    for site in sys.path:
        candidates.append(str(Path(site) / "nvidia" / "cu13" / "bin" / "nvcc"))
    return next((c for c in candidates if c and Path(c).is_file() and os.access(c, os.X_OK)), None)


def cuda_arch(capability):
    """(9, 0) -> the make variable for an sm_90 binary plus PTX for newer devices."""
    cc = f"{capability[0]}{capability[1]}"
    return f"-gencode arch=compute_{cc},code=sm_{cc} -gencode arch=compute_{cc},code=compute_{cc}"


def probe_gpu():
    """(info dict, None) where torch sees a CUDA device, else (None, one-line reason)."""
    try:
        import torch
    except ImportError as error:
        return None, f"torch cannot be imported ({error})"
    if not torch.cuda.is_available():
        smi = shutil.which("nvidia-smi")
        return (
            None,
            f"torch {torch.__version__} sees no CUDA device "
            f"(CUDA build {torch.version.cuda}; nvidia-smi {'present' if smi else 'absent'})",
        )
    capability = torch.cuda.get_device_capability(0)
    props = torch.cuda.get_device_properties(0)
    return {
        "name": torch.cuda.get_device_name(0),
        "capability": list(capability),
        "multiprocessors": props.multi_processor_count,
        "memory_mib": props.total_memory // (1 << 20),
        "torch": torch.__version__,
        "torch_cuda": torch.version.cuda,
        "driver": _nvidia_smi_driver(),
    }, None


def _nvidia_smi_driver():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return None
    done = subprocess.run([smi, "--query-gpu=driver_version", "--format=csv,noheader"], capture_output=True, text=True)
    return done.stdout.strip() or None


def read_pack(pack: Path):
    """The pack's manifest, or raises ValueError naming what is missing."""
    manifest_file = pack / "manifest.json"
    if not manifest_file.is_file():
        raise ValueError(
            f"no pack at {pack} ({manifest_file} missing): "
            "run scripts/gpu-pack on a CPU machine with Node and carry the folder"
        )
    manifest = json.loads(manifest_file.read_text(encoding="utf-8"))
    if manifest.get("format") != PACK_FORMAT:
        raise ValueError(f"{manifest_file}: format {manifest.get('format')!r}, expected {PACK_FORMAT!r}")
    for entry in manifest["files"]:
        path = pack / entry["path"]
        if not path.is_file() or path.stat().st_size != entry["bytes"]:
            raise ValueError(
                f"{path}: missing or not {entry['bytes']} bytes as the manifest says: write the pack again"
            )
    return manifest


def pack_env(pack: Path, manifest, first=()):
    """The environment every step runs in: `first` and the pack's Python packages first on PYTHONPATH, its demo
    bundle as parity's cache, python/ importable, unbuffered output."""
    env = dict(os.environ)
    paths = [str(p) for p in first]
    if manifest.get("site"):
        paths.append(str(pack / manifest["site"]))
    paths.append(str(REPO / "python"))
    if env.get("PYTHONPATH"):
        paths.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(paths)
    env["PARITY_CACHE_DIR"] = str(pack / manifest["cache"])
    env["PYTHONUNBUFFERED"] = "1"
    env["PARITY_GPU_CHECK"] = "1"  # tests needing what the image lacks skip, naming it (tests/optional_modules.py)
    env["PARITY_REPO_ROOT"] = str(REPO)
    return env


def unpack_hf_wheels(pack: Path, manifest, into: Path):
    """The pack's hf-wheels (the lock's transformers and what it needs) unpacked into `into`; None without them."""
    if not manifest.get("hf_wheels"):
        return None
    for wheel in sorted((pack / manifest["hf_wheels"]).glob("*.whl")):
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(into)
    return into


def pytest_env(env, workers):
    """pytest's environment: torch's CPU threads split among the xdist workers (8 workers each taking every
    core made the first GPU run's pytest crawl)."""
    threads = max(1, (os.cpu_count() or 1) // max(1, workers))
    return {**env, "OMP_NUM_THREADS": str(threads), "MKL_NUM_THREADS": str(threads)}


INTERRUPT_GRACE = 10  # seconds a step has, after SIGINT at its limit, to write what it has (pytest's summary)


def run_group(argv, cwd, env, sink, limit, grace=INTERRUPT_GRACE):
    """Runs argv in its own process group; past `limit` seconds the whole group (make's nvcc, pytest's
    workers) gets SIGINT (pytest then prints its failures and short summary so far), `grace` seconds later
    SIGKILL, and None is returned; else the exit code."""
    child = subprocess.Popen(argv, cwd=cwd, env=env, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        return child.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGINT)
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(timeout=grace)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        return None


class Run:
    """The results folder and summary being written."""

    def __init__(self, out: Path, budget: float = 480):
        self.out = out
        self.steps = []
        self.started = time.monotonic()
        self.deadline = self.started + budget
        self.budget = budget

    def step(self, name, argv, env, limit, cwd=REPO, figures=None, files=(), missing_codes=()):
        """Runs argv with its output in <name>.log; records status, exit code, seconds and figures (an exit
        code in `missing_codes` is "missing" with the last line as its reason). The step's limit is cut to what
        is left of the run's budget; with under 5 s left it is not started."""
        left = self.deadline - time.monotonic()
        if left < 5:
            self.note(name, "skipped", f"not started: the run's time budget ({self.budget:g} s, --budget) was spent")
            return self.steps[-1]
        limit = int(min(limit, left))
        log = self.out / f"{name}.log"
        began = time.monotonic()
        print(f"gpu-check: {name}: {' '.join(map(str, argv))}", flush=True)
        with log.open("w", encoding="utf-8") as sink:
            try:
                rc = run_group(list(map(str, argv)), cwd=cwd, env=env, sink=sink, limit=limit)
                status = _status(rc, missing_codes)
            except OSError as error:
                sink.write(f"{error}\n")
                rc, status = None, "failed"
        seconds = round(time.monotonic() - began, 2)
        text = log.read_text(encoding="utf-8", errors="replace")
        entry = {
            "name": name,
            "status": status,
            "exit_code": rc,
            "seconds": seconds,
            "limit_seconds": limit,
            "log": log.name,
        }
        if status == "timed-out":
            entry["reason"] = f"ran past its {limit} s limit"
        elif status in ("failed", "missing"):
            entry["reason"] = _last_line(text)
        if figures:
            entry["figures"] = figures(text)
        if files:
            entry["files"] = [f for f in files if (self.out / f).exists()]
        self.steps.append(entry)
        print(f"gpu-check: {name}: {status} ({seconds} s)", flush=True)
        return entry

    def note(self, name, status, reason):
        self.steps.append({"name": name, "status": status, "reason": reason})
        print(f"gpu-check: {name}: {status}: {reason}", flush=True)


def _status(rc, missing_codes):
    if rc is None:
        return "timed-out"
    if rc == 0:
        return "passed"
    return "missing" if rc in missing_codes else "failed"


def _last_line(text):
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:300] if lines else "no output"


NATIVE_FIGURES = {  # key: (pattern over native/test/check.cu's output, group -> value)
    "greedy_eager_launches": r"^graph: .*kernels per decode step: eager (\d+) launches",
    "greedy_graph_nodes": r"^graph: .*kernels per decode step: eager \d+ launches, graph (\d+) nodes",
    "sampled_eager_launches": r"^sampled: .*kernels per decode step: eager (\d+) launches",
    "sampled_graph_nodes": r"^sampled: .*kernels per decode step: eager \d+ launches, graph (\d+) nodes",
    "vocoder_max_abs": r"^vocoder: max\|daudio\| ([\d.eE+-]+)",
    "eager_step_ms": r"^timing: decode step median over \d+ passes: eager ([\d.]+) ms device",
    "graph_step_ms": r"^timing: decode step median .* graph ([\d.]+) ms device",
    "graph_speedup": r"^timing: graph speed-up ([\d.]+)x",
    "fused_eager_step_ms": r"^timing: fused kernels launched one by one \(no graph\): ([\d.]+) ms device",
    "fused_greedy_kernels": r"^fused: kernels per decode step: greedy (\d+)",
    "unfused_greedy_kernels": r"^fused: kernels per decode step: greedy \d+ \(unfused (\d+)\)",
    "fused_sampled_kernels": r"^fused: kernels per decode step: .*, sampled (\d+)",
    "sampled_graph_step_ms": r"^timing: sampled decode step median: eager [\d.]+ ms device, graph ([\d.]+) ms",
    "sampling_us_per_pick": r"^timing: sampling cost per decode step .*\(([\d.]+) us per pick",
}


def native_figures(text):
    """Figures read from the check's output lines (absent ones are left out, never guessed)."""
    found = {
        "passed": [line[5:] for line in text.splitlines() if line.startswith("PASS ")],
        "failed": [line[5:] for line in text.splitlines() if line.startswith("FAIL ")],
        "all_passed": "ALL PASSED" in text,
        "pick_microbenchmark": [
            {
                "V": int(v),
                "settings": what,
                "argmax_us": float(a),
                "sampled_us": float(sm),
            }
            for v, what, a, sm in re.findall(
                r"^timing: pick microbenchmark V=(\d+) \(([^)]*)\): greedy argmax ([\d.]+) us, "
                r"sampled ([\d.]+) us per pick",
                text,
                re.M,
            )
        ],
        "profile": [
            {"label": label, "launches": int(n), "us_per_step": float(us), "kernels": kernels}
            for label, n, us, kernels in re.findall(
                r"^profile: (.+?): (\d+) launches, ([\d.]+) us per decode step \([^)]*\): (.*)$", text, re.M
            )
        ],
        "pick_barriers": [
            {"V": int(v), "settings": what, "barriers": int(n)}
            for v, what, n in re.findall(r"^pick: barriers per sampled pick V=(\d+) \(([^)]*)\): (\d+)", text, re.M)
        ],
    }
    for key, pattern in NATIVE_FIGURES.items():
        match = re.search(pattern, text, re.M)
        if match:
            value = match.group(1)
            found[key] = int(value) if value.isdigit() else float(value)
    return found


def pytest_workers(cpus=None, have_xdist=None):
    """`-n N` (pytest-xdist, in the GPU image) with up to 8 workers where there are cores for them, else none."""
    import importlib.util

    cpus = (os.cpu_count() or 1) if cpus is None else cpus
    have_xdist = importlib.util.find_spec("xdist") is not None if have_xdist is None else have_xdist
    workers = min(8, cpus // 2)
    return ["-n", str(workers)] if have_xdist and workers >= 2 else []


def pytest_figures(text):
    # "1 failed, 266 passed in 141.59s (0:02:21)" under -q; "==== ... ====" without it
    match = re.match(r"=*\s*(.*?) in [\d.]+s", text.strip().splitlines()[-1] if text.strip() else "")
    counts = {}
    if match:
        for number, what in re.findall(r"(\d+) (\w+)", match.group(1)):
            counts[what] = int(number)
    counts["skip_reasons"] = sorted(set(re.findall(r"SKIPPED \[\d+\] [^:]+:\d+: (.*)", text)))[:20]
    return counts


def json_figures(path):
    def read(_text):
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            return {"unreadable": str(error)}

    return read


def check_all(out: Path, pack: Path, gpu, skip=(), budget: float = 480, scratch: Path | None = None):
    """Every step; `scratch` (a folder outside `out`) receives the unpacked hf-wheels."""
    manifest = read_pack(pack)
    env = pack_env(pack, manifest)
    # The model code CI pins, first on the path of the steps that run transformers models (the image has 5.17).
    hf_site = unpack_hf_wheels(pack, manifest, scratch) if scratch is not None else None
    model_env = pack_env(pack, manifest, [hf_site]) if hf_site else env
    run = Run(out, budget)
    py = sys.executable
    fixture = pack / manifest["native_fixture"]
    build = out / "native-build"

    def want(name):
        if name in skip:
            run.note(name, "skipped", "--skip on the command line")
            return False
        return True

    if want("native-build"):
        nvcc = find_nvcc(env)
        if nvcc is None:
            run.note(
                "native-build",
                "failed",
                "nvcc not found ($NVCC, PATH, $CUDA_HOME/bin, /usr/local/cuda/bin, nvidia/cu13 beside python)",
            )
        else:
            run.step(
                "native-build",
                [
                    "make",
                    "-C",
                    REPO / "native" / "test",
                    f"NVCC={nvcc}",
                    f"CUDA_ARCH={cuda_arch(gpu['capability'])} --threads 0",  # both targets compiled in parallel
                    f"BUILD={build}",
                ],
                env,
                LIMITS["native-build"],
            )
    checker = build / "check"
    if want("native-check"):
        if checker.is_file():
            run.step("native-check", [checker, fixture], env, LIMITS["native-check"], figures=native_figures)
        else:
            run.note("native-check", "failed", "the native check was not built (see native-build)")
    if want("twin-check"):
        run.step(
            "twin-check",
            [py, REPO / "python/gpu/twin_check.py", "--device", "cuda", "--out", out / "twin-check.json"],
            env,
            LIMITS["twin-check"],
            figures=json_figures(out / "twin-check.json"),
            files=["twin-check.json"],
        )
    if want("twin-traces"):
        for profile in ("eager", "graph"):
            folder = f"twin-{profile}"
            run.step(
                f"twin-traces-{profile}",
                [
                    py,
                    "-m",
                    "tts_parity.demo",
                    "--text",
                    TWIN_TEXT,
                    "--out",
                    out / folder,
                    "--profile",
                    profile,
                    "--device",
                    "cuda",
                    "--force",
                ],
                env,
                LIMITS["twin-traces"],
                files=[f"{folder}/trace.jsonl", f"{folder}/audio.wav"],
            )
    if want("capture-rules"):
        run.step(
            "capture-rules",
            [py, REPO / "python/gpu/capture_check_gpu.py"],
            env,
            LIMITS["capture-rules"],
            figures=lambda text: _json_tail(text),
        )
    if want("fp16-export"):
        run.step(
            "fp16-export",
            [
                py,
                REPO / "python/gpu/fp16_export_gpu.py",
                "--out",
                out / "fp16-bundle",
                "--json",
                out / "fp16-export.json",
            ],
            env,
            LIMITS["fp16-export"],
            figures=json_figures(out / "fp16-export.json"),
            files=["fp16-export.json", "fp16-bundle"],
        )
    if want("real-models"):
        for script, (arguments, result_name) in REAL_MODEL_SCRIPTS.items():
            name = f"real-models-{Path(script).stem}"
            path = REPO / "python" / "gpu" / script
            if not path.is_file():
                run.note(name, "missing", f"python/gpu/{script} is not in this checkout (issue 25): not run")
                continue
            result = out / result_name
            run.step(
                name,
                [py, path, *arguments(out)],
                model_env,
                LIMITS["real-models"],
                figures=json_figures(result),
                files=[result.name],
                missing_codes=MISSING_EXIT_CODES,
            )
    if want("pytest"):
        workers = pytest_workers()
        run.step(
            "pytest",
            [
                py,
                "-m",
                "pytest",
                *PYTEST_REPORT,
                "--junitxml",
                out / "pytest.xml",
                *workers,
                REPO / "python/tests",
            ],
            pytest_env(model_env, int(workers[1]) if workers else 1),
            LIMITS["pytest"],
            cwd=REPO / "python",
            figures=pytest_figures,
            files=["pytest.xml"],
        )
    return run, manifest


def _json_tail(text):
    start = text.find("{")
    try:
        return json.loads(text[start:]) if start >= 0 else {}
    except ValueError:
        return {}


def summarize(run: Run, gpu, manifest):
    failed = [s["name"] for s in run.steps if s["status"] in ("failed", "timed-out")]
    return {
        "format": SUMMARY_FORMAT,
        "device": gpu,
        "host": platform.node(),
        "python": platform.python_version(),
        "pack": {k: manifest.get(k) for k in ("commit", "created", "bundle")},
        "seconds": round(time.monotonic() - run.started, 2),
        "passed": not failed,
        "failed": failed,
        "missing": [s["name"] for s in run.steps if s["status"] == "missing"],
        "steps": run.steps,
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="scripts/gpu-check", description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--out",
        default=(os.environ.get("OUT") and str(Path(os.environ["OUT"]) / "gpu-check")) or "gpu-check-results",
        help="results folder (created; default $OUT/gpu-check on a device machine, else ./gpu-check-results)",
    )
    p.add_argument(
        "--pack", default=str(REPO / ".gpu-pack"), help="the folder scripts/gpu-pack wrote (default .gpu-pack)"
    )
    p.add_argument("--archive", help="also write the results folder as this .tar.gz")
    p.add_argument(
        "--budget",
        type=float,
        default=480,
        help="seconds for all steps together (default 480: inside a 600 s device call); a step past it is skipped",
    )
    p.add_argument(
        "--skip", action="append", default=[], help="a step to leave out (repeatable; its name as listed above)"
    )
    args = p.parse_args(argv)
    gpu, reason = probe_gpu()
    if gpu is None:
        print(f"gpu-check: NO GPU: {reason}; nothing was run (exit {EXIT_NO_GPU})")
        return EXIT_NO_GPU
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    try:
        with tempfile.TemporaryDirectory(prefix="gpu-check-hf-") as scratch:
            run, manifest = check_all(out, Path(args.pack), gpu, set(args.skip), args.budget, Path(scratch))
    except ValueError as error:
        print(f"gpu-check: {error}", file=sys.stderr)
        return EXIT_USAGE
    summary = summarize(run, gpu, manifest)
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    if args.archive:
        with tarfile.open(args.archive, "w:gz") as tar:
            tar.add(out, arcname="gpu-check")
    verdict = "PASSED" if summary["passed"] else f"FAILED ({', '.join(summary['failed'])})"
    print(f"gpu-check: {verdict} in {summary['seconds']} s on {gpu['name']}; summary {out / 'summary.json'}")
    return EXIT_OK if summary["passed"] else EXIT_FAILED


if __name__ == "__main__":
    sys.exit(main())
