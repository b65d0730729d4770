"""The tensors each network of a `tts-parity-bundle/1` export has, by name, dtype and shape.

A mirror of electron/engine/bundle/tensor-contract.ts (docs/bundle-format.md, "Networks and tensors"):
the loader checks every bundle.json against that file, and export_bundle's tests run the loader
(`parity bundle check --smoke`) on what is written from this one, so a drift fails there.
Shapes: ints are fixed, strings are symbolic dimensions.
"""

from __future__ import annotations

__all__ = [
    "EAGER",
    "FLOAT_DTYPE",
    "GRAPH",
    "code_predictor_tensors",
    "encoder_tensors",
    "talker_tensors",
    "vocoder_tensors",
]


EAGER, GRAPH = "eager", "graph"
FLOAT_DTYPE = {"fp32": "float32", "fp16": "float16"}


def _tensor(name, dtype, shape):
    return {"name": name, "dtype": dtype, "shape": list(shape)}


def _decoder(sizes, mode, dtype, input_hidden):
    eager = mode == EAGER
    s = "sequence_length" if eager else 1
    p = "past_sequence_length" if eager else sizes["maxPositions"]
    t = "total_sequence_length" if eager else sizes["maxPositions"]
    inputs = [
        _tensor("inputs_embeds", dtype, [1, s, input_hidden]),
        _tensor("attention_mask", "int64", [1, t]),
        _tensor("position_ids", "int64", [1, s]),
    ]
    outputs = []
    for i in range(sizes["layers"]):
        for kv in ("key", "value"):
            inputs.append(_tensor(f"past_key_values.{i}.{kv}", dtype, [1, sizes["kvHeads"], p, sizes["headDim"]]))
            outputs.append(_tensor(f"present.{i}.{kv}", dtype, [1, sizes["kvHeads"], t, sizes["headDim"]]))
    return inputs, outputs


def talker_tensors(talker, mode, precision, codebooks=None, encoder=None):
    """(inputs, outputs) of a talker export; `talker` is bundle.json's talker section. With `talker.codebooks`
    "all" (`codebooks` = Q) the logits are [1, S, Q, vocab]; with an `encoder` section, the encoder's output and
    mask follow position_ids."""
    dtype = FLOAT_DTYPE[precision]
    inputs, outputs = _decoder(talker, mode, dtype, talker["hidden"])
    s = "sequence_length" if mode == EAGER else 1
    per_step = [talker["vocab"]] if codebooks is None else [codebooks, talker["vocab"]]
    outputs[:0] = [
        _tensor("logits", dtype, [1, s, *per_step]),
        _tensor("last_hidden_state", dtype, [1, s, talker["hidden"]]),
    ]
    if encoder is not None:
        e = "encoder_sequence_length" if mode == EAGER else encoder["maxPositions"]
        inputs[3:3] = [
            _tensor("encoder_hidden_states", dtype, [1, e, encoder["hidden"]]),
            _tensor("encoder_attention_mask", "int64", [1, e]),
        ]
    return inputs, outputs


def encoder_tensors(encoder, mode, precision):
    """(inputs, outputs) of an encoder export: the text's ids (graph: maxPositions of them, padded) and its mask."""
    s = "sequence_length" if mode == EAGER else encoder["maxPositions"]
    inputs = [_tensor("input_ids", "int64", [1, s]), _tensor("attention_mask", "int64", [1, s])]
    return inputs, [_tensor("encoder_hidden_states", FLOAT_DTYPE[precision], [1, s, encoder["hidden"]])]


def code_predictor_tensors(code_predictor, codebook_size, mode, precision):
    """(inputs, outputs) of a code predictor export; inputs_embeds arrive at projection.from when declared."""
    dtype = FLOAT_DTYPE[precision]
    input_hidden = code_predictor.get("projection", {}).get("from", code_predictor["hidden"])
    inputs, outputs = _decoder(code_predictor, mode, dtype, input_hidden)
    inputs.insert(0, _tensor("generation_step", "int64", [1]))
    outputs.insert(0, _tensor("logits", dtype, [1, "sequence_length" if mode == EAGER else 1, codebook_size]))
    return inputs, outputs


def vocoder_tensors(codebooks):
    """(inputs, outputs) of a vocoder export (fp32 and fp16 alike: the engine feeds and reads these dtypes)."""
    inputs = [
        _tensor("audio_codes", "int64", [1, "frames", codebooks]),
        _tensor("noise", "float32", [1, "samples"]),
        _tensor("phase0", "float64", [1]),
        _tensor("context_frames", "int64", [1]),
    ]
    outputs = [_tensor("audio", "float32", [1, "samples"]), _tensor("end_phase", "float64", [1])]
    return inputs, outputs
