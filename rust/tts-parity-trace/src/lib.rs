//! Writes TTS Parity Studio's step trace, `tts-parity-trace/1` (docs/trace-format.md), from a Rust engine
//! (a Candle port, say), with the rules and refusals of the Python writer (`tts_parity.TraceWriter`): steps
//! 1, 2, 3... in order, q codes, q-1 code-predictor rows, statistics of raw rows computed bit for bit as the
//! studio's engine computes them, non-finite statistics as strings, NaN/Inf counts per stage, the float32
//! WAV beside the trace, module sidecars for the drill-down, files renamed into place only when complete.
//! `parity compare-trace a.jsonl b.jsonl` then localises where two runs part. docs/other-runtimes.md has the
//! guide; rust/candle-demo is a worked example.

mod error;
mod header;
mod json;
mod output_file;
mod record;
mod sidecar;
mod stats;
mod wav;
mod writer;

pub use error::{Result, TraceError};
pub use header::{TraceHeader, TRACE_SCHEMA};
pub use json::json_number;
pub use record::{StageCounts, StepRecord, TimesMs};
pub use sidecar::{sidecar_path_for, ModuleSidecar, MODULES_SCHEMA};
pub use stats::{count_non_finite, hidden_stats, logit_stats, HiddenStats, LogitStats, NonFinite, TopLogit, Value};
pub use wav::{wav_float32_bytes, write_wav_float32};
pub use writer::{GivenCounts, Step, TraceWriter};
