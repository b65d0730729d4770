"""The setting a stage runs under, as vLLM resolved it in the worker (not as the deploy YAML asked): kept in every
trace's header under "vllm", so a pair's two settings can be read off the files themselves."""

from __future__ import annotations

from typing import Any


def _attention_backends(runner: Any) -> list[str]:
    names: set[str] = set()
    for groups in getattr(runner, "attn_groups", None) or []:
        for group in groups:
            backend = getattr(group, "backend", None)
            if backend is not None:
                names.add(backend.get_name() if hasattr(backend, "get_name") else type(backend).__name__)
    return sorted(names)


def unseen_under_graphs(runner: Any) -> list[str]:
    """What a forward hook cannot see in this setting, one line each (a CUDA graph replays kernels, not modules:
    hooks fire when it is captured, never at replay). Read before the recorder wraps runner.talker_mtp."""
    config = runner.vllm_config
    unseen = []
    if "graph" in type(getattr(runner, "talker_mtp", None)).__name__.lower():
        unseen.append(
            "codePredictorLogits: talker_mtp runs as a captured CUDA graph (its lm_head rows are inside the replay); "
            "the frame's codes are the replay's output buffers"
        )
    mode = config.compilation_config.cudagraph_mode
    if not config.model_config.enforce_eager and mode is not None and str(getattr(mode, "name", mode)) != "NONE":
        unseen.append(
            "module outputs of steps the talker replays as a CUDA graph (decode steps): the sidecar has the eager "
            "steps only; the logits are read after the replay (compute_logits runs outside the graph)"
        )
    return unseen


def setting_header(runner: Any, stage: int | None) -> dict[str, Any]:
    import vllm
    import vllm_omni

    config = runner.vllm_config
    compilation = config.compilation_config
    model = config.model_config
    return {
        "stage": stage,
        "modelStage": getattr(model, "model_stage", None),
        "enforceEager": bool(model.enforce_eager),
        "cudagraphMode": str(getattr(compilation.cudagraph_mode, "name", compilation.cudagraph_mode)),
        "compilationMode": str(getattr(compilation.mode, "name", compilation.mode)),
        "attentionBackends": _attention_backends(runner),
        "dtype": str(model.dtype).removeprefix("torch."),
        "modelRunner": f"{type(runner).__name__} (v2)"
        if getattr(runner, "is_v2", False)
        else f"{type(runner).__name__} (v1)",
        "prefixCaching": bool(config.cache_config.enable_prefix_caching),
        "blockSize": config.cache_config.block_size,
        "asyncScheduling": bool(getattr(config.scheduler_config, "async_scheduling", False)),
        "device": str(runner.device),
        "vllmVersion": vllm.__version__,
        "vllmOmniVersion": vllm_omni.__version__,
    }


def engine_name(header: dict[str, Any]) -> str:
    eager = "eager" if header["enforceEager"] else f"compiled ({header['compilationMode']})"
    return (
        f"vllm-omni {header['vllmOmniVersion']} / vllm {header['vllmVersion']} {eager}, "
        f"cudagraph {header['cudagraphMode']}, {header['dtype']}, {header['device']}"
    )
