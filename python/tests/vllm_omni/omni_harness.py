"""Runs vLLM-Omni's two-stage Qwen3-TTS pipeline on the tiny model through the real `Omni` API, recording into a
folder: the test harness of python/tests/vllm_omni/ (and of `python -m` use, see __main__ below).

One `OmniSession` is one `Omni` start (~80 s on 2 cores: a process per stage plus its worker, each importing
vLLM): a deploy YAML (qwen3_tts_cpu.yaml with a setting's overrides), recorder and planted-bug environment
variables set before the start (the spawned stage processes inherit them), then any number of generate calls.

Request ids: `Omni.generate` names requests f"{i}_{uuid4()}"; the session replaces that module's uuid4 with the
names a test asks for, so traces (named by request id) and planted bugs (matched by request id) can be addressed.
"""

from __future__ import annotations

import itertools
import os
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import yaml

HERE = Path(__file__).resolve().parent
# This checkout's tts_parity and CPU platform fixture, ahead of the editable installs in .venv-vllm (which point at
# the checkout that built it): here and, through PYTHONPATH, in every stage process and worker.
CHECKOUT_PATHS = [str(HERE.parents[1]), str(HERE / "cpu_platform")]
for _path in reversed(CHECKOUT_PATHS):
    if _path not in sys.path:
        sys.path.insert(0, _path)
DEPLOY = HERE / "qwen3_tts_cpu.yaml"
SPEAKER = "tiny"  # the tiny model's one CustomVoice speaker (tiny_model.py)

# Four texts whose placeholder prompts are 22-51 ids long: two of them share block 0 (32 ids) under prefix caching.
TEXTS = {
    "short": "Hi.",
    "mid": "Hello there, parity.",
    "long": "A second and rather longer sentence to say.",
    "longest": "The quick brown fox jumps over the lazy dog twice.",
}


def deploy_config(out: Path, *, stage0: Mapping[str, Any] | None = None, top: Mapping[str, Any] | None = None) -> Path:
    """qwen3_tts_cpu.yaml with overrides for stage 0 (the talker) and the top level, written to `out`."""
    config = yaml.safe_load(DEPLOY.read_text())
    config.update(top or {})
    config["stages"][0].update(stage0 or {})
    out.write_text(yaml.safe_dump(config, sort_keys=False))
    return out


class OmniSession:
    def __init__(
        self,
        model: Path,
        deploy: Path,
        trace_dir: Path,
        *,
        plants: str = "",
        modules: str = "",
        record: bool = True,
        extra_env: Mapping[str, str] | None = None,
        init_timeout: int = 1200,
    ) -> None:
        env = {
            "TTS_PARITY_VLLM_TRACE_DIR": str(trace_dir) if record else "",
            "TTS_PARITY_VLLM_MODULES": modules,
            "TTS_PARITY_TEST_PLANT": plants,
            "TTS_PARITY_TEST_PLANT_LOG": str(trace_dir.parent / "rows.jsonl"),
            "TTS_PARITY_VLLM_LOCK_DIR": str(trace_dir.parent),
            "VLLM_CPU_KVCACHE_SPACE": os.environ.get("VLLM_CPU_KVCACHE_SPACE", "1"),
            "HF_HUB_OFFLINE": "1",
            "PYTHONPATH": os.pathsep.join([*CHECKOUT_PATHS, *filter(None, [os.environ.get("PYTHONPATH")])]),
            **(extra_env or {}),
        }
        self._saved = {k: os.environ.get(k) for k in env}
        os.environ.update(env)
        self.trace_dir = trace_dir
        import vllm_omni.entrypoints.omni as omni_module
        from vllm_omni import Omni

        self._omni_module = omni_module
        self._names: Iterator[str] = iter(())
        omni_module.uuid = SimpleNamespace(uuid4=lambda: next(self._names))
        # The stage processes and workers, spawned during the start, write their stderr to stderr.log (copied to
        # this process's stderr at close), so a test can read what a worker printed.
        self.stderr_log = trace_dir.parent / "stderr.log"
        saved_stderr = os.dup(2)
        started = time.monotonic()
        try:
            with open(self.stderr_log, "ab") as log:
                os.dup2(log.fileno(), 2)
            self.omni = Omni(
                model=str(model), deploy_config=str(deploy), stage_init_timeout=900, init_timeout=init_timeout
            )
        except BaseException:
            sys.stderr.flush()
            os.dup2(saved_stderr, 2)
            sys.stderr.write(self.stderr_text())  # what the stages said before the start failed
            raise
        finally:
            sys.stderr.flush()
            os.dup2(saved_stderr, 2)
            os.close(saved_stderr)
        self.start_seconds = time.monotonic() - started
        self.model = model
        self._tokenizer: Any = None
        self._config: Any = None

    def prompt(self, text: str, *, cache_salt: str | None = None) -> dict[str, Any]:
        """A CustomVoice prompt as the OpenAI speech adapter builds it: placeholder ids (the text enters the talker
        as embeddings) of the length the prompt builder will produce, with the text in additional_information."""
        from transformers import AutoTokenizer
        from vllm_omni.model_executor.models.qwen3_tts.configuration_qwen3_tts import Qwen3TTSConfig
        from vllm_omni.model_executor.models.qwen3_tts.prompt_embeds_builder import Qwen3TTSPromptEmbedsBuilder

        if self._tokenizer is None:
            self._tokenizer = AutoTokenizer.from_pretrained(str(self.model))
            self._config = Qwen3TTSConfig.from_pretrained(str(self.model)).talker_config
        info = {"text": [text], "task_type": ["CustomVoice"], "language": ["Auto"], "speaker": [SPEAKER]}
        length = Qwen3TTSPromptEmbedsBuilder.estimate_prompt_len_from_additional_information(
            additional_information=info,
            task_type="CustomVoice",
            tokenize_prompt=lambda t: self._tokenizer(t, padding=False)["input_ids"],
            codec_language_id=self._config.codec_language_id,
            spk_is_dialect=self._config.spk_is_dialect,
        )
        prompt: dict[str, Any] = {"prompt_token_ids": [1] * length, "additional_information": info}
        if cache_salt is not None:
            prompt["cache_salt"] = cache_salt
        return prompt

    def generate(self, named_prompts: Sequence[tuple[str, dict[str, Any]]]) -> dict[str, dict[str, Any]]:
        """Runs the prompts as one batch; returns {name: {"request_id", "audio" (float32), "seconds"}} where the
        request id is f"{index}_{name}" (index = place in this call)."""
        names = [name for name, _ in named_prompts]
        self._names = iter(names)
        started = time.monotonic()
        outputs = list(self.omni.generate([p for _, p in named_prompts], use_tqdm=False))
        seconds = time.monotonic() - started
        by_id: dict[str, dict[str, Any]] = {}
        for output in outputs:
            by_id[output.request_id] = {"request_id": output.request_id, "audio": _audio(output), "seconds": seconds}
        result = {}
        for index, name in enumerate(names):
            request_id = f"{index}_{name}"
            result[name] = by_id[request_id]
        return result

    def stderr_text(self) -> str:
        return self.stderr_log.read_text(encoding="utf-8", errors="replace")

    def close(self) -> None:
        try:
            self.omni.close()
        finally:
            sys.stderr.write(self.stderr_text())
            self._omni_module.uuid = __import__("uuid")
            for key, value in self._saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value


def _audio(output: Any) -> np.ndarray | None:
    multimodal = getattr(output, "multimodal_output", None) or {}
    request_output = getattr(output, "request_output", None)
    if not multimodal and request_output is not None:
        multimodal = getattr(request_output, "multimodal_output", None) or {}
    audio = multimodal.get("audio") if isinstance(multimodal, Mapping) else None
    if audio is None:
        return None
    if isinstance(audio, (list, tuple)):
        audio = np.concatenate([np.asarray(_numpy(a)).reshape(-1) for a in audio])
    return np.asarray(_numpy(audio), dtype=np.float32).reshape(-1)


def _numpy(value: Any) -> Any:
    return value.detach().float().cpu().numpy() if hasattr(value, "detach") else value


if __name__ == "__main__":  # python omni_harness.py MODEL OUT: one eager start, recorded, two requests (a smoke run)
    model, out = Path(sys.argv[1]), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    session = OmniSession(
        model,
        deploy_config(out / "deploy.yaml"),
        out / "traces",
        modules="model.layers.*,model.norm,code_predictor.model.layers.*",
    )
    try:
        print(f"Omni start: {session.start_seconds:.1f} s")
        runs = session.generate([(name, session.prompt(text)) for name, text in itertools.islice(TEXTS.items(), 4)])
        for name, run in runs.items():
            audio = run["audio"]
            print(name, run["request_id"], None if audio is None else audio.shape, f"{run['seconds']:.2f} s")
    finally:
        session.close()
