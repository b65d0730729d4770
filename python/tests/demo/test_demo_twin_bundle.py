"""The twin finds the demo bundle where the TypeScript engine builds it: DEMO_BUNDLE_VERSION and DEMO_SEED equal the
TypeScript constants (tts_parity/demo/bundle.py's docstring says this test keeps them from drifting apart)."""

import re

from tts_parity.demo.bundle import DEMO_BUNDLE_VERSION, DEMO_SEED

from conftest import REPO_ROOT


def _ts_constant(relative, name):
    text = (REPO_ROOT / relative).read_text(encoding="utf-8")
    return int(re.search(rf"export const {name} = (\d+);", text).group(1))


def test_the_demo_bundle_version_and_seed_are_the_typescript_ones():
    assert _ts_constant("electron/engine/demo/resolve-demo-bundle.ts", "DEMO_BUNDLE_VERSION") == DEMO_BUNDLE_VERSION
    assert _ts_constant("electron/engine/demo/demo-config.ts", "DEMO_SEED") == DEMO_SEED
