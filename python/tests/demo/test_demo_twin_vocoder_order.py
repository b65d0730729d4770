"""The twin's vocoder adds in the engine's order on any device (docs/python-twin.md, "Vocoder arithmetic"):
the in-frame phase is a serial float32 running sum and each frame total the float64 sum of its float32
increments rounded to float32 (native/src/vocoder-kernels.cuh VocFramePhaseK), checked bit for bit against a
loop written here; and no torch op whose order or precision depends on the device (cuDNN convolutions are
TF32 on CUDA by default; CUDA sums and scans reduce in trees) runs inside the vocoder."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F


def serial_phases(inc):
    """The engine's loop (VocFramePhaseK), scalar by scalar."""
    within = np.zeros_like(inc)
    totals = []
    for f in range(inc.shape[0]):
        acc, total = np.float32(0), 0.0
        for i in range(inc.shape[1]):
            within[f, i] = acc
            acc = np.float32(acc + inc[f, i])
            total += float(inc[f, i])
        totals.append(float(np.float32(total)))
    return within, totals


def test_phases_are_the_engine_s_serial_float32_sums_bit_for_bit(twin):
    synth = twin.vocoder.synth
    f0 = torch.tensor([[100.0], [249.9], [173.3], [100.0], [212.5]], dtype=torch.float32)
    within, totals = synth._phases(f0)
    inc = (synth._lerp(f0)[..., 0] * synth.inv_rate).numpy()
    want_within, want_totals = serial_phases(inc)
    assert within.dtype == torch.float32 and np.array_equal(within.numpy(), want_within)
    assert totals == want_totals
    # torch's CPU cumsum accumulates float32 in float64: a different answer, which is why the twin does not use it
    torch_within = torch.cumsum(torch.from_numpy(inc), 1).numpy()
    assert not np.array_equal(torch_within[:, :-1], want_within[:, 1:])


def test_no_device_dependent_op_runs_in_the_vocoder(twin, monkeypatch):
    vocoder = twin.vocoder
    codes = torch.randint(0, 100, (6, 8))
    noise = torch.rand(6 * vocoder.synth.hop) * 2 - 1
    with torch.no_grad():
        before = vocoder(codes, noise, 0.25, 2)

    def refused(name):
        def call(*args, **kwargs):
            raise AssertionError(f"{name} ran inside the twin's vocoder")

        return call

    monkeypatch.setattr(F, "conv1d", refused("conv1d"))
    monkeypatch.setattr(torch, "cumsum", refused("torch.cumsum"))
    monkeypatch.setattr(torch.Tensor, "cumsum", refused("Tensor.cumsum"))
    monkeypatch.setattr(torch.Tensor, "sum", refused("Tensor.sum"))
    monkeypatch.setattr(torch, "softmax", refused("torch.softmax"))
    with torch.no_grad():
        after = vocoder(codes, noise, 0.25, 2)
    assert torch.equal(before[0], after[0]) and before[1] == after[1]
    with pytest.raises(AssertionError, match="conv1d ran inside"):  # the patch does bite
        F.conv1d(torch.zeros(1, 1, 3), torch.zeros(1, 1, 1))
