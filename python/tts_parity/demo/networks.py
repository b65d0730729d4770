"""The demo's networks as nn.Modules, weights from the bundle: the shared embedding table, the talker
(decoder + lm_head over codebook 0 and EOS) and the code predictor (decoder + one head per codebook
1..Q-1), as electron/engine/demo/decoder-models.ts builds them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch
from torch import nn

from .architecture import RMS_EPS
from .layers import DecoderStack

if TYPE_CHECKING:
    from .bundle import Manifest
    from .weights import BundleWeights


__all__ = ["AudioFeedback", "CodePredictor", "CodecEmbedding", "Talker"]


class CodecEmbedding(nn.Module):
    """The shared table of embed.onnx: text rows (bytes, then BOS) and Q codec tables of
    (codebookSize + 2) rows each (codes, EOS, BOS). Step-specific code-predictor embeddings and the
    talker's audio feedback both read the codec part."""

    def __init__(self, w: BundleWeights, m: Manifest):
        super().__init__()
        text = w.tensor("embed", "text_embedding.weight")
        codec = w.tensor("embed", "codec_embedding.weight")
        self.text_embedding = nn.Embedding.from_pretrained(text, freeze=True)
        self.codec_embedding = nn.Embedding.from_pretrained(codec, freeze=True)
        self.rows_per_codebook = m.codec_rows_per_codebook

    def text(self, ids: torch.Tensor) -> torch.Tensor:
        """ids [S] -> [1, S, hidden]"""
        return self.text_embedding(ids)[None]

    def code(self, codebook: int, code: torch.Tensor) -> torch.Tensor:
        """code: int64 tensor of shape [] -> [1, 1, hidden] (that codebook's own table)."""
        return self.codec_embedding(code.reshape(1) + codebook * self.rows_per_codebook)[None]


class AudioFeedback(nn.Module):
    """The talker's input at a decode step: the sum, in codebook order, of the previous frame's Q codec
    embeddings; codes [Q] -> [1, 1, hidden]. Added one row after another, as the engine's
    EmbeddingTable.feedback, so the float32 sum rounds the same. A module of its own (`feedback`), so
    module recording sees what the talker was fed (fault stale-feedback shows here first)."""

    def __init__(self, embed: CodecEmbedding, codebooks: int):
        super().__init__()
        self.codec_embedding = embed.codec_embedding  # shared with `embed`, not a copy
        self.register_buffer("codebook_rows", torch.arange(codebooks) * embed.rows_per_codebook)

    def forward(self, codes: torch.Tensor) -> torch.Tensor:
        rows = self.codec_embedding(codes + self.codebook_rows)
        total = rows[0]
        for q in range(1, rows.shape[0]):
            total = total + rows[q]
        return total.reshape(1, 1, -1)


class Talker(DecoderStack):
    def __init__(self, w: BundleWeights, m: Manifest):
        super().__init__(w, "talker", m.talker, RMS_EPS)
        self.lm_head = nn.Linear(m.talker.hidden, m.talker_vocab, bias=False)
        with torch.no_grad():
            self.lm_head.weight.copy_(w.tensor("talker", "lm_head.weight", transpose=True))

    def forward(self, embeds, cache, positions, allowed):
        """-> logits [1, S, vocab], final-normed hidden [1, S, hidden]"""
        hidden = self.decode(embeds, cache, positions, allowed)
        return self.lm_head(hidden), hidden


class CodePredictor(DecoderStack):
    def __init__(self, w: BundleWeights, m: Manifest):
        super().__init__(w, "code_predictor", m.code_predictor, RMS_EPS)
        heads = w.tensor("code_predictor", "lm_heads.weight")  # [Q-1, hidden, codebookSize]
        self.lm_heads = nn.ModuleList(
            nn.Linear(heads.shape[1], heads.shape[2], bias=False) for _ in range(heads.shape[0])
        )
        with torch.no_grad():
            for j, head in enumerate(self.lm_heads):
                head.weight.copy_(heads[j].T.contiguous())

    def forward(self, embeds, cache, positions, allowed, head: int):
        """-> logits [1, S, codebookSize] through head `head` (codebook head + 1)"""
        return self.lm_heads[head](self.decode(embeds, cache, positions, allowed))
