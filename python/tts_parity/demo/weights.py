"""The demo bundle's weights, read from its ONNX initializers (onnx.numpy_helper; where the onnx package is
missing, onnx_initializers.py reads the same protobuf fields), as float32 torch tensors.

The eager fp32 exports are read: the graph exports hold the same initializers under the same names
(electron/engine/demo/static-decoder.ts), so either gives the same twin.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import torch

from ..errors import ParityValueError
from .architecture import REQUIRED_CONSTANTS
from .onnx_initializers import read_initializers_without_onnx

if TYPE_CHECKING:
    from pathlib import Path

    from .bundle import Manifest

try:
    import onnx
    from onnx import numpy_helper
except ImportError:  # e.g. a GPU machine with PyTorch only
    onnx = None  # type: ignore[assignment]


__all__ = ["BundleWeights", "read_initializers"]


def read_initializers(path: Path) -> dict:
    """Every initializer of one ONNX file, name -> numpy array."""
    try:
        if onnx is None:
            return read_initializers_without_onnx(path)
        model = onnx.load(str(path))
    except Exception as error:  # DecodeError, OSError, ValueError... depending on what is wrong
        raise ParityValueError(f"{path}: not a readable ONNX model ({type(error).__name__}: {error})") from None
    return {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}


class BundleWeights:
    """Initializers per network (embed, talker, code_predictor, vocoder), checked for the twin's constants."""

    def __init__(self, manifest: Manifest):
        self.networks = {net: read_initializers(manifest.folder / file) for net, file in manifest.files.items()}
        for net, names in REQUIRED_CONSTANTS.items():
            missing = [n for n in names if n not in self.networks[net]]
            if missing:
                raise ParityValueError(
                    f"{manifest.folder / manifest.files[net]}: constant {missing[0]} not found; "
                    "the twin re-implements the demo architecture's fixed constants (tts_parity/demo/architecture.py) "
                    "and this export was built with others"
                )

    def array(self, network: str, name: str) -> np.ndarray:
        table = self.networks[network]
        if name not in table:
            raise ParityValueError(f"{network}: initializer {name!r} not found in the bundle's ONNX file")
        return table[name]

    def tensor(self, network: str, name: str, transpose: bool = False) -> torch.Tensor:
        """float32 tensor; transpose=True turns an ONNX MatMul weight [in, out] into nn.Linear's [out, in]."""
        a = self.array(network, name).astype(np.float32)
        if transpose:
            a = a.T
        return torch.from_numpy(np.ascontiguousarray(a))
