"""A tiny talker + code-predictor decode step in torch, for the recorder tests and the overhead benchmark:
the shape of a Qwen3-TTS step (raw talker row -> code 0; q−1 code-predictor rows -> codes 1..q−1; the
frame's codes fed back), with its state in static tensors updated in place, as a CUDA-graph step needs."""

import torch
from torch.nn.functional import embedding as embed


class TinyDecoder(torch.nn.Module):
    def __init__(self, vocab=64, cp_vocab=32, q=4, dim=16, seed=0):
        super().__init__()
        generator = torch.Generator().manual_seed(seed)
        self.q = q
        self.embed = torch.nn.Parameter(torch.randn(vocab, dim, generator=generator))
        self.cp_embed = torch.nn.Parameter(torch.randn(cp_vocab, dim, generator=generator))
        self.w1 = torch.nn.Parameter(torch.randn(dim, dim, generator=generator) / dim**0.5)
        self.head = torch.nn.Parameter(torch.randn(dim, vocab, generator=generator))
        self.cp_heads = torch.nn.Parameter(torch.randn(q - 1, dim, cp_vocab, generator=generator))

    @torch.no_grad()
    def step(self, feedback, state):
        """Reads the static `feedback` codes (q,) and `state` (dim,), updates both in place, returns
        (talker logits [vocab], codes [q], code-predictor rows [q−1, cp_vocab], hidden [dim])."""
        # F.embedding with index tensors, not x[tensor]: a 0-dim index may become a host int (a sync, which
        # capture refuses).
        x = (
            embed(feedback[:1] % self.embed.shape[0], self.embed)[0]
            + embed(feedback[1:] % self.cp_embed.shape[0], self.cp_embed).sum(0)
            + state
        )
        hidden = torch.tanh(x @ self.w1)
        logits = hidden @ self.head
        codes = [logits.argmax()]
        rows = []
        z = hidden
        for c in range(self.q - 1):
            row = z @ self.cp_heads[c]
            rows.append(row)
            codes.append(row.argmax())
            z = torch.tanh(z + embed(codes[-1].reshape(1), self.cp_embed)[0])
        codes = torch.stack(codes)
        feedback.copy_(codes)
        state.copy_(hidden)
        return logits, codes, torch.stack(rows), hidden

    def initial_state(self, device="cpu"):
        return torch.zeros(self.q, dtype=torch.long, device=device), torch.zeros(self.w1.shape[0], device=device)
