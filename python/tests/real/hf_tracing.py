"""Tracing the tiny real transformers models with tts_parity's documented API (docs/real-models.md).

Every call into the recorder API (TraceWriter, HFTraceRecorder, ModuleRecorder) is in this file, so a rename
of that API is one edit here. Each function runs one utterance and writes one `tts-parity-trace/1`.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from typing import Any

import torch

from tts_parity import TraceWriter
from tts_parity.hf import HFTraceRecorder
from tts_parity.module_recorder import ModuleRecorder, sidecar_path_for

__all__ = ["TraceRun", "omni_static_mask_fix", "trace_csm", "trace_dia", "trace_omni"]


@dataclass
class TraceRun:
    path: str
    codes: torch.Tensor  # [frames, q] (Dia: [steps, q], the raw delayed emission)
    audio: Any = None  # [samples] float32 or None


# The tiny random decoders' levels, fixed so a trace's WAV is a take the metrics can use (never degenerate, never
# over full scale), the same gain for every profile of a model, so a comparison is unchanged by it: Qwen3-Omni's
# code2wav peaks near 2.3e-5 (below one 16-bit step, "near-silent"); CSM's Mimi near 1.3-1.7 (over [-1, 1], which
# the writer refuses).
OMNI_CODE2WAV_GAIN = 1e4
CSM_CODEC_GAIN = 0.25


def _steps_by_forward(model, recorder):
    """Numbers the module recorder's steps by the forwards of `model` (1 = the prefill): generate() owns the
    loop, so a forward pre-hook opens `recorder.step(n)` and the forward hook closes it."""
    state = {"n": 0, "stack": None}

    def enter(module, args, kwargs):
        state["n"] += 1
        state["stack"] = contextlib.ExitStack()
        state["stack"].enter_context(recorder.step(state["n"]))

    def leave(module, args, kwargs, output):
        state["stack"].close()

    return [
        model.register_forward_pre_hook(enter, with_kwargs=True),
        model.register_forward_hook(leave, with_kwargs=True),
    ]


def omni_static_mask_fix(talker):
    """transformers 4.57.3: with a StaticCache, generate() hands the talker a 4-D boolean mask
    (generation/utils.py, create_masks_for_generate) and the talker's forward computes
    `(1 - attention_mask)` for its 3-D RoPE index (modeling_qwen3_omni_moe.py:3052), which fails on a bool
    tensor. For a text-only talker prompt every RoPE section has the plain positions, which is what the
    talker's model computes itself from cache_position when no mask is given: drop the 4-D mask (the model
    then builds its own causal mask over the static cache). Returns the hook handle."""

    def drop_4d_mask(module, args, kwargs):
        mask = kwargs.get("attention_mask")
        if mask is not None and mask.ndim == 4:
            kwargs["attention_mask"] = None
        return args, kwargs

    return talker.register_forward_pre_hook(drop_4d_mask, with_kwargs=True)


def trace_omni(
    parts,
    path,
    *,
    profile: str,
    cache_implementation=None,
    max_new_tokens=8,
    seed=0,
    do_sample=False,
    modules: str | None = r"^model\.layers\.\d+\.mlp$",
    compile_config=None,
):
    """Qwen3-Omni talker through generate(): the talker's raw rows by our logits processor (first in the
    list; the special-id suppression is appended AFTER it, so the recorder sees every id), the code
    predictor's raw rows by forward hooks on its real heads `code_predictor.lm_head[i]` (its generate() is
    called inside the talker's prepare_inputs_for_generation with hard-coded arguments, so no processor can
    be passed to it). Frame k: talker call k, code-predictor calls (k-1)(q-1)+1..k(q-1).
    compile_config: a transformers CompileConfig; with the static cache, generate() then compiles the talker's
    decode forward (its own compile path; on CPU only with `_compile_all_devices = True`)."""
    from hf_recipes import OMNI_CODEBOOK, OMNI_EOS, OMNI_TALKER_VOCAB, omni_frame_codes
    from transformers import LogitsProcessorList, SuppressTokensLogitsProcessor

    talker = parts.talker
    sidecar = sidecar_path_for(path) if modules else None
    writer = TraceWriter(
        path,
        engine=f"transformers qwen3-omni-moe talker ({profile})",
        q=parts.q,
        frame_rate=parts.frame_rate,
        sample_rate=parts.sample_rate,
        profile=profile,
        seed=seed,
        force=True,
        modules=os.path.basename(sidecar) if sidecar else None,
    )
    rec = HFTraceRecorder(writer)
    handles = [head.register_forward_hook(rec.code_predictor.forward_hook) for head in talker.code_predictor.lm_head]
    special = [i for i in range(OMNI_CODEBOOK, OMNI_TALKER_VOCAB) if i != OMNI_EOS]
    device = talker.device
    processors = LogitsProcessorList([rec.talker, SuppressTokensLogitsProcessor(special, device=device)])
    if cache_implementation == "static":
        handles.append(omni_static_mask_fix(talker))
    with contextlib.ExitStack() as stack:
        if sidecar:
            module_recorder = stack.enter_context(ModuleRecorder(talker, sidecar, modules=modules, force=True))
            handles += _steps_by_forward(talker, module_recorder)
        stack.callback(lambda: [h.remove() for h in handles])
        torch.manual_seed(seed)
        with torch.no_grad():
            inputs = {k: v.to(device) for k, v in parts.generate_kwargs.items()}
            extra = {"compile_config": compile_config} if compile_config is not None else {}
            out = talker.generate(
                **inputs,
                **extra,
                max_new_tokens=max_new_tokens,
                do_sample=do_sample,
                eos_token_id=OMNI_EOS,
                pad_token_id=OMNI_EOS,
                logits_processor=processors,
                cache_implementation=cache_implementation,
                output_hidden_states=True,
                return_dict_in_generate=True,
            )
            codes = omni_frame_codes(out)
            audio = parts.code2wav(codes.T.unsqueeze(0).to(parts.code2wav.device))[0, 0] * OMNI_CODE2WAV_GAIN
    rec.write_steps(codes)
    writer.set_audio(audio)
    writer.close()
    return TraceRun(path, codes, audio)


def trace_csm(
    parts,
    path,
    *,
    profile: str,
    cache_implementation=None,
    max_new_tokens=6,
    seed=0,
    do_sample=False,
    compile_config=None,
    codec_gain=CSM_CODEC_GAIN,
):
    """CSM: the backbone's raw rows by our logits processor in generate(); the depth decoder's raw rows by a
    forward hook on its real head `depth_decoder.codebooks_head` (CSM's _sample calls depth_decoder.generate()
    per frame with its own generation config, so no processor of ours reaches it); codes from generate()'s
    sequences [1, frames, q]; audio by the Mimi codec (`codec_model.decode`)."""
    from transformers import LogitsProcessorList

    model = parts.model
    writer = TraceWriter(
        path,
        engine=f"transformers csm ({profile})",
        q=parts.q,
        frame_rate=parts.frame_rate,
        sample_rate=parts.sample_rate,
        profile=profile,
        seed=seed,
        force=True,
    )
    rec = HFTraceRecorder(writer)
    handle = model.depth_decoder.codebooks_head.register_forward_hook(rec.code_predictor.forward_hook)
    try:
        torch.manual_seed(seed)
        with torch.no_grad():
            extra = {"compile_config": compile_config} if compile_config is not None else {}
            sequences = model.generate(
                input_ids=parts.input_ids.to(model.device),
                **extra,
                max_new_tokens=max_new_tokens,
                do_sample=do_sample,
                depth_decoder_do_sample=do_sample,
                cache_implementation=cache_implementation,
                logits_processor=LogitsProcessorList([rec.talker]),
            )
            codes = sequences[0]  # [frames, q]
            audio = model.codec_model.decode(codes.T.unsqueeze(0)).audio_values[0, 0] * codec_gain
    finally:
        handle.remove()
    rec.write_steps(codes)
    writer.set_audio(audio)
    writer.close()
    return TraceRun(path, codes, audio)


def trace_dia(parts, path, *, profile: str, cache_implementation=None, max_new_tokens=8, seed=0, do_sample=False):
    """Dia: one decoder step emits all q codebooks, codebook k for frame (step - delays[k]). The raw rows come
    from a forward hook on the real output layer `logits_dense` ([1, 1, q * vocab]); DiaGenerationMixin's
    _get_logits_processor drops a `logits_processor` passed to generate() (transformers 4.57.3,
    generation_dia.py:63-81), so the documented logits hook cannot be used. The trace keeps the raw emission:
    step s holds each codebook's code as emitted at step s (specials included), and the header's
    `codebookDelays` lets the reader map step to frame."""
    model = parts.model
    vocab = model.config.decoder_config.vocab_size
    rows = []
    handle = model.logits_dense.register_forward_hook(
        lambda module, inputs, output: rows.append(output[0, -1].view(parts.q, vocab).float().clone())
    )
    try:
        torch.manual_seed(seed)
        with torch.no_grad():
            out = model.generate(
                input_ids=parts.input_ids,
                decoder_input_ids=parts.decoder_input_ids,
                decoder_attention_mask=parts.decoder_attention_mask,
                max_new_tokens=max_new_tokens,
                do_sample=do_sample,
                cache_implementation=cache_implementation,
            )
    finally:
        handle.remove()
    emitted = out[0, 1 : 1 + len(rows)]  # column 0 is the BOS prompt
    with TraceWriter(
        path,
        engine=f"transformers dia ({profile})",
        q=parts.q,
        frame_rate=parts.frame_rate,
        sample_rate=parts.sample_rate,
        profile=profile,
        seed=seed,
        force=True,
        codebook_delays=list(parts.delays),
    ) as writer:
        for step_rows, codes in zip(rows, emitted):
            writer.write_step(step_rows[0], codes, code_predictor_logits=list(step_rows[1:]))
    return TraceRun(path, emitted)
