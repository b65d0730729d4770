"""Runs the TypeScript side from pytest: `node bin/parity.js` and the built modules under dist/ (built
with `npx tsc -p tsconfig.build.json` first when dist/ is missing; `npm ci` builds it in CI).

Where no `node` is on PATH (a lent GPU machine, scripts/gpu-check) every helper here skips the calling test,
saying so: those tests check the TypeScript side, which cannot run there. Where Node is present they run."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import REPO_ROOT

ROOT = Path(os.environ.get("PARITY_REPO_ROOT", REPO_ROOT))
DIST = ROOT / "dist" / "electron"


def needs_node():
    """Skips the calling test where there is no `node` on PATH (reason in the pytest summary)."""
    if shutil.which("node") is None:
        pytest.skip(
            "needs Node: no `node` on PATH (a GPU machine without Node); runs in CI and on any machine with Node"
        )


def ensure_dist():
    needs_node()
    if not (DIST / "cli" / "main.js").exists():
        subprocess.run(["npx", "tsc", "-p", "tsconfig.build.json"], cwd=ROOT, check=True)


def run_parity(*args):
    needs_node()
    ensure_dist()
    return subprocess.run(
        ["node", str(ROOT / "bin" / "parity.js"), *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def synth_eager_and_graph(bundle, text, out):
    """`parity synth` of `text` under the eager and the graph profile into out/<profile>.wav and .jsonl."""
    for profile in ("eager", "graph"):
        done = run_parity(
            "synth", "--bundle", bundle, "--text", text, "--profile", profile,
            "--out", out / f"{profile}.wav", "--trace", out / f"{profile}.jsonl",
        )  # fmt: skip
        assert done.returncode == 0, done.stderr


def run_node_module(script, *args):
    """Runs an ES module with the built dist/ as `DIST` in its environment; returns its stdout."""
    ensure_dist()
    env = {**os.environ, "PARITY_DIST": str(DIST)}
    done = subprocess.run(
        ["node", str(script), *map(str, args)], cwd=ROOT, capture_output=True, text=True, env=env, timeout=60
    )
    if done.returncode != 0:
        raise AssertionError(f"node {script} failed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout
