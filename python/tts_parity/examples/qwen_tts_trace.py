"""Tracing qwen-tts's real Qwen3-TTS through its own `generate()` (docs/real-models-qwen3-tts.md): the raw rows
of the talker's `codec_head` and of the code predictor's `lm_head[i]` (forward hooks: they see the rows before
generate()'s suppression mask, repetition penalty, min_new_tokens, temperature and top-k/p), paired with the
frames' codes into one `tts-parity-trace/1` with Q−1 code-predictor rows per step; optionally the code
predictor's module outputs, by their real names, into a sidecar, one sidecar step per frame.

Every call into `tts_parity`'s recorder API is in `trace_generate` below, so a rename touches one function.
An example, never imported by `tts_parity`.
"""

from __future__ import annotations

import contextlib
import os

import torch

from tts_parity import ModuleRecorder, TraceWriter
from tts_parity.hf import HFTraceRecorder
from tts_parity.module_recorder import sidecar_path_for

__all__ = ["CODE_PREDICTOR_MODULES", "FRAME_RATE", "SAMPLE_RATE", "generate_codes_of", "static_cache", "trace_generate"]

FRAME_RATE, SAMPLE_RATE = 12.5, 24000  # the 12 Hz tokenizer: 1920 samples per frame at 24 kHz
# The code predictor's modules in execution order, by their names in Qwen3TTSForConditionalGeneration.
CODE_PREDICTOR_MODULES = (
    r"^talker\.code_predictor\.(small_to_mtp_projection|model\.(codec_embedding\.\d+|rotary_emb"
    r"|layers\.\d+\.(self_attn|mlp)|norm)|lm_head\.\d+)$"
)


@contextlib.contextmanager
def static_cache(model):
    """Inside the block, the talker's and the code predictor's `generate()` run on a StaticCache
    (`cache_implementation="static"`).

    qwen-tts 0.1.1 cannot do that as it stands: with a compileable cache, transformers 4.57's
    `prepare_inputs_for_generation` (generation/utils.py:620-660) turns the 2-D attention mask into a 4-D one
    before the forward, and the talker's forward hands it to `get_rope_index`, which expects [batch, length]
    (modeling_qwen3_tts.py:1700 -> 1796: `expand(torch.FloatTensor{[1, 1, 1, 9, 12]}, size=[3, -1, -1])`).
    The work-around keeps the 2-D mask for the talker (its layers build their own causal mask over the
    static cache from it), by giving the talker a `create_masks_for_generate` that returns the mask as is.
    """
    talker = model.talker
    saved = (
        talker.generation_config.cache_implementation,
        talker.code_predictor.generation_config.cache_implementation,
    )
    talker.create_masks_for_generate = lambda **kwargs: kwargs["attention_mask"]
    talker.generation_config.cache_implementation = "static"
    talker.code_predictor.generation_config.cache_implementation = "static"
    try:
        yield
    finally:
        del talker.create_masks_for_generate
        talker.generation_config.cache_implementation, talker.code_predictor.generation_config.cache_implementation = (
            saved
        )


def generate_codes_of(model, text, *, max_new_tokens, do_sample=False, seed=0, **kwargs):
    """One utterance through `Qwen3TTSForConditionalGeneration.generate` (language "english", no speaker),
    repetition penalty off, greedy unless `do_sample`; `torch.manual_seed(seed)` first. Returns its
    [frames, Q] codes."""
    from tts_parity.examples.qwen_tts_tiny import prompt_ids

    torch.manual_seed(seed)
    with torch.no_grad():
        codes, _ = model.generate(
            input_ids=[prompt_ids(text).to(model.device)],
            languages=["english"],
            speakers=[None],
            max_new_tokens=max_new_tokens,
            do_sample=do_sample,
            subtalker_dosample=do_sample,
            repetition_penalty=1.0,
            **kwargs,
        )
    return codes[0]


def trace_generate(
    model,
    text,
    path,
    *,
    profile,
    max_new_tokens,
    do_sample=False,
    seed=0,
    vocoder=None,
    modules=None,
    engine="qwen-tts 0.1.1 Qwen3-TTS (tiny, random weights)",
):
    """Runs `generate_codes_of` with the recorders attached and writes the trace at `path` (and `path`.wav
    when `vocoder` is given: the 12 Hz decoder over the frames' codes).

    modules: a regex of `model.named_modules()` names (e.g. CODE_PREDICTOR_MODULES) whose outputs go to
        `<trace>.modules.safetensors`: sidecar step k holds the code predictor's work for frame k, which
        qwen-tts runs inside the talker's forward of step k+1, and the codec rows of frame k's audio
        feedback (from each call of `code_predictor.generate`, the stock one or a replacement such as seed
        004's loop, to the talker's layers).
    Returns the [frames, Q] codes.
    """
    talker = model.talker
    sidecar = sidecar_path_for(path) if modules else None
    writer = TraceWriter(
        path,
        engine=engine,
        q=talker.config.num_code_groups,
        frame_rate=FRAME_RATE,
        sample_rate=SAMPLE_RATE,
        profile=profile,
        seed=seed,
        text=text,
        modules=os.path.basename(sidecar) if sidecar else None,
    )
    rec = HFTraceRecorder(writer)
    handles = [talker.codec_head.register_forward_hook(rec.talker.forward_hook)]
    handles += [head.register_forward_hook(rec.code_predictor.forward_hook) for head in talker.code_predictor.lm_head]
    recorder = ModuleRecorder(model, sidecar, modules=modules) if modules else None
    code_predictor = talker.code_predictor
    replaced = "generate" in vars(code_predictor)
    inner = code_predictor.generate
    frame, open_step = [0], []

    def generate_one_frame(*args, **kwargs):  # opens sidecar step k for frame k's code predictor ...
        frame[0] += 1
        open_step.append(recorder.step(frame[0]))
        open_step[-1].__enter__()
        return inner(*args, **kwargs)

    def end_of_frame(module, args, kwargs):  # ... and closes it where the talker's layers start: the step
        if open_step:  # holds the code predictor and the audio feedback's codec rows
            open_step.pop().__exit__(None, None, None)

    if recorder:
        code_predictor.generate = generate_one_frame
        handles.append(talker.model.register_forward_pre_hook(end_of_frame, with_kwargs=True))
    try:
        codes = generate_codes_of(model, text, max_new_tokens=max_new_tokens, do_sample=do_sample, seed=seed)
    finally:
        for handle in handles:
            handle.remove()
        if recorder:
            if replaced:
                code_predictor.generate = inner
            else:
                del code_predictor.generate
            recorder.close()
    audio = None
    if vocoder is not None:
        with torch.no_grad():
            audio = vocoder(codes.T[None])[0, 0]
    rec.write_steps(codes)
    if audio is not None:
        writer.set_audio(audio)
    writer.close()
    return codes
