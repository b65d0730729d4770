/** The samples of a 16-bit PCM mono WAV (what report.html embeds), as floats in [-1, 1). */
export function pcm16Samples(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 12; // after "RIFF", size, "WAVE"
  while (at + 8 <= bytes.length) {
    const id = String.fromCharCode(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]);
    const size = view.getUint32(at + 4, true);
    if (id === 'data') {
      const n = Math.floor(Math.min(size, bytes.length - at - 8) / 2);
      const out = new Float32Array(n);
      for (let i = 0; i < n; i++) out[i] = view.getInt16(at + 8 + 2 * i, true) / 32768;
      return out;
    }
    at += 8 + size + (size % 2);
  }
  return new Float32Array(0);
}

export function base64Bytes(text: string): Uint8Array {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
