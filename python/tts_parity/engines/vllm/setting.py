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
