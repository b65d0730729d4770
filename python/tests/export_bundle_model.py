"""A small TTS model written for the export_bundle tests, unlike the demo in every size: byte text,
a GQA talker (6 query heads over 2 KV heads, hidden 24, 3 special codec ids past EOS), a code predictor
of its own hidden size (12) behind a projection, Q = 5 codebooks of 20, 20, 20, 16 and 12 codes, and a
pitched vocoder at 22050 Hz and 21 frames/s. Written to the forward protocol of docs/python-export.md,
with tts_parity.export's write_kv / attention_allowed / repeat_kv.

`greedy_codes` and `vocode` are the PyTorch decode the engine must reproduce: the loop of
docs/bundle-format.md, "Rules the engine applies", written here from that page.
"""

import math

import numpy as np
import torch
from torch import nn

from tts_parity.export import attention_allowed, repeat_kv, write_kv

SAMPLE_RATE, HOP = 22050, 1050  # 21 frames per second
Q, CODEBOOK_SIZE, SIZES = 5, 20, [20, 20, 20, 16, 12]
EOS, BOS, VOCAB = 20, 21, 24  # codec ids 22 and 23 are special (pad, a speaker), masked by specialIds
TEXT_BOS, TEXT_ROWS = 256, 257
FRAMES_PER_CHAR, MAX_BYTES, MAX_FRAMES = 0.75, 16, 12
TALKER = {"layers": 2, "heads": 6, "kvHeads": 2, "headDim": 4, "hidden": 24, "maxPositions": 48}
CODE_PREDICTOR = {"layers": 1, "heads": 2, "kvHeads": 1, "headDim": 6, "hidden": 12, "maxPositions": Q}

CONFIG = {
    "name": "export-bundle-test",
    "description": "untrained fixed-seed weights written in python/tests/export_bundle_model.py",
    "sampleRate": SAMPLE_RATE,
    "frameRate": SAMPLE_RATE / HOP,
    "codebooks": Q,
    "codebookSize": CODEBOOK_SIZE,
    "codebookSizes": SIZES,
    "specialCodes": {"eos": EOS, "bos": BOS},
    "text": {"tokenizer": "byte", "bos": TEXT_BOS, "framesPerChar": FRAMES_PER_CHAR, "maxBytes": MAX_BYTES},
    "maxFrames": MAX_FRAMES,
    "talker": {
        **TALKER,
        "vocab": VOCAB,
        "specialIds": {"suppress": "all-except-eos", "names": {"22": "codec_pad", "23": "speaker"}},
    },
    "codePredictor": {**CODE_PREDICTOR, "projection": {"from": TALKER["hidden"], "to": CODE_PREDICTOR["hidden"]}},
    "vocoder": {"leftContextFrames": 2, "chunkFrames": 3},
}


def weights(seed):
    g = torch.Generator().manual_seed(seed)
    return lambda *shape, scale=0.3: nn.Parameter(torch.randn(*shape, generator=g) * scale)


class Decoder(nn.Module):
    """RMSNorm, RoPE, grouped-query attention and SwiGLU layers, then a final norm."""

    def __init__(self, seed, sizes, ffn, gqa="expand"):
        super().__init__()
        w = weights(seed)
        self.static_cache = False  # the protocol's flag: export_bundle sets it per export
        self.heads, self.kv_heads, self.head_dim, self.gqa = sizes["heads"], sizes["kvHeads"], sizes["headDim"], gqa
        hidden, inner, kv = sizes["hidden"], sizes["heads"] * sizes["headDim"], sizes["kvHeads"] * sizes["headDim"]
        self.layers = nn.ModuleList()
        for _ in range(sizes["layers"]):
            layer = nn.Module()
            layer.q, layer.k, layer.v, layer.o = w(hidden, inner), w(hidden, kv), w(hidden, kv), w(inner, hidden)
            layer.gate, layer.up, layer.down = w(hidden, ffn), w(hidden, ffn), w(ffn, hidden)
            self.layers.append(layer)
        self.register_buffer("inv_freq", 1.0 / (10000 ** (torch.arange(0, self.head_dim, 2).float() / self.head_dim)))

    @staticmethod
    def norm(x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)

    def rope(self, x, position_ids):
        # Angles in float32 (as transformers computes them), cos/sin in the activations' dtype: a float32
        # cos times a float16 x would promote q and k to float32 under half().
        angle = position_ids[:, None, :, None].float() * self.inv_freq.float()
        cos, sin = angle.cos().to(x.dtype), angle.sin().to(x.dtype)
        half = self.head_dim // 2
        x1, x2 = x[..., :half], x[..., half:]
        return torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], -1)

    def repeat(self, x):
        if self.gqa == "repeat_interleave":  # the natural mistake the smoke check catches
            return x.repeat_interleave(self.heads // self.kv_heads, dim=1)
        return repeat_kv(x, self.heads // self.kv_heads)

    def run_layers(self, x, attention_mask, position_ids, past):
        b, s, _ = x.shape
        allowed = attention_allowed(attention_mask, position_ids)
        presents = []
        for i, layer in enumerate(self.layers):
            h = self.norm(x)
            q = self.rope((h @ layer.q).view(b, s, self.heads, self.head_dim).transpose(1, 2), position_ids)
            k = self.rope((h @ layer.k).view(b, s, self.kv_heads, self.head_dim).transpose(1, 2), position_ids)
            v = (h @ layer.v).view(b, s, self.kv_heads, self.head_dim).transpose(1, 2)
            k = write_kv(past[2 * i], k, position_ids, self.static_cache)
            v = write_kv(past[2 * i + 1], v, position_ids, self.static_cache)
            scores = q @ self.repeat(k).transpose(-1, -2) / math.sqrt(self.head_dim)
            scores = torch.where(allowed, scores, torch.full_like(scores, torch.finfo(scores.dtype).min))
            x = x + (scores.softmax(-1) @ self.repeat(v)).transpose(1, 2).reshape(b, s, -1) @ layer.o
            h = self.norm(x)
            x = x + (nn.functional.silu(h @ layer.gate) * (h @ layer.up)) @ layer.down
            presents += [k, v]
        return self.norm(x), presents


class Talker(Decoder):
    def __init__(self, gqa="expand"):
        super().__init__(11, TALKER, ffn=40, gqa=gqa)
        self.head = weights(12)(TALKER["hidden"], VOCAB)
        with torch.no_grad():  # EOS and the special ids often lead the raw row: only the masks keep them out
            self.head[:, EOS:] *= 3

    def forward(self, inputs_embeds, attention_mask, position_ids, *past):
        hidden, presents = self.run_layers(inputs_embeds, attention_mask, position_ids, past)
        return (hidden @ self.head, hidden, *presents)


class TalkerIgnoringPositions(Talker):
    """HF's default when no position_ids are given: positions from the past length (never reads position_ids)."""

    def forward(self, inputs_embeds, attention_mask, position_ids, *past):
        start = past[0].shape[2]
        positions = torch.arange(start, start + inputs_embeds.shape[1], device=inputs_embeds.device)[None]
        return super().forward(inputs_embeds, attention_mask, positions, *past)


class CodePredictor(Decoder):
    def __init__(self):
        super().__init__(21, CODE_PREDICTOR, ffn=20)
        w = weights(22)
        self.projection = w(TALKER["hidden"], CODE_PREDICTOR["hidden"])  # small_to_mtp_projection
        self.lm_heads = w(Q - 1, CODE_PREDICTOR["hidden"], CODEBOOK_SIZE)  # head j-1 gives codebook j
        with torch.no_grad():  # logits past a smaller codebook's size often lead: only the mask keeps them out
            for j in range(1, Q):
                self.lm_heads[j - 1, :, SIZES[j] :] *= 3

    def forward(self, generation_step, inputs_embeds, attention_mask, position_ids, *past):
        hidden, presents = self.run_layers(inputs_embeds @ self.projection, attention_mask, position_ids, past)
        head = torch.index_select(self.lm_heads, 0, generation_step)[0]
        return (hidden @ head, *presents)


class Vocoder(nn.Module):
    """Code embeddings summed per frame -> pitch and loudness per frame -> a sine whose phase (cycles,
    float64) is carried across chunks, plus a little of the engine's noise."""

    def __init__(self, channels=8):
        super().__init__()
        w = weights(31)
        self.table, self.f0, self.amp = w(Q * CODEBOOK_SIZE, channels, scale=0.5), w(channels), w(channels)

    def forward(self, audio_codes, noise, phase0, context_frames):
        frames = audio_codes.shape[1]
        rows = audio_codes[0] + torch.arange(Q, device=audio_codes.device) * CODEBOOK_SIZE
        x = nn.functional.embedding(rows, self.table).sum(1)  # [F, channels]

        def per_sample(v):  # [F] -> [1, F * HOP], sizes from the tensors (no repeat_interleave)
            return v[:, None].expand(frames, HOP).reshape(1, -1)

        step = per_sample(110 + 110 * torch.sigmoid(x @ self.f0)).double() / SAMPLE_RATE
        in_context = torch.ones_like(step).cumsum(1) <= (context_frames * HOP).double()
        before = (step * in_context).sum()
        phase = phase0 + step.cumsum(1) - step - before
        audio = per_sample(0.5 * torch.sigmoid(x @ self.amp)) * torch.sin(2 * math.pi * phase).float() + 0.05 * noise
        return audio, (phase0 + step.sum() - before).reshape(1)


def embeddings(text_rows=TEXT_ROWS):
    """(text rows [257, 24], codec tables: codebook 0 [VOCAB, 24] (codes, EOS, BOS, special ids), then [size, 24])."""
    g = torch.Generator().manual_seed(41)
    text = torch.randn(text_rows, TALKER["hidden"], generator=g) * 0.5
    codec = [torch.randn(VOCAB if c == 0 else SIZES[c], TALKER["hidden"], generator=g) * 0.5 for c in range(Q)]
    return text, codec


def frame_count(text, frames_per_char=FRAMES_PER_CHAR):
    """docs/bundle-format.md, "Frame count": round half up of code points x framesPerChar, in [1, maxFrames]."""
    return min(MAX_FRAMES, max(1, math.floor(len(text) * frames_per_char + 0.5)))


def byte_prefill(text_rows, text):
    """Step 1 without a template: the rows of [text.bos, UTF-8 bytes...], [1, S, hidden]."""
    return text_rows[[TEXT_BOS, *list(text.encode("utf-8"))]][None]


def greedy_codes(talker, code_predictor, codec, prefill, frames, step_text=None):
    """The engine's greedy loop in PyTorch (eager, KV appended): frames x Q codes. `prefill`: step 1's
    rows [1, S, hidden]; `step_text(step)`: the text row added to decode step `step`'s input, if any."""
    talker.static_cache = code_predictor.static_cache = False
    empty = lambda sizes: [torch.zeros(1, sizes["kvHeads"], 0, sizes["headDim"]) for _ in range(2 * sizes["layers"])]  # noqa: E731
    x, past, codes = prefill, empty(TALKER), []
    with torch.no_grad():
        for step in range(1, frames + 1):
            if step > 1:  # audio feedback: the previous frame's Q codec rows, summed from zero in codebook order
                x = torch.zeros(1, 1, TALKER["hidden"])
                for c in range(Q):
                    x = x + codec[c][codes[-1][c]]
                if step_text is not None:
                    x = x + step_text(step)
            p, s = past[0].shape[2], x.shape[1]
            logits, hidden, *past = talker(
                x, torch.ones(1, p + s, dtype=torch.long), torch.arange(p, p + s)[None], *past
            )
            row = logits[0, -1].clone()
            row[SIZES[0] :] = -math.inf  # special ids, and EOS (masked at every step: the frame count ends the loop)
            row[EOS] = -math.inf
            frame = [int(row.argmax())]
            cp_x, cp_past = torch.stack([hidden[0, -1], codec[0][frame[0]]])[None], empty(CODE_PREDICTOR)
            for cb in range(1, Q):  # 2-position prefill with generation_step 0, then one position per codebook
                p, s = cp_past[0].shape[2], cp_x.shape[1]
                logits, *cp_past = code_predictor(
                    torch.tensor([cb - 1]),
                    cp_x,
                    torch.ones(1, p + s, dtype=torch.long),
                    torch.arange(p, p + s)[None],
                    *cp_past,
                )
                row = logits[0, -1].clone()
                row[SIZES[cb] :] = -math.inf
                frame.append(int(row.argmax()))
                cp_x = codec[cb][frame[-1]][None, None]
            codes.append(frame)
    return codes


def engine_noise(samples):
    """docs/bundle-format.md, "Noise formula": uniform [-1, 1) from the absolute sample index, uint32 arithmetic."""
    x = np.arange(samples, dtype=np.uint32) ^ np.uint32(0x5BD1E995)
    x = (x ^ (x >> np.uint32(16))) * np.uint32(0x7FEB352D)
    x = (x ^ (x >> np.uint32(15))) * np.uint32(0x846CA68B)
    x = x ^ (x >> np.uint32(16))
    return (x.astype(np.float64) / 2**31 - 1).astype(np.float32)


def vocode(vocoder, codes):
    """The full-mode vocoder call: every frame at once, context_frames 0, phase0 0."""
    noise = torch.from_numpy(engine_noise(len(codes) * HOP))[None]
    with torch.no_grad():
        audio, _ = vocoder(
            torch.tensor(codes)[None], noise, torch.zeros(1, dtype=torch.float64), torch.zeros(1, dtype=torch.long)
        )
    return audio[0].numpy()
