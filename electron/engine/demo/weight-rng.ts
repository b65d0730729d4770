/**
 * The demo bundle's weight generator: a 32-bit xorshift-multiply hash over (seed, tensor name, index),
 * so every tensor is reproducible on its own and no transcendental function (whose last bit may differ
 * between JS engines) is involved: values are uniform, scaled with Math.sqrt (correctly rounded).
 */
function hashString(text: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) h = mix32(h ^ text.charCodeAt(i));
  return h;
}

function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

/** `count` values uniform on [-a, a] with standard deviation `std` (a = std·√3), keyed by `name`. */
export function uniformWeights(seed: number, name: string, count: number, std: number): Float32Array {
  const base = hashString(name, seed);
  const a = std * Math.sqrt(3);
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    const u = mix32(base ^ mix32(i + 0x9e3779b9)) / 4294967296;
    out[i] = (2 * u - 1) * a;
  }
  return out;
}
