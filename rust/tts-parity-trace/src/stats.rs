//! Logit and hidden-state statistics by the definitions of docs/trace-format.md, in the TypeScript engine's
//! order of operations (electron/common/trace/logit-stats.ts), so that they are bit for bit the engine's:
//!
//! - mean and std over all entries in f64, summed in index order; std is the population std (divide by N,
//!   numpy's default, not torch.std's N-1). Any NaN makes both NaN; +-Inf propagate by IEEE arithmetic.
//! - min, max and top5 skip NaNs; NaN / empty when every entry is NaN.
//! - argmax is the first NaN's index when there is one (as torch.argmax), else the largest logit, lowest
//!   index on ties; top5 is best first, same tie rule. An empty row: argmax -1.

const TOP: usize = 5;

/// One entry of [`LogitStats::top5`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TopLogit {
    pub id: i64,
    pub logit: f64,
}

/// `{mean, std, min, max, argmax, top5}` of one raw logit row.
#[derive(Clone, Debug, PartialEq)]
pub struct LogitStats {
    pub mean: f64,
    pub std: f64,
    pub min: f64,
    pub max: f64,
    pub argmax: i64,
    pub top5: Vec<TopLogit>,
}

/// `{mean, std, min, max, nan, inf}` of a hidden-state tensor (all of its entries, flattened).
#[derive(Clone, Debug, PartialEq)]
pub struct HiddenStats {
    pub mean: f64,
    pub std: f64,
    pub min: f64,
    pub max: f64,
    pub nan: u64,
    pub inf: u64,
}

/// How many entries are NaN and how many are +-Infinity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NonFinite {
    pub nan: u64,
    pub inf: u64,
}

/// A float the statistics take: f32 (what engines hold) or f64. Converted to f64 exactly.
pub trait Value: Copy {
    fn to_f64(self) -> f64;
}

impl Value for f32 {
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
}

impl Value for f64 {
    fn to_f64(self) -> f64 {
        self
    }
}

/// Statistics of one raw logit row (`[vocab]`): every id, before any processing.
pub fn logit_stats<T: Value>(logits: &[T]) -> LogitStats {
    let n = logits.len();
    let mut sum = 0.0f64;
    let mut min = f64::INFINITY;
    let mut max = f64::NEG_INFINITY;
    let mut first_nan: i64 = -1;
    let mut top: Vec<TopLogit> = Vec::with_capacity(TOP);
    for (i, &value) in logits.iter().enumerate() {
        let x = value.to_f64();
        sum += x;
        if x.is_nan() {
            if first_nan < 0 {
                first_nan = i as i64;
            }
            continue;
        }
        if x < min {
            min = x;
        }
        if x > max {
            max = x;
        }
        // Insertion into the five best, strictly greater only: an equal value keeps the lower id ahead.
        if top.len() < TOP || x > top[top.len() - 1].logit {
            if top.len() == TOP {
                top.pop();
            }
            let at = top.iter().position(|t| x > t.logit).unwrap_or(top.len());
            top.insert(at, TopLogit { id: i as i64, logit: x });
        }
    }
    let mean = if n > 0 { sum / n as f64 } else { f64::NAN };
    let mut sq = 0.0f64;
    for &value in logits {
        let d = value.to_f64() - mean;
        sq += d * d;
    }
    let std = if n > 0 { (sq / n as f64).sqrt() } else { f64::NAN };
    let filled = !top.is_empty();
    LogitStats {
        mean,
        std,
        min: if filled { min } else { f64::NAN },
        max: if filled { max } else { f64::NAN },
        argmax: if first_nan >= 0 { first_nan } else if filled { top[0].id } else { -1 },
        top5: top,
    }
}

/// NaN and +-Infinity counts of any number of values.
pub fn count_non_finite<T: Value>(values: &[T]) -> NonFinite {
    let mut counts = NonFinite::default();
    for &value in values {
        let x = value.to_f64();
        if x.is_nan() {
            counts.nan += 1;
        } else if x.is_infinite() {
            counts.inf += 1;
        }
    }
    counts
}

/// The logit rules over every entry of a hidden state (any shape, flattened), plus its non-finite counts.
pub fn hidden_stats<T: Value>(values: &[T]) -> HiddenStats {
    let s = logit_stats(values);
    let c = count_non_finite(values);
    HiddenStats { mean: s.mean, std: s.std, min: s.min, max: s.max, nan: c.nan, inf: c.inf }
}
