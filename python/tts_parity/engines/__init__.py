"""Engine integrations: recorders that run inside another engine's own loop (vLLM-Omni's model runner in
`tts_parity.engines.vllm`). Each subpackage imports its engine; `tts_parity` itself never does."""
