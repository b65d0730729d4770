"""The demo vocoder, as electron/engine/demo/vocoder-graph.ts builds it: code embeddings summed over
the Q codebooks -> causal conv stack (x + silu(conv(x))) -> 1x1 head giving per frame f0, K harmonic
amplitudes, a harmonic gain and a noise gain -> harmonic-plus-noise synthesis (values interpolated
linearly across each frame's hop, oscillator phase by cumulative sum: float32 within a frame,
float64 across frames) plus the engine's deterministic noise (noise.py).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from .architecture import F0_MIN, F0_RANGE, HARMONIC_GAIN, NOISE_GAIN

if TYPE_CHECKING:
    from .bundle import Manifest
    from .weights import BundleWeights


__all__ = ["CausalConv", "HarmonicPlusNoise", "Vocoder"]


def _serial_sum(terms):
    """Σ terms left to right, one float add at a time: the engine's loop order (native/src/vocoder-kernels.cuh,
    the ONNX graph's Add chain), on any device. torch's own sum/cumsum/conv reorder the adds (CUDA reduces in
    trees; cuDNN convolutions run in TF32 by default), which on CUDA moved the twin's audio 0.02 from the engine."""
    acc = None
    for t in terms:
        acc = t if acc is None else acc + t
    return acc


class CausalConv(nn.Module):
    """Causal conv (left pad k-1) + bias, x + silu(y): the sum over input channels, then taps, in the engine's
    order, written as broadcast multiply-adds (no cuDNN: its float32 convolutions default to TF32 on CUDA)."""

    def __init__(self, channels: int, kernel: int):
        super().__init__()
        self.conv = nn.Conv1d(channels, channels, kernel)
        self.kernel = kernel

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        k = self.kernel
        frames = x.shape[2]
        xt = F.pad(x[0], (k - 1, 0)).T  # [F + k - 1, C]
        w, bias = self.conv.weight, self.conv.bias  # [C_out, C_in, k], [C_out]
        assert bias is not None  # nn.Conv1d(..., bias=True), loaded from the bundle
        terms = (w[:, c, j][None, :] * xt[j : j + frames, c][:, None] for c in range(w.shape[1]) for j in range(k))
        y = _serial_sum(terms) + bias[None, :]  # [F, C_out]
        return x + (y * torch.sigmoid(y)).T[None]


class HarmonicPlusNoise(nn.Module):
    """per_frame [F, 3 + K] -> audio [F·hop]; phases in cycles. Every sum as the engine does it
    (native/src/vocoder-kernels.cuh VocFrameParamsK, VocFramePhaseK, VocPhaseScanK, VocSynthK): softmax as
    max / serial Σexp / divide, the in-frame phase a serial float32 running sum, each frame's total the float64
    sum of its float32 increments rounded to float32, the frame scan in float64 on the host, the harmonics
    added k = 0, 1, ... in float32."""

    def __init__(self, w: BundleWeights, m: Manifest):
        super().__init__()
        self.hop = m.hop_length
        self.register_buffer("ramp", w.tensor("vocoder", f"const.ramp_{m.hop_length}").reshape(-1))
        self.register_buffer("rolloff", w.tensor("vocoder", "const.rolloff"))
        self.register_buffer("omega", w.tensor("vocoder", "const.omega"))
        self.inv_rate = float(torch.tensor(1 / m.sample_rate, dtype=torch.float32))
        self.harmonics = self.omega.shape[0]

    def _lerp(self, t: torch.Tensor) -> torch.Tensor:
        """From the previous frame's value to this frame's across the hop: [F, n] -> [F, hop, n]."""
        prev = torch.cat([t[:1], t[:-1]], dim=0)
        return prev[:, None, :] + (t - prev)[:, None, :] * self.ramp[None, :, None]

    def _amplitudes(self, per_frame):
        K = self.harmonics
        logits = per_frame[:, 1 : 1 + K] + self.rolloff  # [F, K]
        m = logits.max(dim=1, keepdim=True).values
        exps = torch.exp(logits - m)
        total = _serial_sum(exps[:, k : k + 1] for k in range(K))
        gain = torch.sigmoid(per_frame[:, 1 + K : 2 + K]) * HARMONIC_GAIN
        return (exps / total) * gain

    def _phases(self, f0):
        """(within [F, hop] float32 exclusive running sums, totals: list of F float64 frame totals)."""
        inc = (self._lerp(f0)[..., 0] * self.inv_rate).cpu().numpy()  # [F, hop] cycles per sample, float32
        # numpy's add.accumulate runs in the array's dtype, one element after another: the serial float32 sum
        running = np.cumsum(inc, axis=1, dtype=np.float32)
        within = np.concatenate([np.zeros_like(running[:, :1]), running[:, :-1]], axis=1)
        totals = np.cumsum(inc.astype(np.float64), axis=1)[:, -1].astype(np.float32).astype(np.float64)
        return torch.from_numpy(within).to(f0.device), totals.tolist()

    def forward(self, per_frame, noise, phase0: float, context: int):
        K = self.harmonics
        f0 = F0_MIN + torch.sigmoid(per_frame[:, 0:1]) * F0_RANGE
        amps = self._amplitudes(per_frame)
        noise_gain = torch.sigmoid(per_frame[:, 2 + K : 3 + K]) * NOISE_GAIN
        within, totals = self._phases(f0)
        base = 0.0
        for f in range(context):
            base += totals[f]
        run, offsets = 0.0, []
        for total in totals:
            t = run + phase0 - base
            offsets.append(t - math.floor(t))
            run += total
        t = run + phase0 - base
        end_phase = t - math.floor(t)
        phase = torch.tensor(offsets, dtype=torch.float32, device=within.device)[:, None] + within  # [F, hop]
        lerped = self._lerp(amps).permute(2, 0, 1).contiguous()  # [K, F, hop]
        harmonic = _serial_sum(torch.sin(phase * self.omega[k]) * lerped[k] for k in range(K))
        noisy = noise.reshape(-1, self.hop) * self._lerp(noise_gain)[..., 0]
        return (harmonic + noisy).reshape(-1), float(end_phase)


class Vocoder(nn.Module):
    def __init__(self, w: BundleWeights, m: Manifest):
        super().__init__()
        table = w.tensor("vocoder", "codec_embedding.weight")
        self.codec_embedding = nn.Embedding.from_pretrained(table, freeze=True)
        self.register_buffer("codebook_rows", torch.arange(m.codebooks) * (m.codebook_size + 2))
        layers = sorted({int(n.split(".")[1]) for n in w.networks["vocoder"] if n.startswith("convs.")})
        kernel = w.array("vocoder", "convs.0.weight").shape[2] if layers else 1
        channels = table.shape[1]
        self.convs = nn.ModuleList(CausalConv(channels, kernel) for _ in layers)
        head_w = w.tensor("vocoder", "head.weight")
        self.head = nn.Conv1d(channels, head_w.shape[0], 1)
        with torch.no_grad():
            for i, conv in enumerate(self.convs):
                conv.conv.weight.copy_(w.tensor("vocoder", f"convs.{i}.weight"))
                conv.conv.bias.copy_(w.tensor("vocoder", f"convs.{i}.bias"))
            self.head.weight.copy_(head_w)
            self.head.bias.copy_(w.tensor("vocoder", "head.bias"))
        self.synth = HarmonicPlusNoise(w, m)

    def forward(self, codes: torch.Tensor, noise: torch.Tensor, phase0: float = 0.0, context: int = 0):
        """codes [F, Q] int64, noise [F·hop] -> (audio of frames [context, F) [.·hop], end phase in cycles)"""
        rows = self.codec_embedding(codes + self.codebook_rows)  # [F, Q, C]
        x = _serial_sum(rows[:, q] for q in range(rows.shape[1]))  # [F, C], codebooks added in order
        x = x.T[None]  # [1, C, F]
        for conv in self.convs:
            x = conv(x)
        xt = x[0].T  # [F, C]
        hw = self.head.weight[:, :, 0]  # [3 + K, C]
        per_frame = (
            _serial_sum(hw[:, c][None, :] * xt[:, c : c + 1] for c in range(hw.shape[1])) + self.head.bias
        )  # [F, 3 + K]
        audio, end_phase = self.synth(per_frame, noise, phase0, context)
        return audio[context * self.synth.hop :], end_phase
