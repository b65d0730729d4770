import type { Sampling } from '../api/primitives.js';
import type { EndpointSpec } from '../profile/endpoint-side.js';

/** The JSON body of `POST /v1/audio/speech`, as vLLM-Omni's `OpenAICreateSpeechRequest` names its fields. */
export type SpeechBody = Record<string, string | number | boolean | Record<string, number>>;

/**
 * What is sent to a side: the same text, seed and sampling for both sides of a comparison, the side's own
 * model/voice/language/task and format. Sampling goes in vLLM-Omni's `extra_params` (it sets `temperature`,
 * `top_p`, `top_k` on the talker stage's sampling parameters): greedy is `temperature: 0`, vLLM's greedy rule.
 */
export function speechBody(spec: EndpointSpec, request: { text: string; seed: number; sampling: Sampling }): SpeechBody {
  const s = request.sampling;
  const extra: Record<string, number> =
    s.mode === 'greedy' ? { temperature: 0 } : { temperature: s.temperature, top_p: s.topP, top_k: s.topK, repetition_penalty: s.repetitionPenalty };
  return {
    input: request.text,
    ...(spec.model === undefined ? {} : { model: spec.model }),
    ...(spec.voice === undefined ? {} : { voice: spec.voice }),
    ...(spec.language === undefined ? {} : { language: spec.language }),
    ...(spec.task === undefined ? {} : { task_type: spec.task }),
    response_format: spec.format,
    ...(spec.stream === 'off' ? {} : { stream: true, stream_format: spec.stream }),
    seed: request.seed,
    extra_params: extra,
  };
}
