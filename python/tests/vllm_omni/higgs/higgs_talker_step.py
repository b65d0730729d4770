"""vLLM-Omni 0.30.0's HiggsAudioV3TalkerForConditionalGeneration run outside the engine, one step at a time, as the
AR model runner drives it: under vLLM's config context (a VllmConfig built from the model folder), a gloo process
group of one, real CPU attention (a paged KV cache per layer, CPUAttentionMetadataBuilder's metadata, vLLM's
forward context), then the model's own compute_logits() and sample() after each forward.

`external_decode_graph=True` builds the talker as the low-latency deploy profile does (deploy/
higgs_multimodal_qwen3_low_latency.yaml: enforce_eager false, cudagraph_mode FULL_DECODE_ONLY): the talker then
takes its external-decode-graph branches (`_use_external_decode_cudagraph`) and switches its own MLP graph off.
CPU has no CUDA graph to capture; the decode forward runs eagerly with those branches, which is what a capture
would record.
"""

from __future__ import annotations

import contextlib
import socket
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import torch

if TYPE_CHECKING:
    from pathlib import Path

BLOCK_SIZE = 32
BLOCKS_PER_REQUEST = 4


@dataclass
class TalkerSession:
    model: torch.nn.Module
    vllm_config: object
    layer_names: list[str]
    builder: object
    prompts: list[list[int]]
    req_ids: list[str] = field(default_factory=list)
    computed: list[int] = field(default_factory=list)  # tokens in the KV cache per request
    last_tokens: list[int] = field(default_factory=list)  # each request's last sampled text token
    codes: list[list[list[int]]] = field(default_factory=list)  # per request, per step: the 8 codes
    hidden: torch.Tensor | None = None  # the last forward's output
    exit_stack: contextlib.ExitStack = field(default_factory=contextlib.ExitStack)

    def close(self) -> None:
        from vllm.distributed import destroy_distributed_environment, destroy_model_parallel

        destroy_model_parallel()
        destroy_distributed_environment()
        self.exit_stack.close()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def build_talker(folder: Path, prompts: list[list[int]], *, external_decode_graph: bool) -> TalkerSession:
    """The talker loaded from `folder` with `len(prompts)` requests to run. Close the session when done."""
    import vllm_omni  # noqa: F401  (registers the Higgs config and model classes)
    from vllm.config import CUDAGraphMode, set_current_vllm_config
    from vllm.distributed import (
        ensure_model_parallel_initialized,
        init_distributed_environment,
    )
    from vllm.engine.arg_utils import EngineArgs
    from vllm.model_executor.model_loader.utils import process_weights_after_loading
    from vllm.utils.torch_utils import set_default_torch_dtype
    from vllm.v1.attention.backends.cpu_attn import CPUAttentionMetadataBuilder
    from vllm_omni.model_executor.models.higgs_audio_v3.higgs_audio_v3_talker import (
        HiggsAudioV3TalkerForConditionalGeneration,
    )

    args = EngineArgs(
        model=str(folder),
        dtype="bfloat16",
        enforce_eager=True,
        max_model_len=BLOCK_SIZE * BLOCKS_PER_REQUEST,
        max_num_seqs=max(4, len(prompts)),
        block_size=BLOCK_SIZE,
        trust_remote_code=True,
        hf_overrides={"architectures": ["HiggsAudioV3TalkerForConditionalGeneration"]},
    )
    vllm_config = args.create_engine_config()
    if external_decode_graph:
        vllm_config.model_config.enforce_eager = False
        vllm_config.compilation_config.cudagraph_mode = CUDAGraphMode.FULL_DECODE_ONLY
    session_stack = contextlib.ExitStack()
    session_stack.enter_context(set_current_vllm_config(vllm_config))
    init_distributed_environment(
        world_size=1,
        rank=0,
        distributed_init_method=f"tcp://127.0.0.1:{_free_port()}",
        local_rank=0,
        backend="gloo",
    )
    ensure_model_parallel_initialized(1, 1)
    with set_default_torch_dtype(torch.bfloat16):
        model = HiggsAudioV3TalkerForConditionalGeneration(vllm_config=vllm_config, prefix="")
    from safetensors.torch import load_file

    model.load_weights(iter(load_file(str(folder / "model.safetensors")).items()))
    process_weights_after_loading(model, vllm_config.model_config, torch.device("cpu"))
    model.eval()

    layers = vllm_config.compilation_config.static_forward_context
    layer_names = sorted(layers)
    num_blocks = BLOCKS_PER_REQUEST * max(2, len(prompts))
    spec = None
    for name in layer_names:
        spec = layers[name].get_kv_cache_spec(vllm_config)
        layers[name].kv_cache = torch.zeros(
            num_blocks, spec.num_kv_heads, BLOCK_SIZE, 2 * spec.head_size, dtype=torch.bfloat16
        )
    builder = CPUAttentionMetadataBuilder(spec, layer_names, vllm_config, torch.device("cpu"))
    session = TalkerSession(model, vllm_config, layer_names, builder, [], exit_stack=session_stack)
    new_requests(session, prompts, [str(index) for index in range(len(prompts))])
    return session


def new_requests(session: TalkerSession, prompts: list[list[int]], req_ids: list[str]) -> None:
    """The next batch of requests, from their prefill on (at most the batch size the session was built for), as
    a runner schedules new requests into the same model: their KV blocks cleared, their ids new."""
    layers = session.vllm_config.compilation_config.static_forward_context
    for name in session.layer_names:
        layers[name].kv_cache.zero_()
    session.prompts = [list(p) for p in prompts]
    session.req_ids = list(req_ids)
    session.computed = [0] * len(prompts)
    session.last_tokens = [0] * len(prompts)
    session.codes = [[] for _ in prompts]


def step_batch(session: TalkerSession) -> tuple[torch.Tensor, torch.Tensor, object, list[int]]:
    """(input_ids, positions, attention metadata, logits rows) of the next step: every request's whole prompt
    when nothing is computed yet (prefill), else its last sampled token (a uniform one-token decode)."""
    from vllm.v1.attention.backend import CommonAttentionMetadata

    ids: list[int] = []
    positions: list[int] = []
    starts = [0]
    slots: list[int] = []
    seq_lens: list[int] = []
    for request, prompt in enumerate(session.prompts):
        done = session.computed[request]
        new = prompt if done == 0 else [session.last_tokens[request]]
        ids += new
        positions += range(done, done + len(new))
        starts.append(starts[-1] + len(new))
        seq_lens.append(done + len(new))
        slots += [request * BLOCKS_PER_REQUEST * BLOCK_SIZE + p for p in range(done, done + len(new))]
    query_start_loc = torch.tensor(starts, dtype=torch.int32)
    block_table = torch.arange(len(session.prompts) * BLOCKS_PER_REQUEST, dtype=torch.int32).view(
        len(session.prompts), BLOCKS_PER_REQUEST
    )
    common = CommonAttentionMetadata(
        query_start_loc=query_start_loc,
        query_start_loc_cpu=query_start_loc.clone(),
        seq_lens=torch.tensor(seq_lens, dtype=torch.int32),
        num_reqs=len(session.prompts),
        num_actual_tokens=len(ids),
        max_query_len=max(b - a for a, b in zip(starts, starts[1:])),
        max_seq_len=max(seq_lens),
        block_table_tensor=block_table,
        slot_mapping=torch.tensor(slots, dtype=torch.int64),
        positions=torch.tensor(positions, dtype=torch.int64),
    )
    metadata = session.builder.build(0, common)
    logits_rows = [end - 1 for end in starts[1:]]
    return torch.tensor(ids, dtype=torch.int64), torch.tensor(positions, dtype=torch.int64), metadata, logits_rows


@contextlib.contextmanager
def forward_context(session: TalkerSession, metadata: object, num_tokens: int, slot_mapping: torch.Tensor):
    from vllm.forward_context import set_forward_context

    with set_forward_context(
        dict.fromkeys(session.layer_names, metadata),
        session.vllm_config,
        num_tokens=num_tokens,
        slot_mapping=dict.fromkeys(session.layer_names, slot_mapping),
    ):
        yield


def greedy_sampling_metadata(rows: int) -> object:
    from vllm.v1.sample.logits_processor import LogitsProcessors
    from vllm.v1.sample.metadata import SamplingMetadata

    return SamplingMetadata(
        temperature=None,
        all_greedy=True,
        all_random=False,
        top_p=None,
        top_k=None,
        generators={},
        max_num_logprobs=None,
        no_penalties=True,
        prompt_token_ids=None,
        frequency_penalties=torch.zeros(rows),
        presence_penalties=torch.zeros(rows),
        repetition_penalties=torch.ones(rows),
        output_token_ids=[[] for _ in range(rows)],
        allowed_token_ids_mask=None,
        bad_words_token_ids={},
        logitsprocs=LogitsProcessors(),
    )


class DecodeForward:
    """The talker's forward as a bound method whose `self` reaches the talker (so capture_check names its state
    `self.talker._decode_last_codes`), keeping each output for the sample() that follows."""

    def __init__(self, session: TalkerSession):
        self.talker = session.model
        self._session = session

    def forward(self, input_ids: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
        self._session.hidden = self.talker.forward(input_ids, positions)
        return self._session.hidden


def runner_steps(session: TalkerSession, count: int, *, query_start_loc: bool = True, modules: Any = None):
    """Yields `(input_ids, positions)` of `count` steps for the caller to run the forward on (`model.forward`, or
    capture_check running it), inside vLLM's forward context; around each forward it does what the AR runner
    (vllm_omni/worker/gpu_model_runner.py, _model_forward) does outside the model: update_decode_step_metadata
    before it (with the batch's query_start_loc, or without when `query_start_loc` is False: a runner that does
    not pass `omni_query_start_loc`), compute_logits and sample() after it. `session.hidden` is the last output.
    `modules`, a tts_parity ModuleRecorder, records each forward as step 1, 2, ... (one request: it keeps rows)."""
    model = session.model
    for index in range(count):
        input_ids, positions, metadata, rows = step_batch(session)
        with torch.inference_mode():
            model.update_decode_step_metadata(
                input_ids=input_ids,
                positions=positions,
                omni_query_start_loc=metadata.query_start_loc if query_start_loc else None,
                req_ids=session.req_ids,
            )
            with forward_context(session, metadata, len(input_ids), metadata.slot_mapping):
                with modules.step(index + 1) if modules is not None else contextlib.nullcontext():
                    yield input_ids, positions
                _sample(session, positions, rows)


def run_steps(session: TalkerSession, count: int, *, query_start_loc: bool = True, modules: Any = None) -> None:
    step = DecodeForward(session)
    for input_ids, positions in runner_steps(session, count, query_start_loc=query_start_loc, modules=modules):
        step.forward(input_ids, positions)


def _sample(session: TalkerSession, positions: torch.Tensor, rows: list[int]) -> None:
    model = session.model
    logits = model.compute_logits(session.hidden[rows])
    output = model.sample(logits, greedy_sampling_metadata(len(rows)))
    sampled = output.sampled_token_ids.reshape(-1).tolist()
    staged = model._last_audio_host_staging
    for request in range(len(session.prompts)):
        session.computed[request] = int(positions[rows[request]]) + 1
        session.last_tokens[request] = int(sampled[request])
        if staged is not None:
            session.codes[request].append(staged[request, : model.num_codebooks].tolist())
