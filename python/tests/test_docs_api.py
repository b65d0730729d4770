"""Every Python block of the Python docs compiles and calls only the current API: the blocks that run as is are run by
test_docs_examples.py, test_module_drill_docs.py and export/test_export_bundle_docs.py; the others (a real
generate(), a CUDA graph) are checked here: each method they call on a writer or recorder exists, and none is a
0.1 name (python/CHANGELOG.md)."""

import re

import pytest

from tts_parity import ModuleRecorder, StepRecorder, TraceWriter
from tts_parity.hf import HFTraceRecorder, RawScoresRecorder

from conftest import REPO_ROOT

DOCS = ["python.md", "python-modules.md", "python-export.md", "python-twin.md", "trace-format.md"]
CLASSES = (TraceWriter, StepRecorder, ModuleRecorder, HFTraceRecorder, RawScoresRecorder)
RECEIVERS = r"(?:tw|writer|recorder|rec|steps|modules|module_recorder)"
BLOCKS = [
    (doc, block)
    for doc in DOCS
    for block in re.findall(r"```python\n(.*?)```", (REPO_ROOT / "docs" / doc).read_text(encoding="utf-8"), re.S)
]


def test_the_docs_have_python_blocks():
    assert len(BLOCKS) >= 8


@pytest.mark.parametrize("doc, block", BLOCKS, ids=[f"{doc}#{i}" for i, (doc, _) in enumerate(BLOCKS)])
def test_a_block_compiles_and_calls_only_the_current_api(doc, block):
    compile(block, doc, "exec")
    for name in re.findall(rf"\b{RECEIVERS}\.(\w+)\(", block):
        assert any(hasattr(cls, name) for cls in CLASSES), f"{doc}: .{name}() is no method of the writer or recorders"
    assert not re.search(r"\b(?:tw|writer)\.step\(", block), f"{doc}: TraceWriter.step() is write_step() in 0.2"
    assert "graph_safe" not in block and "flush_step" not in block and ".static()" not in block
