//! A step line: what one decode step recorded (docs/trace-format.md), and the rules a line must keep that
//! its types do not already: q codes, q-1 code-predictor entries, at least one thing to compare, at most five
//! top-5 entries, finite times, integers JSON readers hold exactly.

use serde_json::{json, Map, Value};

use crate::error::{Result, TraceError};
use crate::header::MAX_SAFE_INTEGER;
use crate::json::{hidden_stats_json, logit_stats_json, non_finite_name};
use crate::stats::{HiddenStats, LogitStats};

/// Non-finite counts per stage (`nan` or `inf` of a step).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StageCounts {
    pub talker: u64,
    pub code_predictor: u64,
    /// This frame's samples; [`crate::TraceWriter`] fills it from the audio at close where asked.
    pub vocoder: u64,
}

/// Wall time per stage in ms (`timesMs`); talker and code predictor are required by the format.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimesMs {
    pub talker: f64,
    pub code_predictor: f64,
    pub vocoder: Option<f64>,
}

/// One step's record with its statistics already computed ([`crate::TraceWriter::write_record`]); every
/// field is optional (partial traces), but a step needs logits, codes or code-predictor statistics.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepRecord {
    pub logits: Option<LogitStats>,
    pub codes: Option<Vec<u32>>,
    pub code_predictor_logits: Option<Vec<LogitStats>>,
    pub nan: Option<StageCounts>,
    pub inf: Option<StageCounts>,
    pub times_ms: Option<TimesMs>,
    pub hidden: Option<HiddenStats>,
}

impl StepRecord {
    /// Refuses a record `parity compare-trace` would refuse (or misread) at step `step` of a trace with `q`
    /// codebooks, naming the field.
    pub(crate) fn check(&self, step: u64, q: u32) -> Result<()> {
        if self.logits.is_none() && self.codes.is_none() && self.code_predictor_logits.is_none() {
            return Err(TraceError::EmptyStep { step });
        }
        if let Some(codes) = &self.codes {
            if codes.len() != q as usize {
                return Err(TraceError::step(step, "codes", None, format!("expected {q} codes (q in the header), found {}", codes.len())));
            }
        }
        if let Some(stats) = &self.logits {
            check_stats(stats, step, "logits")?;
        }
        if let Some(entries) = &self.code_predictor_logits {
            if entries.len() + 1 != q as usize {
                return Err(TraceError::step(
                    step,
                    "codePredictorLogits",
                    None,
                    format!("expected {} entries (q-1), found {}", q - 1, entries.len()),
                ));
            }
            for (i, stats) in entries.iter().enumerate() {
                check_stats(stats, step, &format!("codePredictorLogits.{i}"))?;
            }
        }
        for (field, counts) in [("nan", &self.nan), ("inf", &self.inf)] {
            if let Some(c) = counts {
                for (stage, n) in [("talker", c.talker), ("codePredictor", c.code_predictor), ("vocoder", c.vocoder)] {
                    check_integer(step, &format!("{field}.{stage}"), n)?;
                }
            }
        }
        if let Some(t) = &self.times_ms {
            for (stage, ms) in [("talker", Some(t.talker)), ("codePredictor", Some(t.code_predictor)), ("vocoder", t.vocoder)] {
                if let Some(ms) = ms.filter(|ms| !ms.is_finite()) {
                    return Err(TraceError::step(step, format!("timesMs.{stage}"), Some("times_ms".into()), not_json(ms)));
                }
            }
        }
        if let Some(h) = &self.hidden {
            check_integer(step, "hidden.nan", h.nan)?;
            check_integer(step, "hidden.inf", h.inf)?;
        }
        Ok(())
    }

    pub(crate) fn to_json(&self, step: u64) -> Value {
        let mut m = Map::new();
        m.insert("step".into(), json!(step));
        if let Some(s) = &self.logits {
            m.insert("logits".into(), logit_stats_json(s));
        }
        if let Some(codes) = &self.codes {
            m.insert("codes".into(), json!(codes));
        }
        if let Some(entries) = &self.code_predictor_logits {
            m.insert("codePredictorLogits".into(), Value::Array(entries.iter().map(logit_stats_json).collect()));
        }
        for (key, counts) in [("nan", &self.nan), ("inf", &self.inf)] {
            if let Some(c) = counts {
                m.insert(key.into(), json!({"talker": c.talker, "codePredictor": c.code_predictor, "vocoder": c.vocoder}));
            }
        }
        if let Some(t) = &self.times_ms {
            let mut times = Map::new();
            times.insert("talker".into(), json!(t.talker));
            times.insert("codePredictor".into(), json!(t.code_predictor));
            if let Some(v) = t.vocoder {
                times.insert("vocoder".into(), json!(v));
            }
            m.insert("timesMs".into(), Value::Object(times));
        }
        if let Some(h) = &self.hidden {
            m.insert("hidden".into(), hidden_stats_json(h));
        }
        Value::Object(m)
    }
}

fn not_json(x: f64) -> String {
    format!(
        "{} is not JSON: a non-finite number is written as the string \"{}\" where the format allows one (logit and hidden statistics), nowhere else",
        non_finite_name(x),
        non_finite_name(x)
    )
}

fn check_integer(step: u64, field: &str, n: u64) -> Result<()> {
    if n > MAX_SAFE_INTEGER {
        return Err(TraceError::step(step, field, None, format!("{n} is greater than the maximum of {MAX_SAFE_INTEGER}")));
    }
    Ok(())
}

fn check_stats(stats: &LogitStats, step: u64, field: &str) -> Result<()> {
    if stats.top5.len() > 5 {
        return Err(TraceError::step(step, format!("{field}.top5"), None, format!("expected at most 5 entries, found {}", stats.top5.len())));
    }
    let bound = MAX_SAFE_INTEGER as i64;
    let ids = std::iter::once(("argmax".to_string(), stats.argmax)).chain(stats.top5.iter().enumerate().map(|(i, t)| (format!("top5.{i}.id"), t.id)));
    for (name, id) in ids {
        if !(-bound..=bound).contains(&id) {
            return Err(TraceError::step(step, format!("{field}.{name}"), None, format!("{id} is outside -(2^53-1)..2^53-1")));
        }
    }
    Ok(())
}
