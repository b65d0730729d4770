"""The demo vocoder, as electron/engine/demo/vocoder-graph.ts builds it: code embeddings summed over
the Q codebooks -> causal conv stack (x + silu(conv(x))) -> 1x1 head giving per frame f0, K harmonic
amplitudes, a harmonic gain and a noise gain -> harmonic-plus-noise synthesis (values interpolated
linearly across each frame's hop, oscillator phase by cumulative sum: float32 within a frame,
float64 across frames) plus the engine's deterministic noise (noise.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch
import torch.nn.functional as F
from torch import nn

from .architecture import F0_MIN, F0_RANGE, HARMONIC_GAIN, NOISE_GAIN

if TYPE_CHECKING:
    from .bundle import Manifest
    from .weights import BundleWeights


__all__ = ["CausalConv", "HarmonicPlusNoise", "Vocoder"]


class CausalConv(nn.Module):
    def __init__(self, channels: int, kernel: int):
        super().__init__()
        self.conv = nn.Conv1d(channels, channels, kernel)
        self.kernel = kernel

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.conv(F.pad(x, (self.kernel - 1, 0)))
        return x + y * torch.sigmoid(y)


def _exclusive_cumsum(x: torch.Tensor, dim: int) -> torch.Tensor:
    inclusive = torch.cumsum(x, dim=dim)
    return torch.cat(
        [torch.zeros_like(inclusive.narrow(dim, 0, 1)), inclusive.narrow(dim, 0, x.shape[dim] - 1)], dim=dim
    )


class HarmonicPlusNoise(nn.Module):
    """per_frame [F, 3 + K] -> audio [F·hop]; phases in cycles."""

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

    def forward(self, per_frame, noise, phase0: float, context: int):
        K = self.harmonics
        f0 = F0_MIN + torch.sigmoid(per_frame[:, 0:1]) * F0_RANGE
        gain = torch.sigmoid(per_frame[:, 1 + K : 2 + K]) * HARMONIC_GAIN
        amps = torch.softmax(per_frame[:, 1 : 1 + K] + self.rolloff, dim=1) * gain
        noise_gain = torch.sigmoid(per_frame[:, 2 + K : 3 + K]) * NOISE_GAIN
        inc = self._lerp(f0)[..., 0] * self.inv_rate  # [F, hop] cycles per sample
        within = _exclusive_cumsum(inc, 1)
        totals = inc.sum(1).double()
        excl, incl = _exclusive_cumsum(totals, 0), torch.cumsum(totals, 0)
        base = excl[context]
        offsets = torch.frac(excl + phase0 - base)
        end_phase = torch.frac(incl[-1] + phase0 - base)
        phase = offsets.float()[:, None] + within
        harmonic = (torch.sin(phase[:, :, None] * self.omega) * self._lerp(amps)).sum(2)
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
        x = self.codec_embedding(codes + self.codebook_rows).sum(1)  # [F, C]
        x = x.T[None]  # [1, C, F]
        for conv in self.convs:
            x = conv(x)
        per_frame = self.head(x)[0].T  # [F, 3 + K]
        audio, end_phase = self.synth(per_frame, noise, phase0, context)
        return audio[context * self.synth.hop :], end_phase
