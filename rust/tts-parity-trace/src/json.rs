//! Numbers as the trace holds them (docs/trace-format.md rule 3): JSON has no NaN or Infinity, so a
//! non-finite statistic is the string "NaN", "Infinity" or "-Infinity"; nowhere else may one stand.

use serde_json::{json, Map, Value};

use crate::stats::{HiddenStats, LogitStats};

/// A statistic: itself when finite, else "NaN", "Infinity" or "-Infinity".
pub fn json_number(x: f64) -> Value {
    if x.is_nan() {
        Value::from("NaN")
    } else if x.is_infinite() {
        Value::from(if x > 0.0 { "Infinity" } else { "-Infinity" })
    } else {
        json!(x)
    }
}

/// The name a non-finite number is written as ("NaN", "Infinity", "-Infinity"), for messages.
pub(crate) fn non_finite_name(x: f64) -> &'static str {
    if x.is_nan() {
        "NaN"
    } else if x > 0.0 {
        "Infinity"
    } else {
        "-Infinity"
    }
}

pub(crate) fn logit_stats_json(s: &LogitStats) -> Value {
    let top5: Vec<Value> = s.top5.iter().map(|t| json!({"id": t.id, "logit": json_number(t.logit)})).collect();
    let mut m = Map::new();
    m.insert("mean".into(), json_number(s.mean));
    m.insert("std".into(), json_number(s.std));
    m.insert("min".into(), json_number(s.min));
    m.insert("max".into(), json_number(s.max));
    m.insert("argmax".into(), json!(s.argmax));
    m.insert("top5".into(), Value::Array(top5));
    Value::Object(m)
}

pub(crate) fn hidden_stats_json(s: &HiddenStats) -> Value {
    let mut m = Map::new();
    m.insert("mean".into(), json_number(s.mean));
    m.insert("std".into(), json_number(s.std));
    m.insert("min".into(), json_number(s.min));
    m.insert("max".into(), json_number(s.max));
    m.insert("nan".into(), json!(s.nan));
    m.insert("inf".into(), json!(s.inf));
    Value::Object(m)
}
