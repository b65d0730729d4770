"""Qwen3-Omni's talker positions (docs/real-models.md, "Qwen3-Omni", "Export"): what the talker's 3-D (M-RoPE)
positions are when generate() runs it, and whether the bundle's 1-D `position_ids` (P .. T-1) can stand for them."""

import pytest
import torch

MAX_NEW_TOKENS = 4


def talker_positions_in_generate(parts):
    """The position_ids of every call of the talker's decoder stack (`talker.model`) in one greedy generate()."""
    seen = []
    handle = parts.talker.model.register_forward_pre_hook(
        lambda module, args, kwargs: seen.append(kwargs["position_ids"].clone()), with_kwargs=True
    )
    try:
        torch.manual_seed(0)  # the code predictor inside always samples
        with torch.no_grad():
            parts.talker.generate(
                **parts.generate_kwargs,
                max_new_tokens=MAX_NEW_TOKENS,
                do_sample=False,
                eos_token_id=65,
                pad_token_id=65,
                output_hidden_states=True,
                return_dict_in_generate=True,
            )
    finally:
        handle.remove()
    return seen


def test_talker_positions_in_generate_are_the_engines_1d_positions_in_all_three_sections(omni):
    """No image or video (text, or audio: generate() then takes get_rope_index's 1-D branch): every call's
    [3, 1, S] positions are P .. T-1 in each section, as the engine feeds position_ids."""
    prompt = omni.generate_kwargs["inputs_embeds"].shape[1]
    seen = talker_positions_in_generate(omni)
    assert len(seen) == MAX_NEW_TOKENS
    expected = [torch.arange(prompt)] + [torch.tensor([prompt + k]) for k in range(MAX_NEW_TOKENS - 1)]
    for positions, one_d in zip(seen, expected):
        assert positions.shape == (3, 1, one_d.numel())
        assert torch.equal(positions, one_d.expand(3, 1, -1).to(positions.dtype))


def test_interleaved_mrope_of_equal_sections_is_plain_rope_bit_for_bit(omni):
    """So an export may apply ordinary 1-D RoPE (inv_freq x position) to the engine's position_ids."""
    rotary = omni.talker.model.rotary_emb
    positions = torch.arange(40)[None]
    x = torch.zeros(1, 40, 1)
    cos, sin = rotary(x, positions[None].expand(3, 1, -1))
    angle = positions[..., None].float() * rotary.inv_freq.float()
    emb = torch.cat((angle, angle), dim=-1)
    assert torch.equal(cos, emb.cos() * rotary.attention_scaling)
    assert torch.equal(sin, emb.sin() * rotary.attention_scaling)


def test_an_image_in_the_prompt_gives_positions_that_1d_cannot_hold(omni):
    """With image_grid_thw (an image in the user turn) the sections differ on the image's tokens and the decode
    positions are shifted by rope_deltas: neither is a bundle's 1-D position_ids."""
    c = omni.talker.config
    ids = [1, 2, c.vision_start_token_id, *[c.image_token_id] * 4, 3, 4, 5]  # 4 tokens = 1 x 4 x 4 patches / 2^2
    positions, deltas = omni.talker.get_rope_index(
        torch.tensor([ids]), image_grid_thw=torch.tensor([[1, 4, 4]]), attention_mask=torch.ones(1, len(ids))
    )
    image = slice(3, 7)
    assert not torch.equal(positions[1, 0, image], positions[2, 0, image])  # height vs width sections
    assert torch.equal(positions[:, 0, :3], torch.arange(3).expand(3, -1).to(positions.dtype))  # text before: 1-D
    assert deltas.item() == pytest.approx(-2)  # decode positions = cache_position - 2, not P .. T-1
