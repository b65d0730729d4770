"""The twin's command line: bad input is one line on stderr naming what was wrong, exit 2; the default
bundle is looked up where `parity` keeps it, and its absence names the command that builds it."""

import re
import subprocess
import sys

import pytest
import torch

from tts_parity.demo.bundle import DEMO_BUNDLE_VERSION, DEMO_SEED
from tts_parity.demo.cli import main

from conftest import PYTHON_DIR, REPO_ROOT
from demo_twin_support import run_twin


@pytest.mark.parametrize(
    "args, message",
    [
        (["--profile", "graphs", "--text", "hi"], '--profile "graphs": expected one of eager, graph'),
        (
            ["--fault", "stale@2", "--text", "hi"],
            '--fault "stale@2": unknown fault (known: stale-feedback@N (N >= 2), mlp-scale@N (N >= 1), bool-mask)',
        ),
        (
            ["--fault", "stale-feedback@1", "--text", "hi"],
            '--fault "stale-feedback@1": N must be >= 2 (step 1 is the prefill, it has no feedback)',
        ),
        (["--fault", "mlp-scale@0", "--text", "hi"], '--fault "mlp-scale@0": N must be >= 1 (steps start at 1)'),
        (
            ["--fault", "bool-mask", "--fault", "bool-mask", "--text", "hi"],
            '--fault "bool-mask": bool-mask given twice',
        ),
        (["--text", "   "], "--text: empty; give at least one non-space character"),
        (["--text", "é" * 65], "--text: 130 UTF-8 bytes, over this bundle's limit of 128 (bundle.json text.maxBytes)"),
        (["--text", "hi", "--seed", "-1"], '--seed -1: expected an integer seed in [0, 4294967295], found "-1"'),
        (["--text", "hi", "--record-steps", "0"], '--record-steps "0": steps start at 1 (the prefill)'),
        (["--text", "hi", "--record-steps", "2"], "--record-steps: give --record-modules REGEX too"),
        (
            ["--text", "hi", "--frobnicate"],
            "unrecognized arguments: --frobnicate (see python3 -m tts_parity.demo --help)",
        ),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(tmp_path, capsys, args, message):
    status, out, err = run_twin(capsys, "--out", tmp_path / "o", *args)
    assert status == 2
    assert err == f"tts_parity.demo: {message}\n"
    assert out == "" and not (tmp_path / "o").exists()


def test_missing_arguments_and_bad_bundle(tmp_path, capsys):
    assert main(["--out", str(tmp_path)]) == 2
    assert (
        capsys.readouterr().err
        == "tts_parity.demo: the following arguments are required: --text (see python3 -m tts_parity.demo --help)\n"
    )
    assert main(["--bundle", str(tmp_path), "--text", "hi", "--out", str(tmp_path / "o")]) == 2
    assert capsys.readouterr().err == f"tts_parity.demo: --bundle {tmp_path}: no bundle.json in it\n"


def test_a_module_pattern_that_matches_nothing_is_named(tmp_path, capsys):
    pattern = r"^talker\.layer\.0$"
    status, _, err = run_twin(capsys, "--text", "hi", "--out", tmp_path / "o", "--record-modules", pattern)
    assert status == 2
    assert (
        err == f"tts_parity.demo: --record-modules {pattern!r}: matches no module of the twin (e.g. embed, "
        "embed.text_embedding, embed.codec_embedding, feedback, talker.layers.0.mlp)\n"
    )
    status, _, err = run_twin(capsys, "--text", "hi", "--out", tmp_path / "o", "--record-modules", "talker.(")
    assert (
        status == 2
        and err
        == "tts_parity.demo: --record-modules 'talker.(': not a regular expression (missing ), unterminated subpattern "
        "at position 7)\n"
    )
    assert not (tmp_path / "o").exists()


def test_existing_outputs_need_force(tmp_path, capsys):
    assert run_twin(capsys, "--text", "hi", "--out", tmp_path)[0] == 0
    status, _, err = run_twin(capsys, "--text", "hi", "--out", tmp_path)
    assert status == 2 and err == f"tts_parity.demo: --out {tmp_path}: trace.jsonl exists; use --force to replace it\n"
    assert run_twin(capsys, "--text", "hi", "--out", tmp_path, "--force")[0] == 0


def test_a_real_process_prints_one_line_and_exits_2():
    done = subprocess.run(
        [sys.executable, "-m", "tts_parity.demo", "--text", "hi", "--out", "x", "--profile", "cuda-graph"],
        cwd=PYTHON_DIR,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert (
        done.stderr == 'tts_parity.demo: --profile "cuda-graph": expected one of eager, graph\n' and done.stdout == ""
    )


def test_default_bundle_is_looked_up_where_parity_keeps_it(tmp_path, capsys, monkeypatch, demo_bundle):
    monkeypatch.setenv("PARITY_CACHE_DIR", str(tmp_path / "cache"))
    expected = tmp_path / "cache" / f"demo-bundle-v{DEMO_BUNDLE_VERSION}-{DEMO_SEED}"
    assert main(["--text", "hi", "--out", str(tmp_path / "o")]) == 2
    assert capsys.readouterr().err == (
        f"tts_parity.demo: the demo bundle is not built yet (looked for {expected / 'bundle.json'}): build it with "
        f"`node bin/parity.js bundle build-demo --out {expected}` (or any `parity synth` once), or pass --bundle DIR\n"
    )
    expected.parent.mkdir(parents=True)
    expected.symlink_to(demo_bundle)
    assert main(["--text", "hi", "--out", str(tmp_path / "o")]) == 0


def test_the_bundle_folder_name_follows_the_typescript_constants():
    """bundle.py copies two numbers from the TypeScript side; this fails when either changes there."""
    resolve = (REPO_ROOT / "electron/engine/demo/resolve-demo-bundle.ts").read_text(encoding="utf-8")
    config = (REPO_ROOT / "electron/engine/demo/demo-config.ts").read_text(encoding="utf-8")
    assert re.search(r"export const DEMO_BUNDLE_VERSION = (\d+);", resolve).group(1) == str(DEMO_BUNDLE_VERSION)
    assert re.search(r"export const DEMO_SEED = (\d+);", config).group(1) == str(DEMO_SEED)
    assert "`demo-bundle-v${DEMO_BUNDLE_VERSION}-${DEMO_SEED}`" in resolve


@pytest.mark.skipif(torch.cuda.is_available(), reason="a CUDA device is visible: the refusal cannot happen here")
def test_cuda_asked_for_without_cuda_is_refused(tmp_path, capsys):
    status, _, err = run_twin(capsys, "--device", "cuda", "--text", "hi", "--out", tmp_path / "o")
    assert (
        status == 2
        and err == f"tts_parity.demo: --device cuda: no CUDA device is visible to PyTorch {torch.__version__}\n"
    )
