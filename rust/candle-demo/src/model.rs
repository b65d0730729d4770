//! The demo's networks and one synthesis, as python/tts_parity/demo/eager_decode.py runs them (itself the
//! engine's electron/engine/synthesize.ts): the talker prefills BOS + the prompt's UTF-8 bytes, each decode
//! step is fed the sum of the previous frame's codec embeddings, codebook 0 is the talker's greedy pick (EOS
//! masked), and the code predictor fills codebooks 1..Q-1 per frame from [talker hidden, code 0 embedding].

use candle_core::{DType, Tensor};

use crate::attention::Kernel;
use crate::bundle::{Manifest, Weights};
use crate::decoder::{Decoder, KvCache, Taps};

pub struct Demo {
    pub m: Manifest,
    text_embedding: Tensor,
    codec_embedding: Tensor,
    talker: Decoder,
    lm_head: Tensor,
    code_predictor: Decoder,
    lm_heads: Vec<Tensor>,
}

/// What one step produced: raw rows, the codes, the talker's last hidden state, and the module outputs.
pub struct StepOutput {
    pub talker_logits: Vec<f32>,
    pub hidden: Vec<f32>,
    pub codes: Vec<u32>,
    pub code_predictor_logits: Vec<Vec<f32>>,
    pub taps: Taps,
    pub talker_ms: f64,
    pub code_predictor_ms: f64,
}

/// torch.argmax's pick: the first NaN if there is one, else the first maximum.
pub fn argmax(row: &[f32]) -> usize {
    if let Some(i) = row.iter().position(|x| x.is_nan()) {
        return i;
    }
    row.iter().enumerate().fold(0, |best, (i, &x)| if x > row[best] { i } else { best })
}

fn err(e: candle_core::Error) -> String {
    format!("internal: candle: {e}")
}

impl Demo {
    pub fn load(m: Manifest) -> Result<Self, String> {
        let embed = Weights::open(&m, "embed")?;
        let talker_w = Weights::open(&m, "talker")?;
        let cp_w = Weights::open(&m, "code_predictor")?;
        let heads = cp_w.tensor("lm_heads.weight")?;
        let lm_heads = (0..m.codebooks - 1).map(|j| heads.get(j).map_err(err)).collect::<Result<_, _>>()?;
        Ok(Demo {
            text_embedding: embed.tensor("text_embedding.weight")?,
            codec_embedding: embed.tensor("codec_embedding.weight")?,
            talker: Decoder::load(&talker_w, "talker", m.talker)?,
            lm_head: talker_w.tensor("lm_head.weight")?,
            code_predictor: Decoder::load(&cp_w, "code_predictor", m.code_predictor)?,
            lm_heads,
            m,
        })
    }

    /// (ids, frames): BOS then the UTF-8 bytes; frames = round(characters x framesPerChar), halves up, in
    /// [1, maxFrames] (electron/engine/text-input.ts).
    pub fn tokenize(&self, text: &str) -> Result<(Vec<u32>, usize), String> {
        if text.trim().is_empty() {
            return Err("--text: empty; give at least one non-space character".into());
        }
        if text.len() > self.m.max_bytes {
            return Err(format!("--text: {} UTF-8 bytes, over this bundle's limit of {} (bundle.json text.maxBytes)", text.len(), self.m.max_bytes));
        }
        // JavaScript's String.length counts UTF-16 units, which is what the engine multiplies.
        let chars = text.encode_utf16().count() as f64;
        let frames = ((chars * self.m.frames_per_char + 0.5).floor() as usize).clamp(1, self.m.max_frames);
        Ok((std::iter::once(self.m.text_bos).chain(text.bytes().map(u32::from)).collect(), frames))
    }

    fn code_row(&self, codebook: usize, code: u32) -> Result<Tensor, String> {
        self.codec_embedding.get(codebook * self.m.rows_per_codebook + code as usize).map_err(err)
    }

    /// The talker's input at a decode step: the previous frame's Q codec embeddings added in codebook order.
    fn feedback(&self, codes: &[u32]) -> Result<Tensor, String> {
        let mut total = self.code_row(0, codes[0])?;
        for (q, &c) in codes.iter().enumerate().skip(1) {
            total = (total + self.code_row(q, c)?).map_err(err)?;
        }
        total.reshape((1, 1, ())).map_err(err)
    }

    /// Runs the synthesis step by step, calling `each` with every step's output (step 1 = the prefill).
    pub fn synthesize(&self, ids: &[u32], frames: usize, kernel: Kernel, dtype: DType, mut each: impl FnMut(u64, StepOutput) -> Result<(), String>) -> Result<(), String> {
        let mut cache = KvCache::default();
        let mut previous = vec![self.m.bos; self.m.codebooks];
        for step in 1..=frames {
            let t0 = std::time::Instant::now();
            let mut taps: Taps = vec![];
            let x = if step == 1 {
                let ids = Tensor::new(ids, &candle_core::Device::Cpu).map_err(err)?;
                self.text_embedding.index_select(&ids, 0).map_err(err)?.unsqueeze(0).map_err(err)?
            } else {
                self.feedback(&previous)?
            };
            taps.push(((if step == 1 { "embed" } else { "feedback" }).to_string(), x.clone()));
            let hidden = self.talker.forward(&x, &mut cache, kernel, dtype, &mut taps).map_err(err)?;
            let last = hidden.get(0).and_then(|h| h.get(h.dim(0)? - 1)).map_err(err)?; // [hidden]
            let logits = last.unsqueeze(0).and_then(|h| h.matmul(&self.lm_head)).and_then(|l| l.squeeze(0)).map_err(err)?;
            taps.push(("talker.lm_head".into(), logits.clone()));
            let talker_logits: Vec<f32> = logits.to_vec1().map_err(err)?;
            let mut masked = talker_logits.clone();
            masked[self.m.eos] = f32::NEG_INFINITY;
            let code0 = argmax(&masked) as u32;
            let t1 = std::time::Instant::now();
            let (codes, code_predictor_logits) = self.predict_codes(&last, code0, kernel, dtype, &mut taps)?;
            let t2 = std::time::Instant::now();
            previous.clone_from(&codes);
            let out = StepOutput {
                talker_logits,
                hidden: last.to_vec1().map_err(err)?,
                codes,
                code_predictor_logits,
                taps,
                talker_ms: (t1 - t0).as_secs_f64() * 1e3,
                code_predictor_ms: (t2 - t1).as_secs_f64() * 1e3,
            };
            each(step as u64, out)?;
        }
        Ok(())
    }

    /// The code predictor's own KV-cached loop: prefill [talker hidden, embedding of code 0] -> codebook 1, then
    /// one position per codebook, fed that codebook's embedding of its code, read through its own head.
    fn predict_codes(&self, hidden: &Tensor, code0: u32, kernel: Kernel, dtype: DType, taps: &mut Taps) -> Result<(Vec<u32>, Vec<Vec<f32>>), String> {
        let mut cache = KvCache::default();
        let mut x = Tensor::stack(&[hidden, &self.code_row(0, code0)?], 0).and_then(|t| t.unsqueeze(0)).map_err(err)?;
        let (mut codes, mut rows) = (vec![code0], vec![]);
        for cb in 1..self.m.codebooks {
            let h = self.code_predictor.forward(&x, &mut cache, kernel, dtype, taps).map_err(err)?;
            let last = h.get(0).and_then(|h| h.get(h.dim(0)? - 1)).map_err(err)?;
            let row: Vec<f32> = last.unsqueeze(0).and_then(|h| h.matmul(&self.lm_heads[cb - 1])).and_then(|l| l.squeeze(0)).and_then(|l| l.to_vec1()).map_err(err)?;
            let code = argmax(&row) as u32;
            codes.push(code);
            rows.push(row);
            x = self.code_row(cb, code)?.reshape((1, 1, ())).map_err(err)?;
        }
        Ok((codes, rows))
    }
}
