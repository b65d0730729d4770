//! The one error type of the crate. Messages are one line and word a problem as `tts_parity`'s Python writer
//! does (python/tts_parity/trace_writer.py): the step, the field in the file, the argument of the call, what
//! was expected and what was found, so that a Rust port and a PyTorch engine report the same mistake alike.

use std::io;
use std::path::PathBuf;

/// What [`crate::TraceWriter`], [`crate::ModuleSidecar`] and [`crate::write_wav_float32`] refuse.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    /// An argument of a call cannot be taken: `TraceWriter: q: expected an integer >= 1, found 0`.
    #[error("{call}: {argument}: expected {expected}, found {found}")]
    Argument { call: &'static str, argument: &'static str, expected: String, found: String },

    /// A field of a step line would break a rule of the format:
    /// `step 3: "codes": expected 8 codes (q in the header), found 7`, or with the argument that carried it,
    /// `step 2: "codePredictorLogits" (code_predictor_logits): expected 7 rows (q-1), found 8`.
    #[error("step {step}: \"{field}\"{}: {problem}", argument.as_ref().map(|a| format!(" ({a})")).unwrap_or_default())]
    Step { step: u64, field: String, argument: Option<String>, problem: String },

    /// A step with nothing a comparison can use (`parity compare-trace` refuses such a line).
    #[error("step {step}: no \"logits\" statistic, \"codes\" or \"codePredictorLogits\" (a step needs at least one; docs/trace-format.md)")]
    EmptyStep { step: u64 },

    /// A call at the wrong time: `step 4: TraceWriter(a.jsonl): write_step() after close(): the writer is closed`.
    #[error("{}{owner}: {problem}", step.map(|s| format!("step {s}: ")).unwrap_or_default())]
    State { step: Option<u64>, owner: String, problem: String },

    /// An output path exists and the call was not asked to replace it.
    #[error("{what}: {} already exists (pass force: true to replace it)", path.display())]
    Exists { what: &'static str, path: PathBuf },

    /// An output path that is never replaced, or names no file: a folder, a device, a FIFO, a socket.
    #[error("{what}: {} {problem}", path.display())]
    NotAFile { what: &'static str, path: PathBuf, problem: &'static str },

    /// The file system refused: `TraceWriter: path: out/a.jsonl: Permission denied (os error 13)`.
    #[error("{what}: {}: {source}", path.display())]
    Io {
        what: &'static str,
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

/// `Result<T, TraceError>`.
pub type Result<T> = std::result::Result<T, TraceError>;

impl TraceError {
    pub(crate) fn io(what: &'static str, path: impl Into<PathBuf>, source: io::Error) -> Self {
        TraceError::Io { what, path: path.into(), source }
    }

    pub(crate) fn step(step: u64, field: impl Into<String>, argument: Option<String>, problem: impl Into<String>) -> Self {
        TraceError::Step { step, field: field.into(), argument, problem: problem.into() }
    }
}
