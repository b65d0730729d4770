"""The embedding table as bundle.json's `embed.table`: one safetensors tensor [rows, talker.hidden] that
the engine reads by rows (docs/bundle-format.md, "embed (embed.table)")."""

from __future__ import annotations

import numpy as np
import torch

from ..errors import ExportError
from ..safetensors_io import write_safetensors

__all__ = ["TABLE_FILE", "TABLE_TENSOR", "embed_table", "write_embed_table"]


TABLE_FILE = {"float32": "embed.fp32.safetensors", "float16": "embed.fp16.safetensors"}
TABLE_TENSOR = "embed_tokens.weight"


def _rows(value, what):
    array = (
        value.detach().to("cpu", torch.float32).numpy()
        if isinstance(value, torch.Tensor)
        else np.asarray(value, dtype=np.float32)
    )
    if array.ndim != 2:
        raise ExportError(f"{what}: expected a [rows, hidden] table, found shape {list(array.shape)}")
    bad = ~np.isfinite(array)
    if bad.any():
        row = int(np.argwhere(bad)[0][0])
        raise ExportError(
            f"{what}: {int(bad.sum())} of {array.size} values are NaN or infinite (the first in row {row}); the engine "
            "adds these rows to the talker's inputs_embeds, so every output would be NaN"
        )
    return array


def embed_table(text_embeddings, codec_embeddings, codebooks, hidden):
    """(table [rows, hidden] float32, codecRowOffset, codecRowsPerCodebook): the text rows, then each
    codebook's rows padded with zero rows to the longest codebook's count (rows no code reaches)."""
    text = _rows(text_embeddings, "text_embeddings")
    codec = [_rows(t, f"codec_embeddings[{c}]") for c, t in enumerate(codec_embeddings)]
    if len(codec) != codebooks:
        raise ExportError(
            f"codec_embeddings: {len(codec)} tables, but config codebooks = {codebooks} (one table per codebook)"
        )
    for what, array in [("text_embeddings", text)] + [(f"codec_embeddings[{c}]", a) for c, a in enumerate(codec)]:
        if array.shape[1] != hidden:
            raise ExportError(
                f"{what}: rows of {array.shape[1]} values, but config talker.hidden = {hidden} (the engine adds them "
                "to the talker's inputs_embeds)"
            )
    per_codebook = max(a.shape[0] for a in codec)
    blocks = [text] + [np.concatenate([a, np.zeros((per_codebook - a.shape[0], hidden), np.float32)]) for a in codec]
    return np.concatenate(blocks), text.shape[0], per_codebook


def write_embed_table(out_dir, table, offset, per_codebook, dtype):
    """Writes the table file (dtype "float32" or "float16") and returns bundle.json's `embed` section."""
    file = TABLE_FILE[dtype]
    # The folder was checked (empty, or overwrite=True) before anything was written: its files are ours to replace.
    write_safetensors(
        {TABLE_TENSOR: table.astype(np.float16 if dtype == "float16" else np.float32)}, out_dir / file, force=True
    )
    return {
        "codecRowOffset": int(offset),
        "codecRowsPerCodebook": int(per_codebook),
        "table": {
            "file": file,
            "format": "safetensors",
            "dtype": dtype,
            "rows": int(table.shape[0]),
            "tensor": TABLE_TENSOR,
        },
    }
