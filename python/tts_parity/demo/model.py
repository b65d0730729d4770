"""The twin as one nn.Module tree: `embed`, `feedback`, `talker`, `code_predictor`, `vocoder`. Submodule names are what
module recording matches by regex: `talker.layers.0.self_attn`, `talker.layers.0.mlp`,
`code_predictor.layers.1.mlp`, `code_predictor.lm_heads.3`, `vocoder.convs.2`, `vocoder.synth`, ..."""

from __future__ import annotations

from pathlib import Path

from torch import nn

from .bundle import Manifest, read_manifest
from .networks import AudioFeedback, CodecEmbedding, CodePredictor, Talker
from .vocoder import Vocoder
from .weights import BundleWeights

__all__ = ["DemoTwin", "load_twin"]


class DemoTwin(nn.Module):
    def __init__(self, manifest: Manifest, weights: BundleWeights):
        super().__init__()
        self.manifest = manifest
        self.embed = CodecEmbedding(weights, manifest)
        self.feedback = AudioFeedback(self.embed, manifest.codebooks)
        self.talker = Talker(weights, manifest)
        self.code_predictor = CodePredictor(weights, manifest)
        self.vocoder = Vocoder(weights, manifest)


def load_twin(folder: Path, device="cpu") -> DemoTwin:
    """The twin of the bundle in `folder`, weights from its fp32 ONNX initializers, in eval mode on `device`."""
    manifest = read_manifest(Path(folder))
    twin = DemoTwin(manifest, BundleWeights(manifest))
    return twin.eval().to(device)
