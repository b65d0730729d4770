//! Attention over the KV cache, two ways, as seed 003's Candle port had them (a fused kernel, and a
//! hand-written fallback taken when the fused one is unavailable):
//!
//! - `Fused`: scores scaled by 1/sqrt(D), masked with -inf, through Candle's fused softmax kernel
//!   (`candle_nn::ops::softmax_last_dim`: one pass per row that subtracts the row's max first).
//! - `Sdpa`: Candle's fused scaled-dot-product attention (`candle_nn::ops::sdpa`, which takes the scale as an
//!   argument), falling back to `Manual` when it fails, as seed 003's port did. Candle 0.11 has it for Metal
//!   only: on a CPU (or CUDA) it fails with "SDPA has no cpu impl", and every call takes the fallback; the first
//!   fallback prints one warning line on stderr.
//! - `Manual`: the fallback written op by op, with the slip seed 003's notes point at ("softmax eps, clamping,
//!   correct scaling"): the fused kernels take the scale as an argument and the fallback never applies it,
//!   and it exponentiates the raw scores without subtracting the row's max. In f32 that is finite but wrong
//!   (every row 4x sharper); in f16, the dtype fused kernels run in, exp of an unscaled score above
//!   ln(65504) = 11.09 is +Inf, Inf/Inf is NaN, and the NaN fills the stage from there on.

use std::sync::atomic::{AtomicBool, Ordering};

use candle_core::{DType, Result, Tensor, D};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    Fused,
    Sdpa,
    Manual,
}

static WARNED: AtomicBool = AtomicBool::new(false);

/// q [1, heads, S, D], k and v [1, kvHeads, T, D] (the whole cache), `blocked` [S, T] 1 where query s may not
/// see key t. Runs in `dtype`; returns [1, heads, S, D] in f32.
pub fn attend(q: &Tensor, k: &Tensor, v: &Tensor, blocked: &Tensor, kernel: Kernel, dtype: DType) -> Result<Tensor> {
    let (_, heads, s, d) = q.dims4()?;
    if kernel == Kernel::Sdpa {
        let scale = (1.0 / (d as f64).sqrt()) as f32;
        let additive = blocked.to_dtype(DType::F32)?.affine(f64::from(f32::MIN), 0.0)?;
        match candle_nn::ops::sdpa(q, k, v, Some(&additive), false, scale, 1.0) {
            Ok(out) => return Ok(out),
            Err(e) => {
                if !WARNED.swap(true, Ordering::Relaxed) {
                    // Candle appends a backtrace to the message when RUST_BACKTRACE is set: keep the first line.
                    let reason = e.to_string();
                    eprintln!("warning: attention: sdpa failed ({}); falling back to the manual path", reason.lines().next().unwrap_or_default());
                }
                return attend(q, k, v, blocked, Kernel::Manual, dtype);
            }
        }
    }
    let kv = k.dim(1)?;
    let group = heads / kv;
    // HF repeat_kv order: query head h reads KV head h / group, so heads reshape into [kv, group * S].
    let qg = q.reshape((1, kv, group * s, d))?.to_dtype(dtype)?;
    let (k, v) = (k.to_dtype(dtype)?, v.to_dtype(dtype)?);
    let blocked = Tensor::cat(&vec![blocked; group], 0)?.unsqueeze(0)?.unsqueeze(0)?; // [1, 1, group * S, T]
    let scores = qg.matmul(&k.t()?.contiguous()?)?;
    let probs = match kernel {
        Kernel::Fused => {
            let scale = (1.0 / (d as f64).sqrt()) as f32;
            let scaled = (scores * f64::from(scale))?;
            let minus_inf = Tensor::new(f32::NEG_INFINITY, q.device())?.to_dtype(dtype)?.broadcast_as(scaled.shape())?;
            let masked = blocked.broadcast_as(scaled.shape())?.where_cond(&minus_inf, &scaled)?;
            candle_nn::ops::softmax_last_dim(&masked)?
        }
        Kernel::Manual | Kernel::Sdpa => {
            let e = scores.exp()?;
            let zero = e.zeros_like()?;
            let e = blocked.broadcast_as(e.shape())?.where_cond(&zero, &e)?;
            e.broadcast_div(&e.sum_keepdim(D::Minus1)?)?
        }
    };
    probs.matmul(&v.contiguous()?)?.to_dtype(DType::F32)?.reshape((1, heads, s, d))
}
