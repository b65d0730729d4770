#!/usr/bin/env python3
"""scripts/gpu-pack: on a CPU machine with Node, writes the folder scripts/gpu-check needs on a GPU machine
that has no Node and no internet (docs/gpu.md):

  cache/demo-bundle-v{V}-{SEED}/  the demo bundle (`parity bundle build-demo`), found there via PARITY_CACHE_DIR
  native-fixture/                 the native check's ORT CPU references (export-native-fixture.js)
  site/                           jsonschema and the packages it needs that the GPU image lacks, unpacked from
                                  wheels for the GPU machine's Python (3.12, manylinux x86-64), pinned and
                                  hash-checked against python/requirements/dev.lock
  hf-wheels/                      the lock's transformers and what it needs at those versions (tokenizers,
                                  huggingface-hub, requests...), as wheels (transformers unpacked is 57 MiB):
                                  gpu-check unpacks them into a scratch folder for the steps that run model code
  manifest.json                   format, commit, every file with its size

Wheels come from --wheels DIR when given (offline), else `pip download` of exactly the locked versions.
Carry the folder with the device call (`carry: [".gpu-pack"]`); it is ignored by git.
"""

import argparse
import hashlib
import json
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "python"))
sys.path.insert(0, str(REPO / "python" / "gpu"))

from gpu_check import GPU_FILES, PACK_FORMAT  # noqa: E402

LOCK = REPO / "python" / "requirements" / "dev.lock"
# What the GPU image (KINDS.md: attrs, typing-extensions present) lacks for tts_parity's trace checks:
# `import jsonschema` and `import fastjsonschema`.
SITE_PACKAGES = ("jsonschema", "jsonschema-specifications", "referencing", "rpds-py", "fastjsonschema")
TARGET = {"python": "3.12", "abi": "cp312", "platforms": ("manylinux_2_17_x86_64", "manylinux2014_x86_64")}
# The model code CI pins (dev.lock's transformers 4.57.3; the GPU image has 5.17, whose Qwen3-Omni differs) and
# the versions it requires of what the image has newer (tokenizers <= 0.23.0, huggingface-hub < 1.0, requests).
# qwen-tts is not among them: its modeling module imports librosa (scipy alone is 88 MiB unpacked).
HF_PACKAGES = (
    "transformers",
    "tokenizers",
    "huggingface-hub",
    "requests",
    "urllib3",
    "idna",
    "certifi",
    "charset-normalizer",
)
CARRY_LIMIT = 64 << 20  # the device call's working tree, pack included


def venv_python(repo: Path, prefix: str):
    """The repository's .venv python when this process runs under another one (the system python3 has no
    numpy), else None."""
    venv = repo / ".venv"
    python = venv / "bin" / "python"
    if not python.is_file() or Path(prefix).resolve() == venv.resolve():
        return None
    return str(python)


def locked(name: str, lock_text: str):
    """(version, [sha256...]) of `name` in the hashed lock, or ValueError."""
    match = re.search(rf"^{re.escape(name)}==([^ \\\n]+)((?:\s*\\\s*--hash=sha256:[0-9a-f]+)+)", lock_text, re.M)
    if not match:
        raise ValueError(f"{name} is not pinned in {LOCK}")
    return match.group(1), re.findall(r"sha256:([0-9a-f]+)", match.group(2))


def wheel_for(name: str, version: str, folder: Path):
    stem = name.replace("-", "_")
    found = sorted(folder.glob(f"{stem}-{version}-*.whl"))
    usable = [w for w in found if "none-any" in w.name or TARGET["abi"] in w.name or "-abi3-" in w.name]
    return usable[0] if usable else None


def fetch_wheels(folder: Path, lock_text: str, names=SITE_PACKAGES):
    """The locked wheels of `names` in `folder` (downloaded with pip when absent), each hash-checked."""
    folder.mkdir(parents=True, exist_ok=True)
    wheels = []
    for name in names:
        version, hashes = locked(name, lock_text)
        wheel = wheel_for(name, version, folder)
        if wheel is None:
            platforms = [arg for p in TARGET["platforms"] for arg in ("--platform", p)]
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pip",
                    "download",
                    "--no-deps",
                    "--only-binary=:all:",
                    "--python-version",
                    TARGET["python"],
                    "--implementation",
                    "cp",
                    *platforms,
                    "-d",
                    str(folder),
                    f"{name}=={version}",
                ],
                check=True,
                stdout=subprocess.DEVNULL,
            )
            wheel = wheel_for(name, version, folder)
        if wheel is None:
            raise ValueError(f"no {name} {version} wheel for {TARGET['abi']} in {folder}")
        digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
        if digest not in hashes:
            raise ValueError(f"{wheel.name}: sha256 {digest} is not one of the lock's hashes for {name}=={version}")
        wheels.append(wheel)
    return wheels


def unpack_site(wheels, site: Path):
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(site)


def node(*args):
    subprocess.run(["node", *map(str, args)], cwd=REPO, check=True)


def list_files(root: Path):
    return [
        {"path": str(p.relative_to(root)), "bytes": p.stat().st_size} for p in sorted(root.rglob("*")) if p.is_file()
    ]


def checkout_files(root: Path = REPO):
    """GPU_FILES as (path, bytes) of every file under them, node_modules never among them."""
    files = []
    for entry in GPU_FILES:
        path = root / entry
        items = (
            [path]
            if path.is_file()
            else sorted(
                p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts and "build" not in p.parts
            )
        )
        files.extend((str(p.relative_to(root)), p.stat().st_size) for p in items)
    return files


def write_manifest(out: Path, extra):
    files = [f for f in list_files(out) if f["path"] != "manifest.json"]
    manifest = {
        "format": PACK_FORMAT,
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "commit": subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout.strip()
        or None,
        **extra,
        "bytes": sum(f["bytes"] for f in files),
        "files": files,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="scripts/gpu-pack", description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--out", default=str(REPO / ".gpu-pack"), help="pack folder (default .gpu-pack, git-ignored); replaced"
    )
    p.add_argument("--wheels", help="folder holding the locked wheels (default: pip download into OUT/../.gpu-wheels)")
    args = p.parse_args(argv)
    try:
        from tts_parity.demo.bundle import DEMO_BUNDLE_VERSION, DEMO_SEED
    except ImportError as error:
        print(
            f"gpu-pack: {error}: run it with the repository's .venv (made by `node scripts/python-env.js`)",
            file=sys.stderr,
        )
        return 2

    out = Path(args.out).resolve()
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    bundle = out / "cache" / f"demo-bundle-v{DEMO_BUNDLE_VERSION}-{DEMO_SEED}"
    node("bin/parity.js", "bundle", "build-demo", "--out", bundle)
    exporter = REPO / "dist" / "electron" / "cli" / "export-native-fixture.js"
    if not exporter.is_file():
        print(f"gpu-pack: {exporter} missing: run `npm run build` first", file=sys.stderr)
        return 2
    node(exporter, "--bundle", bundle, "--out", out / "native-fixture")
    wheel_folder = Path(args.wheels) if args.wheels else out.parent / ".gpu-wheels"
    lock_text = LOCK.read_text(encoding="utf-8")
    wheels = fetch_wheels(wheel_folder, lock_text)
    unpack_site(wheels, out / "site")
    hf_wheels = fetch_wheels(wheel_folder, lock_text, HF_PACKAGES)
    (out / "hf-wheels").mkdir()
    for wheel in hf_wheels:
        shutil.copyfile(wheel, out / "hf-wheels" / wheel.name)
    manifest = write_manifest(
        out,
        {
            "cache": "cache",
            "bundle": bundle.name,
            "native_fixture": "native-fixture",
            "site": "site",
            "wheels": [w.name for w in wheels],
            "hf_wheels": "hf-wheels",
        },
    )
    tree = sum(size for _, size in checkout_files())
    total = manifest["bytes"] + tree
    print(
        f"gpu-pack: {out}: {len(manifest['files'])} files, {manifest['bytes'] / 2**20:.1f} MiB; "
        f"the checkout files gpu-check reads {tree / 2**20:.1f} MiB; "
        f"together {total / 2**20:.1f} MiB of the {CARRY_LIMIT >> 20} MiB a device call carries"
    )
    return 0 if total < CARRY_LIMIT else 1


if __name__ == "__main__":
    sys.exit(main())
