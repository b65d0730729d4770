"""The vLLM-Omni recorder (docs/vllm-omni.md): traces of Qwen3-TTS-style pipelines recorded inside vLLM-Omni's
model-runner workers, one `tts-parity-trace/1` per request, named by request id.

Loaded by vLLM in every process as the `vllm.general_plugins` entry point `tts_parity_recorder`
(`tts_parity.engines.vllm.plugin:register`); it does nothing unless `TTS_PARITY_VLLM_TRACE_DIR` names a folder
(`tts_parity.engines.vllm.config`). vLLM and vLLM-Omni are imported only inside this subpackage, and only
when recording is switched on.
"""
