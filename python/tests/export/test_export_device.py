"""Every tensor a forward makes must follow the module's device: on a GPU machine a `torch.arange(Q)` in the
vocoder's forward met CUDA codes ("Expected all tensors to be on the same device ... cuda:0 and cpu",
scripts/gpu-check's fp16-export). Shown here without a GPU: each forward runs with torch's default device set
to "meta", so a tensor made without `device=` lands on meta and the forward fails against the CPU inputs and
weights; one made from its inputs' device (or `*_like`) is unaffected. On CUDA itself this is confirmed only
by gpu-check's fp16-export step."""

import functools

import pytest
import torch

from tts_parity.examples.dia_export import _key_mask
from tts_parity.examples.hf_flat_cache import additive_mask
from tts_parity.export import export_bundle

import export_bundle_model as model


def forward_with_meta_default(module):
    """module.forward run with "meta" as the default device for tensors made without one."""
    inner = module.forward

    @functools.wraps(inner)
    def forward(*args):
        with torch.device("meta"):
            return inner(*args)

    module.forward = forward
    return module


def test_a_forward_making_a_tensor_without_its_inputs_device_fails_under_the_meta_default():
    class FixedDevice(torch.nn.Module):
        def forward(self, x):
            return x + torch.arange(x.shape[-1])

    with pytest.raises(RuntimeError, match="meta"):
        forward_with_meta_default(FixedDevice())(torch.ones(3))


def test_export_bundle_of_the_test_model_makes_every_tensor_on_the_modules_device(tmp_path):
    talker, code_predictor, vocoder = (
        forward_with_meta_default(m) for m in (model.Talker(), model.CodePredictor(), model.Vocoder())
    )
    text_rows, codec = model.embeddings()
    exported = export_bundle(
        tmp_path / "bundle",
        talker=talker,
        code_predictor=code_predictor,
        vocoder=vocoder,
        text_embeddings=text_rows,
        codec_embeddings=codec,
        config=model.CONFIG,
        smoke=False,
    )
    assert sorted(p.name for p in exported.path.glob("vocoder.*.onnx")) == ["vocoder.fp32.onnx"]


def test_positions_from_the_past_length_follow_the_inputs_device():
    talker = forward_with_meta_default(model.TalkerIgnoringPositions())
    sizes = model.TALKER
    past = [torch.zeros(1, sizes["kvHeads"], 2, sizes["headDim"]) for _ in range(2 * sizes["layers"])]
    logits = talker(torch.zeros(1, 1, sizes["hidden"]), torch.ones(1, 3, dtype=torch.long), None, *past)[0]
    assert logits.device.type == "cpu"


def test_the_example_adapters_masks_follow_the_mask_device():
    mask, positions = torch.ones(1, 3, dtype=torch.long), torch.arange(3)[None]
    with torch.device("meta"):
        assert additive_mask(mask, positions, torch.float32).device.type == "cpu"
        assert _key_mask(mask, 2, torch.float32).device.type == "cpu"
