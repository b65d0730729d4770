"""A sidecar ModuleRecorder writes is read by the TypeScript reader with the same keys, order, shapes and
float32 bits (NaN, ±Infinity, −0 and a subnormal included): the two sides agree on the format."""

import json

import numpy as np
import torch

from tts_parity.module_recorder import ModuleRecorder

from conftest import PYTHON_DIR
from parity_cli import run_node_module

SPECIAL = torch.tensor([[float("nan"), float("inf"), -float("inf"), -0.0, 1e-45, 3.4e38]], dtype=torch.float32)


class Emit(torch.nn.Module):
    def forward(self, x):
        return x


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.special = Emit()
        self.fp16 = Emit()
        self.scalar = Emit()

    def forward(self, x):
        self.special(SPECIAL)
        self.fp16(x.half())  # converted to float32 exactly
        self.scalar(x.sum())
        return self.special(x)  # a second call of one module in the step


def test_typescript_reads_what_python_wrote(tmp_path):
    path = tmp_path / "s.modules.safetensors"
    x = torch.arange(6, dtype=torch.float32).reshape(2, 3) / 7
    net = Net()
    with ModuleRecorder(net, path, modules=".", steps=(1, 12)) as rec:
        for step in range(1, 13):  # every step is entered; steps= keeps 1 and 12
            with rec.step(step):
                net(x)
    read = json.loads(run_node_module(PYTHON_DIR / "tests" / "read_sidecar_ts.mjs", path))
    expected = [(s, i, n) for s in (1, 12) for i, n in enumerate(["special", "fp16", "scalar", "special"])]
    assert [(e["step"], e["seq"], e["name"]) for e in read] == expected
    assert [e["shape"] for e in read[:4]] == [[1, 6], [2, 3], [], [2, 3]]
    bits = lambda t: t.detach().float().numpy().reshape(-1).view(np.uint32).tolist()  # noqa: E731
    assert read[0]["bits"] == bits(SPECIAL)
    assert read[1]["bits"] == bits(x.half())
    assert read[2]["bits"] == bits(x.sum())
    assert read[3]["bits"] == bits(x)
