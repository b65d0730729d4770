"""`python3 -m tts_parity.demo`: one synthesis by the PyTorch twin of the demo, written as DIR/trace.jsonl
(tts-parity-trace/1) and DIR/audio.wav (docs/python-twin.md).

Exit status: 0 done; 2 bad input (arguments, text, bundle), CUDA refused the graph capture, or none of
the requested faults acted; 3 internal error. Every refusal is one line on stderr.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import torch

from .._cli import run_main
from ..errors import ParityValueError
from .bundle import demo_bundle_dir, read_manifest
from .faults import Faults, not_applied, parse_faults
from .model import load_twin
from .run_traced import run_traced
from .selection import SamplingParams, SamplingSelector
from .synthesis import PROFILES
from .text import tokenize

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["PROG", "main", "run"]


PROG = "tts_parity.demo"


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's usage + message, as one line
        raise ParityValueError(f"{message} (see python3 -m {PROG} --help)")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog=f"python3 -m {PROG}", description="The PyTorch twin of the demo bundle: one synthesis, traced.")
    p.add_argument("--text", required=True, help="the prompt (UTF-8; the bundle sets the byte limit, 128 for the demo)")
    p.add_argument("--out", required=True, help="folder for trace.jsonl and audio.wav (created if missing)")
    p.add_argument(
        "--profile",
        default="eager",
        help="eager (dynamic KV cache, op by op) "
        "or graph (static KV buffers; decode step captured as a CUDA graph on CUDA)",
    )
    p.add_argument(
        "--fault",
        action="append",
        default=[],
        help="stale-feedback@N, mlp-scale@N or bool-mask (repeatable; docs/python-twin.md)",
    )
    p.add_argument("--bundle", help="bundle folder (default: the demo bundle where `parity` keeps it)")
    p.add_argument("--seed", default="0", help="seed of the sampler (Philox, as the engine's; default 0)")
    p.add_argument(
        "--sampling",
        default="greedy",
        help="greedy (default) or sample (profile eager only: graph chooses codes on the device)",
    )
    p.add_argument("--temperature", default="1", help="sampling temperature in (0, 10] (default 1)")
    p.add_argument("--top-k", default="0", help="keep the k most likely codes; 0 = all (default 0)")
    p.add_argument("--top-p", default="1", help="nucleus probability in (0, 1] (default 1)")
    p.add_argument("--repetition-penalty", default="1", help="CTRL repetition penalty in (0, 10], 1 = none (default 1)")
    p.add_argument("--device", choices=("cpu", "cuda"), help="default: cuda when available, else cpu")
    p.add_argument(
        "--record-modules",
        metavar="REGEX",
        help="record these modules' outputs (e.g. '^talker\\.layers\\.\\d+\\.(self_attn|mlp)$') into "
        "trace.modules.safetensors",
    )
    p.add_argument("--record-steps", metavar="N,M,...", help="steps to record modules at (default: every step)")
    p.add_argument("--force", action="store_true", help="replace trace.jsonl and audio.wav if they exist")
    return p


def _int_list(text: str, flag: str) -> list:
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        raise ParityValueError(f'{flag} "{text}": expected step numbers separated by commas, e.g. 1,5,6') from None
    if any(v < 1 for v in values):
        raise ParityValueError(f'{flag} "{text}": steps start at 1 (the prefill)')
    return values


def _seed(text: str) -> int:
    if not text.isdigit() or int(text) > 4294967295:  # parity synth's range
        raise ParityValueError(f'--seed {text}: expected an integer seed in [0, 4294967295], found "{text}"')
    return int(text)


def _number(text: str, flag: str, low: float, high: float) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not low < value <= high:
        raise ParityValueError(f'{flag} "{text}": expected a number in ({low:g}, {high:g}]')
    return value


def _selector(args, codebooks: int):
    """None for greedy (each profile's own argmax), else the seeded sampler; refused under profile graph."""
    if args.sampling not in ("greedy", "sample"):
        raise ParityValueError(f'--sampling "{args.sampling}": expected greedy or sample')
    if not args.top_k.isdigit():
        raise ParityValueError(f'--top-k "{args.top_k}": expected an integer >= 0')
    params = SamplingParams(
        temperature=_number(args.temperature, "--temperature", 0, 10),
        top_k=int(args.top_k),
        top_p=_number(args.top_p, "--top-p", 0, 1),
        repetition_penalty=_number(args.repetition_penalty, "--repetition-penalty", 0, 10),
    )
    if args.sampling == "greedy":
        return None
    if args.profile == "graph":
        raise ParityValueError(
            "--sampling sample: profile graph chooses codes on the device inside the captured step (greedy only); use "
            "--profile eager"
        )
    return SamplingSelector(_seed(args.seed), params, codebooks)


def _check_modules(twin, pattern: str) -> None:
    """The module pattern compiles and names at least one of the twin's modules."""
    try:
        regex = re.compile(pattern)
    except re.error as error:
        raise ParityValueError(f"--record-modules {pattern!r}: not a regular expression ({error})") from None
    names = [name for name, _ in twin.named_modules() if name]
    if not any(regex.search(name) for name in names):
        raise ParityValueError(
            f"--record-modules {pattern!r}: matches no module of the twin (e.g. {', '.join(names[:4])}, "
            "talker.layers.0.mlp)"
        )


def _device(choice):
    if choice == "cuda" and not torch.cuda.is_available():
        raise ParityValueError(f"--device cuda: no CUDA device is visible to PyTorch {torch.__version__}")
    return torch.device(choice or ("cuda" if torch.cuda.is_available() else "cpu"))


def _outputs(folder: Path, force: bool):
    trace, wav = folder / "trace.jsonl", folder / "audio.wav"
    if folder.exists() and not folder.is_dir():
        raise ParityValueError(f"--out {folder}: exists and is not a folder")
    for path in (trace, wav):
        if path.exists() and not force:
            raise ParityValueError(f"--out {folder}: {path.name} exists; use --force to replace it")
    folder.mkdir(parents=True, exist_ok=True)
    return trace, wav


def run(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    if args.profile not in PROFILES:
        raise ParityValueError(f'--profile "{args.profile}": expected one of {", ".join(PROFILES)}')
    faults = parse_faults(args.fault)
    seed = _seed(args.seed)
    steps_to_record = _int_list(args.record_steps, "--record-steps") if args.record_steps else None
    if steps_to_record and not args.record_modules:
        raise ParityValueError("--record-steps: give --record-modules REGEX too")

    bundle = Path(args.bundle) if args.bundle else demo_bundle_dir()
    manifest = read_manifest(bundle)
    tokenize(args.text, manifest)  # refuses bad text before any file is written
    selector = _selector(args, manifest.codebooks)
    device = _device(args.device)
    twin = load_twin(bundle, device)
    if args.record_modules:
        _check_modules(twin, args.record_modules)
    trace, wav = _outputs(Path(args.out), args.force)
    if args.profile == "graph" and device.type != "cuda":
        print(
            "note: profile graph: no CUDA graph captured: CPU (the static-buffer decode step runs directly)",
            file=sys.stderr,
        )
    result = run_traced(
        twin,
        args.text,
        args.profile,
        faults,
        trace,
        wav,
        seed=seed,
        selector=selector,
        modules=args.record_modules,
        module_steps=steps_to_record,
        force=args.force,
    )

    m = twin.manifest
    print(
        f"wrote {trace} and {wav}: {len(result.steps)} frames x {m.codebooks} codebooks, "
        f"{len(result.audio) / m.sample_rate:.2f} s at {m.sample_rate} Hz"
    )
    decode_ms = [s.step_ms for s in result.steps[1:]]
    how = (
        "CUDA graph captured once, replayed"
        if result.captured
        else ("static buffers, no capture" if args.profile == "graph" else "eager")
    )
    timing = (
        f"decode step median {statistics.median(decode_ms):.2f} ms over {len(decode_ms)} steps"
        if decode_ms
        else "no decode step (1 frame)"
    )
    print(
        f"profile {args.profile} on {device.type} ({how}); prefill {result.steps[0].step_ms:.2f} ms, {timing}, vocoder "
        f"{result.vocoder_ms:.1f} ms"
    )
    return _fault_notes(faults, args.profile, device.type, len(result.steps))


def _fault_notes(faults: Faults, profile: str, device: str, frames: int) -> int:
    """stderr lines for faults that did not act as on a GPU; 2 when none of the asked faults acted."""
    if faults.bool_mask:
        where = (
            "eager profile: it ran eagerly, where it is legal"
            if profile == "eager"
            else f"{device}: no capture happened, so nothing refused it"
        )
        print(
            f"note: fault bool-mask: the boolean-mask index ran ({where}); CUDA-graph capture refuses it",
            file=sys.stderr,
        )
    skipped = not_applied(faults, frames)
    for text, reason in skipped:
        print(f"warning: fault {text} was not applied: {reason}", file=sys.stderr)
    asked = faults.texts()
    if asked and len(skipped) == len(asked):
        print(f"{PROG}: none of the requested faults was applied ({', '.join(asked)}); exit 2", file=sys.stderr)
        return 2
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (one line per error, exit 2 for a user error, 130 on Ctrl-C, 3 for a bug of ours)."""
    return run_main(PROG, run, argv)
