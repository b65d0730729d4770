#!/bin/sh
# Lint and type-check the Python side, as the test command (scripts/test.js) does, plus the format check:
#   python/lint.sh            (from any folder; PYTHON=... picks another interpreter than .venv's)
# ruff and mypy are pinned in python/requirements/dev.lock; their settings are in python/pyproject.toml.
set -e
cd "$(dirname "$0")/.."
PY="${PYTHON:-.venv/bin/python}"
status=0
"$PY" -m ruff check python || status=1
"$PY" -m ruff format --check python || status=1
"$PY" -m mypy --config-file python/pyproject.toml python/tts_parity || status=1
exit $status
