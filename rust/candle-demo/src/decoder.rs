//! The demo's decoder blocks, op for op as electron/engine/demo/decoder-graph.ts builds the eager export (and
//! python/tts_parity/demo/layers.py re-implements it): RMSNorm x * (1/sqrt(mean(x^2) + eps)) * w, rotate-half
//! RoPE with the export's own exponents, grouped-query attention over a KV cache grown by concatenation, SwiGLU.
//! Linear weights are the exports' MatMul weights [in, out], so y = x @ W.

use candle_core::{DType, Device, Result as CResult, Tensor, D};

use crate::attention::{attend, Kernel};
use crate::bundle::{DecoderSizes, Weights};

/// Module outputs of one forward call, in execution order, for the sidecar: (name, tensor).
pub type Taps = Vec<(String, Tensor)>;

pub struct Layer {
    input_norm: Tensor,
    q: Tensor,
    k: Tensor,
    v: Tensor,
    o: Tensor,
    post_norm: Tensor,
    gate: Tensor,
    up: Tensor,
    down: Tensor,
}

pub struct Decoder {
    pub name: &'static str,
    pub sizes: DecoderSizes,
    layers: Vec<Layer>,
    norm: Tensor,
    inv_freq: Vec<f32>,
    eps: f64,
}

/// The growing KV cache of one decoder: per layer, keys and values [1, kvHeads, T, D].
#[derive(Default)]
pub struct KvCache {
    layers: Vec<Option<(Tensor, Tensor)>>,
}

impl KvCache {
    pub fn len(&self) -> usize {
        self.layers.first().and_then(|l| l.as_ref()).map(|(k, _)| k.dim(2).unwrap_or(0)).unwrap_or(0)
    }

    fn append(&mut self, layer: usize, k: Tensor, v: Tensor) -> CResult<(Tensor, Tensor)> {
        if self.layers.len() <= layer {
            self.layers.resize(layer + 1, None);
        }
        let next = match self.layers[layer].take() {
            Some((pk, pv)) => (Tensor::cat(&[&pk, &k], 2)?, Tensor::cat(&[&pv, &v], 2)?),
            None => (k, v),
        };
        self.layers[layer] = Some(next.clone());
        Ok(next)
    }
}

fn rms_norm(x: &Tensor, w: &Tensor, eps: f64) -> CResult<Tensor> {
    let inv = (x.sqr()?.mean_keepdim(D::Minus1)? + eps)?.sqrt()?.recip()?;
    x.broadcast_mul(&inv)?.broadcast_mul(w)
}

fn rotate(x: &Tensor, cos: &Tensor, sin: &Tensor) -> CResult<Tensor> {
    let half = x.dim(D::Minus1)? / 2;
    let (x1, x2) = (x.narrow(D::Minus1, 0, half)?, x.narrow(D::Minus1, half, half)?);
    Tensor::cat(&[&(x1.broadcast_mul(cos)? - x2.broadcast_mul(sin)?)?, &(x2.broadcast_mul(cos)? + x1.broadcast_mul(sin)?)?], D::Minus1)
}

impl Decoder {
    pub fn load(w: &Weights, name: &'static str, sizes: DecoderSizes) -> Result<Self, String> {
        let mut layers = vec![];
        for i in 0..sizes.layers {
            let t = |n: &str| w.tensor(&format!("layers.{i}.{n}"));
            let aliased = |n: &str, old: &str| t(n).or_else(|_| t(old));
            layers.push(Layer {
                input_norm: t("input_layernorm.weight")?,
                q: aliased("attn.q_proj.weight", "attn.q_rope.q_proj.weight")?,
                k: aliased("attn.k_proj.weight", "attn.k_rope.k_proj.weight")?,
                v: t("attn.v_proj.weight")?,
                o: t("attn.o_proj.weight")?,
                post_norm: t("post_attention_layernorm.weight")?,
                gate: t("mlp.gate_proj.weight")?,
                up: t("mlp.up_proj.weight")?,
                down: t("mlp.down_proj.weight")?,
            });
        }
        let exponents = w.tensor(&format!("const.rope_exponents_{}", sizes.head_dim))?.to_vec1::<f32>().map_err(|e| e.to_string())?;
        Ok(Decoder {
            name,
            sizes,
            layers,
            norm: w.tensor("norm.weight")?,
            inv_freq: exponents.iter().map(|e| e.exp()).collect(),
            eps: f64::from(w.scalar("const.float32.0.000001")?),
        })
    }

    /// x [1, S, hidden] at positions `start..start + S` (the cache holds `start` positions) -> the final-normed
    /// hidden state [1, S, hidden]; appends to `cache`, and pushes each layer's attention and MLP outputs to `taps`.
    pub fn forward(&self, x: &Tensor, cache: &mut KvCache, kernel: Kernel, dtype: DType, taps: &mut Taps) -> CResult<Tensor> {
        let (_, s, hidden) = x.dims3()?;
        let start = cache.len();
        let z = self.sizes;
        let (half, dev) = (z.head_dim / 2, &Device::Cpu);
        let freqs: Vec<f32> = (start..start + s).flat_map(|p| self.inv_freq.iter().map(move |f| p as f32 * f)).collect();
        let freqs = Tensor::from_vec(freqs, (s, half), dev)?;
        let (cos, sin) = (freqs.cos()?, freqs.sin()?);
        let total = start + s;
        let blocked: Vec<u8> = (0..s).flat_map(|i| (0..total).map(move |t| u8::from(t > start + i))).collect();
        let blocked = Tensor::from_vec(blocked, (s, total), dev)?;
        let mut x = x.clone();
        let split = |y: Tensor, n: usize| y.reshape((1, s, n, z.head_dim))?.transpose(1, 2)?.contiguous();
        for (i, l) in self.layers.iter().enumerate() {
            let h = rms_norm(&x, &l.input_norm, self.eps)?;
            let q = rotate(&split(h.broadcast_matmul(&l.q)?, z.heads)?, &cos, &sin)?;
            let k = rotate(&split(h.broadcast_matmul(&l.k)?, z.kv_heads)?, &cos, &sin)?;
            let v = split(h.broadcast_matmul(&l.v)?, z.kv_heads)?;
            let (keys, values) = cache.append(i, k, v)?;
            let ctx = attend(&q, &keys, &values, &blocked, kernel, dtype)?;
            let attn = ctx.transpose(1, 2)?.reshape((1, s, z.heads * z.head_dim))?.broadcast_matmul(&l.o)?;
            taps.push((format!("{}.layers.{i}.self_attn", self.name), attn.clone()));
            x = (x + attn)?;
            let h = rms_norm(&x, &l.post_norm, self.eps)?;
            let gate = h.broadcast_matmul(&l.gate)?;
            let mlp = (candle_nn::ops::silu(&gate)? * h.broadcast_matmul(&l.up)?)?.broadcast_matmul(&l.down)?;
            taps.push((format!("{}.layers.{i}.mlp", self.name), mlp.clone()));
            x = (x + mlp)?;
        }
        debug_assert_eq!(x.dim(2)?, hidden);
        rms_norm(&x, &self.norm, self.eps)
    }
}
