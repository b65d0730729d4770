import { describe, expect, it } from 'vitest';
import { Sampling } from '../../../../electron/common/api/primitives.js';
import { isLoopbackHost, refusedHost } from '../../../../electron/common/endpoint/host-policy.js';
import { speechBody } from '../../../../electron/common/endpoint/speech-body.js';
import { ProfileSyntaxError } from '../../../../electron/common/profile/parse-profile.js';
import { isEndpointSide, parseEndpoint } from '../../../../electron/common/profile/endpoint-side.js';

describe('endpoint sides', () => {
  it('parse to the speech URL and canonical text; defaults are left out, keys come in a fixed order', () => {
    const s = parseEndpoint(' endpoint=http://127.0.0.1:8091/ , stream=sse,voice=vivian, model=tiny,format=wav,timeout=300');
    expect(s).toMatchObject({ url: 'http://127.0.0.1:8091/v1/audio/speech', model: 'tiny', voice: 'vivian', format: 'wav', stream: 'sse', timeoutS: 300 });
    expect(s.text).toBe('endpoint=http://127.0.0.1:8091/v1/audio/speech,model=tiny,voice=vivian,stream=sse');
    expect(parseEndpoint(s.text)).toEqual(s);
    expect(parseEndpoint('endpoint=https://tts.lab:9000/v1/audio/speech').url).toBe('https://tts.lab:9000/v1/audio/speech');
    expect(parseEndpoint('endpoint=http://localhost:1/proxy').url).toBe('http://localhost:1/proxy/v1/audio/speech');
    expect(isEndpointSide('endpoint=http://x')).toBe(true);
    expect(isEndpointSide('graph,vocoder=stream')).toBe(false);
  });

  it.each([
    ['endpoint=', 'missing URL after endpoint='],
    ['endpoint=127.0.0.1:8091', 'not a URL (expected http://HOST:PORT'],
    ['endpoint=ftp://127.0.0.1:1', 'scheme "ftp" (expected http or https)'],
    ['endpoint=http://user:pw@127.0.0.1:1', 'credentials in the URL are refused'],
    ['endpoint=http://127.0.0.1:1?x=1', 'a query or fragment is not part of a speech endpoint'],
    ['endpoint=http://127.0.0.1:1,vocoder=stream', 'unknown key "vocoder" for an endpoint'],
    ['endpoint=http://127.0.0.1:1,stream=yes', 'unknown value "yes" for stream (valid: off, sse, audio)'],
    ['endpoint=http://127.0.0.1:1,format=mp3', 'unknown value "mp3" for format (valid: wav, pcm)'],
    ['endpoint=http://127.0.0.1:1,format=pcm', 'format=pcm needs rate=HZ'],
    ['endpoint=http://127.0.0.1:1,rate=24000', 'rate=HZ is for format=pcm only'],
    ['endpoint=http://127.0.0.1:1,timeout=0', 'timeout "0": expected seconds'],
    ['endpoint=http://127.0.0.1:1,key-env=sk-abc123', 'key-env "sk-abc123": expected the name of an environment variable'],
    ['endpoint=http://127.0.0.1:1,voice=a,voice=b', 'key "voice" given twice'],
    ['endpoint=http://127.0.0.1:1,,voice=a', 'empty item at position 2'],
  ])('%s is refused: %s', (text, message) => {
    expect(() => parseEndpoint(text)).toThrow(ProfileSyntaxError);
    expect(() => parseEndpoint(text)).toThrow(message);
  });

  it('only loopback hosts, or hosts named in the allow list, may be called', () => {
    for (const h of ['127.0.0.1', '127.3.2.1', 'localhost', '[::1]', 'LOCALHOST']) expect(isLoopbackHost(h)).toBe(true);
    for (const h of ['0.0.0.0', '10.0.0.1', '127.0.0.1.nip.io', 'example.com']) expect(isLoopbackHost(h)).toBe(false);
    expect(refusedHost('http://[::1]:8091/v1/audio/speech', [])).toBeUndefined();
    expect(refusedHost('http://gpu-box:8091/v1/audio/speech', [])).toContain('give --allow-host gpu-box');
    expect(refusedHost('http://gpu-box:8091/v1/audio/speech', ['GPU-BOX'])).toBeUndefined();
  });

  it('sends the same text, seed and sampling to both sides; greedy is temperature 0', () => {
    const a = parseEndpoint('endpoint=http://127.0.0.1:1,model=m,voice=v,language=English,task=CustomVoice');
    const b = parseEndpoint('endpoint=http://127.0.0.1:2,model=m,voice=v,language=English,task=CustomVoice,stream=audio');
    const request = { text: 'Hi.', seed: 42, sampling: Sampling.parse({}) };
    expect(speechBody(a, request)).toEqual({ input: 'Hi.', model: 'm', voice: 'v', language: 'English', task_type: 'CustomVoice', response_format: 'wav', seed: 42, extra_params: { temperature: 0 } });
    expect(speechBody(b, request)).toEqual({ ...speechBody(a, request), stream: true, stream_format: 'audio' });
    const sampled = speechBody(a, { ...request, sampling: Sampling.parse({ mode: 'sample', temperature: 0.7, topK: 20, topP: 0.9 }) });
    expect(sampled.extra_params).toEqual({ temperature: 0.7, top_k: 20, top_p: 0.9, repetition_penalty: 1 });
  });
});
