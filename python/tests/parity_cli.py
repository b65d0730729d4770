"""Runs the TypeScript side from pytest: `node bin/parity.js` and the built modules under dist/ (built
with `npx tsc -p tsconfig.build.json` first when dist/ is missing; `npm ci` builds it in CI)."""

import os
import subprocess
from pathlib import Path

from conftest import REPO_ROOT

ROOT = Path(os.environ.get("PARITY_REPO_ROOT", REPO_ROOT))
DIST = ROOT / "dist" / "electron"


def ensure_dist():
    if not (DIST / "cli" / "main.js").exists():
        subprocess.run(["npx", "tsc", "-p", "tsconfig.build.json"], cwd=ROOT, check=True)


def run_parity(*args):
    ensure_dist()
    return subprocess.run(
        ["node", str(ROOT / "bin" / "parity.js"), *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


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
