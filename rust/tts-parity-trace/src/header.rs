//! The header line of a trace: what produced it and the codec's shape (docs/trace-format.md, line 1).

use serde_json::{json, Map, Value};

use crate::error::{Result, TraceError};

/// `"tts-parity-trace/1"`, the header's `schema`.
pub const TRACE_SCHEMA: &str = "tts-parity-trace/1";

/// The largest integer a JSON reader (JavaScript) holds exactly, the schema's bound on counts and seeds.
pub(crate) const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// The header of a trace; `TraceHeader::new(engine, q, frame_rate, sample_rate)` and the optional fields by
/// their setters, named as TraceWriter's keyword arguments in Python.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceHeader {
    /// What produced the trace, e.g. `"candle 0.11 eager"` (header `engine`).
    pub engine: String,
    /// Codebooks per frame, 1..=64 (header `q`).
    pub q: u32,
    /// Frames per second, finite and > 0 (header `frameRate`).
    pub frame_rate: f64,
    /// Audio samples per second, >= 1 (header `sampleRate`).
    pub sample_rate: u32,
    pub profile: Option<String>,
    pub seed: Option<u64>,
    pub text: Option<String>,
    /// A module sidecar's file name relative to the trace's folder ([`crate::ModuleSidecar`]).
    pub modules: Option<String>,
    /// The run whose codes this run was fed instead of its own picks (header `teacherForced`).
    pub teacher_forced: Option<String>,
    /// A delay pattern, q values (header `codebookDelays`).
    pub codebook_delays: Option<Vec<u32>>,
}

impl TraceHeader {
    pub fn new(engine: impl Into<String>, q: u32, frame_rate: f64, sample_rate: u32) -> Self {
        TraceHeader {
            engine: engine.into(),
            q,
            frame_rate,
            sample_rate,
            profile: None,
            seed: None,
            text: None,
            modules: None,
            teacher_forced: None,
            codebook_delays: None,
        }
    }

    pub fn profile(mut self, profile: impl Into<String>) -> Self {
        self.profile = Some(profile.into());
        self
    }

    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = Some(seed);
        self
    }

    pub fn text(mut self, text: impl Into<String>) -> Self {
        self.text = Some(text.into());
        self
    }

    pub fn modules(mut self, sidecar_file_name: impl Into<String>) -> Self {
        self.modules = Some(sidecar_file_name.into());
        self
    }

    pub fn teacher_forced(mut self, run: impl Into<String>) -> Self {
        self.teacher_forced = Some(run.into());
        self
    }

    pub fn codebook_delays(mut self, delays: impl Into<Vec<u32>>) -> Self {
        self.codebook_delays = Some(delays.into());
        self
    }

    /// Refuses what `parity compare-trace` would refuse in a header, naming the argument.
    pub(crate) fn check(&self) -> Result<()> {
        let refuse = |argument: &'static str, expected: &str, found: String| {
            Err(TraceError::Argument { call: "TraceWriter", argument, expected: expected.into(), found })
        };
        if self.q == 0 {
            return refuse("q", "an integer >= 1", "0".into());
        }
        if self.q > 64 {
            return refuse("q", "an integer from 1 to 64 (the format's limit)", self.q.to_string());
        }
        if self.sample_rate == 0 {
            return refuse("sample_rate", "an integer >= 1", "0".into());
        }
        if !self.frame_rate.is_finite() || self.frame_rate <= 0.0 {
            return refuse("frame_rate", "a finite number > 0 (frames per second)", format!("{}", self.frame_rate));
        }
        text_field("engine", Some(&self.engine), 1)?;
        text_field("profile", self.profile.as_deref(), 0)?;
        text_field("modules", self.modules.as_deref(), 1)?;
        text_field("teacher_forced", self.teacher_forced.as_deref(), 1)?;
        if let Some(seed) = self.seed.filter(|&s| s > MAX_SAFE_INTEGER) {
            return refuse("seed", "an integer from 0 to 2^53-1", seed.to_string());
        }
        if let Some(delays) = &self.codebook_delays {
            if delays.len() != self.q as usize {
                return Err(TraceError::Argument {
                    call: "TraceWriter",
                    argument: "codebook_delays",
                    expected: format!("{} delays (q)", self.q),
                    found: delays.len().to_string(),
                });
            }
            if let Some(d) = delays.iter().find(|&&d| d > 100_000) {
                return refuse("codebook_delays", "delays from 0 to 100000 steps", d.to_string());
            }
        }
        Ok(())
    }

    pub(crate) fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("schema".into(), json!(TRACE_SCHEMA));
        m.insert("engine".into(), json!(self.engine));
        m.insert("q".into(), json!(self.q));
        m.insert("frameRate".into(), json!(self.frame_rate));
        m.insert("sampleRate".into(), json!(self.sample_rate));
        let optional = [
            ("profile", self.profile.as_ref().map(|v| json!(v))),
            ("seed", self.seed.map(|v| json!(v))),
            ("text", self.text.as_ref().map(|v| json!(v))),
            ("modules", self.modules.as_ref().map(|v| json!(v))),
            ("teacherForced", self.teacher_forced.as_ref().map(|v| json!(v))),
            ("codebookDelays", self.codebook_delays.as_ref().map(|v| json!(v))),
        ];
        for (key, value) in optional {
            if let Some(value) = value {
                m.insert(key.into(), value);
            }
        }
        Value::Object(m)
    }
}

/// A string field of the header within the schema's lengths (counted in UTF-16 units, as the reader does).
fn text_field(argument: &'static str, value: Option<&str>, min: usize) -> Result<()> {
    let Some(value) = value else { return Ok(()) };
    let units = value.encode_utf16().count();
    if units < min || units > 500 {
        let expected = if min > 0 { "a string of 1 to 500 characters" } else { "a string of at most 500 characters" };
        return Err(TraceError::Argument { call: "TraceWriter", argument, expected: expected.into(), found: format!("{units} characters") });
    }
    Ok(())
}
