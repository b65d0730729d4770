"""Seed 001 reproduced from its text: Higgs-Audio-v3's talker crashed at CUDA-graph capture on two lines of
HiggsAudioV3Talker._decode_request_token_positions (docs/capture-check.md#seed-001).

The two quoted lines are kept as the seed shows them; the tensors stand for the per-request metadata of a
decode batch (every request decodes one token: spans == 1, starts = its token's row in the batch).
"""

import torch


def decode_request_token_positions(spans, starts, req_rows, num_tokens):
    """As quoted in seed 001: filter the requests to those decoding one token inside the batch."""
    decode_mask = (spans == 1) & (starts >= 0) & (starts < int(num_tokens))  # capture-check: host-sync
    return req_rows[decode_mask], starts[decode_mask]  # capture-check: data-dependent-shape


def decode_request_token_positions_fixed(spans, starts, req_rows, num_tokens, use_external_decode_cudagraph=True):
    """Seed 001's own fix: under the external decode CUDA graph the batch is always a uniform single-token
    decode (every span == 1), so the mask is all-True and the filtered result equals the unfiltered tensors:
    return those (static shapes, no sync). The eager path is unchanged."""
    if use_external_decode_cudagraph:
        return req_rows, starts
    return decode_request_token_positions(spans, starts, req_rows, num_tokens)


def step_inputs(device="cpu"):
    """Decode steps 2 and 3 of a uniform batch of three requests, one token each."""
    batch = [torch.ones(3, dtype=torch.long), torch.arange(3), torch.arange(3), torch.tensor(3)]
    return [tuple(t.to(device) for t in batch), tuple(t.clone().to(device) for t in batch)]
