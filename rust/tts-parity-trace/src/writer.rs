//! TraceWriter: writes a `tts-parity-trace/1` trace (docs/trace-format.md) and its WAV from a decode loop,
//! with the vocabulary and rules of `tts_parity.TraceWriter` (python/tts_parity/trace_writer.py):
//!
//! ```no_run
//! use tts_parity_trace::{Step, TraceHeader, TraceWriter};
//! # fn main() -> tts_parity_trace::Result<()> {
//! # let (talker_row, codes, cp_rows, audio) = (vec![0f32; 129], vec![0u32; 8], vec![vec![0f32; 128]; 7], vec![0f32; 1920]);
//! let mut tw = TraceWriter::create("a.jsonl", TraceHeader::new("candle eager", 8, 12.5, 24000), false)?;
//! // step 1 = the prefill, then one call per decode step: raw rows, before any processing
//! tw.write_step(Step::new().talker_logits(&talker_row).codes(&codes).code_predictor_logits(&cp_rows))?;
//! tw.set_audio(&audio, None)?;      // optional: the WAV beside the trace
//! tw.close()?;                      // the trace (and the WAV) appear now
//! # Ok(()) }
//! ```
//!
//! Every line is checked before it is written, so a trace this writes is one `parity compare-trace` reads.
//! The files are written under a temporary name and renamed on close; if close fails, or the writer is
//! dropped without close (an early `?` return, a panic), the lines so far are kept as `<trace>.partial` and no
//! trace appears under the real name.

use std::path::{Path, PathBuf};

use crate::error::{Result, TraceError};
use crate::header::TraceHeader;
use crate::output_file::{check_output_path, AtomicFile};
use crate::record::{StageCounts, StepRecord, TimesMs};
use crate::stats::{count_non_finite, hidden_stats, logit_stats, NonFinite};
use crate::wav::write_wav_float32;

/// Counts per stage given by the caller; a stage left `None` is counted by the writer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GivenCounts {
    pub talker: Option<u64>,
    pub code_predictor: Option<u64>,
    pub vocoder: Option<u64>,
}

/// What one step hands [`TraceWriter::write_step`]; a field left out is left out of the line.
#[derive(Clone, Debug, Default)]
pub struct Step<'a> {
    talker_logits: Option<&'a [f32]>,
    codes: Option<&'a [u32]>,
    code_predictor_logits: Option<Vec<&'a [f32]>>,
    hidden: Option<&'a [f32]>,
    nan: GivenCounts,
    inf: GivenCounts,
    times_ms: Option<TimesMs>,
}

impl<'a> Step<'a> {
    pub fn new() -> Self {
        Step::default()
    }

    /// The talker's RAW logit row for codebook 0, `[vocab]`: every id, special ids and EOS included, before
    /// any processing (no suppression mask, temperature, top-k/p or repetition penalty).
    pub fn talker_logits(mut self, row: &'a [f32]) -> Self {
        self.talker_logits = Some(row);
        self
    }

    /// The frame's `q` codes (codes[0] from the talker, codes[1..q-1] from the code predictor).
    pub fn codes(mut self, codes: &'a [u32]) -> Self {
        self.codes = Some(codes);
        self
    }

    /// The `q-1` raw rows of the code predictor (codebooks 1..q-1), each `[vocab_cp]`.
    pub fn code_predictor_logits<R: AsRef<[f32]>>(mut self, rows: &'a [R]) -> Self {
        self.code_predictor_logits = Some(rows.iter().map(|r| r.as_ref()).collect());
        self
    }

    /// Any float tensor of the step (e.g. the talker's last hidden state), flattened; its statistics are kept.
    pub fn hidden(mut self, values: &'a [f32]) -> Self {
        self.hidden = Some(values);
        self
    }

    /// NaN counts per stage the engine counted itself; the others are counted by the writer (talker: logits +
    /// hidden; code predictor: its rows; vocoder: this frame of the audio given to set_audio(), else 0).
    pub fn nan(mut self, counts: GivenCounts) -> Self {
        self.nan = counts;
        self
    }

    /// +-Infinity counts per stage, as [`Step::nan`].
    pub fn inf(mut self, counts: GivenCounts) -> Self {
        self.inf = counts;
        self
    }

    /// Wall time per stage in ms.
    pub fn times_ms(mut self, times: TimesMs) -> Self {
        self.times_ms = Some(times);
        self
    }
}

/// Writes one trace; see the module documentation.
pub struct TraceWriter {
    path: PathBuf,
    wav_path: Option<PathBuf>,
    header: TraceHeader,
    force: bool,
    file: AtomicFile,
    records: Vec<StepRecord>,
    vocoder_fill: Vec<(bool, bool)>,
    audio: Option<Vec<f32>>,
    closed: bool,
}

impl TraceWriter {
    /// Opens a trace at `path` (`.jsonl`; missing folders are created) and writes its header. An existing
    /// file is refused unless `force`; a folder, FIFO or device is never replaced.
    pub fn create(path: impl AsRef<Path>, header: TraceHeader, force: bool) -> Result<Self> {
        header.check()?;
        let path = path.as_ref().to_path_buf();
        let mut file = AtomicFile::create(&path, force, "TraceWriter: path")?;
        file.write_all(format!("{}\n", header.to_json()).as_bytes())?;
        Ok(TraceWriter { path, wav_path: None, header, force, file, records: vec![], vocoder_fill: vec![], audio: None, closed: false })
    }

    /// The trace's path (where it appears at close).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Steps written so far.
    pub fn steps_written(&self) -> u64 {
        self.records.len() as u64
    }

    pub fn is_closed(&self) -> bool {
        self.closed
    }

    fn owner(&self) -> String {
        format!("TraceWriter({})", self.path.display())
    }

    fn next_step(&self, call: &str) -> Result<u64> {
        let n = self.steps_written() + 1;
        if self.closed {
            return Err(TraceError::State { step: Some(n), owner: self.owner(), problem: format!("{call}() after close(): the writer is closed") });
        }
        Ok(n)
    }

    /// Writes the next step (1 = the prefill that yields frame 1, then one per decode step), computing the
    /// statistics and NaN/Inf counts from the raw rows.
    pub fn write_step(&mut self, step: Step<'_>) -> Result<()> {
        let n = self.next_step("write_step")?;
        let q = self.header.q as usize;
        let row = |values: &[f32], field: String, argument: String| -> Result<()> {
            if values.is_empty() {
                return Err(TraceError::step(n, field, Some(argument), "expected a row of at least one logit, found an empty row"));
            }
            Ok(())
        };
        if let Some(r) = step.talker_logits {
            row(r, "logits".into(), "talker_logits".into())?;
        }
        if let Some(rows) = &step.code_predictor_logits {
            for (i, r) in rows.iter().enumerate() {
                row(r, format!("codePredictorLogits.{i}"), format!("code_predictor_logits[{i}]"))?;
            }
            if rows.len() + 1 != q {
                return Err(TraceError::step(
                    n,
                    "codePredictorLogits",
                    Some("code_predictor_logits".into()),
                    format!("expected {} rows (q-1), found {}", q - 1, rows.len()),
                ));
            }
        }
        let mut talker = step.talker_logits.map(count_non_finite).unwrap_or_default();
        let hidden = step.hidden.map(count_non_finite).unwrap_or_default();
        talker = NonFinite { nan: talker.nan + hidden.nan, inf: talker.inf + hidden.inf };
        let cp = step.code_predictor_logits.iter().flatten().map(|r| count_non_finite(r)).fold(NonFinite::default(), |a, b| NonFinite { nan: a.nan + b.nan, inf: a.inf + b.inf });
        let stage = |given: GivenCounts, talker: u64, cp: u64| StageCounts {
            talker: given.talker.unwrap_or(talker),
            code_predictor: given.code_predictor.unwrap_or(cp),
            vocoder: given.vocoder.unwrap_or(0),
        };
        let record = StepRecord {
            logits: step.talker_logits.map(logit_stats),
            codes: step.codes.map(<[u32]>::to_vec),
            code_predictor_logits: step.code_predictor_logits.as_ref().map(|rows| rows.iter().map(|r| logit_stats(r)).collect()),
            nan: Some(stage(step.nan, talker.nan, cp.nan)),
            inf: Some(stage(step.inf, talker.inf, cp.inf)),
            times_ms: step.times_ms,
            hidden: step.hidden.map(hidden_stats),
        };
        self.append(n, record, (step.nan.vocoder.is_none(), step.inf.vocoder.is_none()))
    }

    /// Writes one step record as is (for engines that compute the statistics themselves), checked in full.
    /// `fill_vocoder` replaces its nan/inf vocoder counts at close by the counts of this frame's samples of
    /// the audio given to set_audio().
    pub fn write_record(&mut self, record: StepRecord, fill_vocoder: bool) -> Result<()> {
        let n = self.next_step("write_record")?;
        self.append(n, record, (fill_vocoder, fill_vocoder))
    }

    fn append(&mut self, n: u64, record: StepRecord, fill: (bool, bool)) -> Result<()> {
        record.check(n, self.header.q)?;
        self.file.write_all(format!("{}\n", record.to_json(n)).as_bytes())?;
        self.records.push(record);
        self.vocoder_fill.push(fill);
        Ok(())
    }

    /// The run's audio (mono float samples at `sample_rate`), written as a float32 WAV at close, and used to
    /// count each frame's vocoder NaN/Inf where a step did not give them. `wav_path`: default the trace path
    /// with `.wav`; an existing file is refused unless the writer was made with `force`.
    pub fn set_audio(&mut self, samples: &[f32], wav_path: Option<&Path>) -> Result<()> {
        if self.closed {
            return Err(TraceError::State { step: None, owner: self.owner(), problem: "set_audio() after close(): the writer is closed".into() });
        }
        let target = wav_path.map(Path::to_path_buf).unwrap_or_else(|| self.path.with_extension("wav"));
        check_output_path(&target, self.force, "TraceWriter.set_audio: wav_path")?;
        self.wav_path = Some(target);
        self.audio = Some(samples.to_vec());
        Ok(())
    }

    /// Finishes the trace and writes the WAV: both appear under their names only now. A second close does
    /// nothing. With no step written nothing is kept and the call fails.
    pub fn close(&mut self) -> Result<()> {
        if self.closed {
            return Ok(());
        }
        self.closed = true;
        if self.records.is_empty() {
            self.file.discard();
            return Err(TraceError::State {
                step: None,
                owner: self.owner(),
                problem: "close() with no steps written (a trace needs at least step 1, the prefill); nothing was kept".into(),
            });
        }
        let done = self.finish();
        if done.is_err() {
            self.keep_partial();
        }
        done
    }

    fn finish(&mut self) -> Result<()> {
        if let Some(samples) = self.audio.take() {
            if self.fill_vocoder_counts(&samples) {
                self.rewrite()?;
            }
            let wav = self.wav_path.clone().expect("set with the audio");
            write_wav_float32(&wav, &samples, self.header.sample_rate, self.force)?;
        }
        self.file.commit()
    }

    /// Frame f holds samples [f*sr/fr, (f+1)*sr/fr) (rounded), as the engine counts them.
    fn fill_vocoder_counts(&mut self, samples: &[f32]) -> bool {
        let hop = f64::from(self.header.sample_rate) / self.header.frame_rate;
        let mut changed = false;
        for (f, (record, &(fill_nan, fill_inf))) in self.records.iter_mut().zip(&self.vocoder_fill).enumerate() {
            let begin = ((f as f64 * hop).round() as usize).min(samples.len());
            let end = (((f + 1) as f64 * hop).round() as usize).clamp(begin, samples.len());
            let counts = count_non_finite(&samples[begin..end]);
            if let (true, Some(nan)) = (fill_nan, record.nan.as_mut()) {
                nan.vocoder = counts.nan;
                changed = true;
            }
            if let (true, Some(inf)) = (fill_inf, record.inf.as_mut()) {
                inf.vocoder = counts.inf;
                changed = true;
            }
        }
        changed
    }

    fn rewrite(&mut self) -> Result<()> {
        self.file.truncate()?;
        let mut text = format!("{}\n", self.header.to_json());
        for (i, record) in self.records.iter().enumerate() {
            text.push_str(&format!("{}\n", record.to_json(i as u64 + 1)));
        }
        self.file.write_all(text.as_bytes())
    }

    fn keep_partial(&mut self) {
        let partial = PathBuf::from(format!("{}.partial", self.path.display()));
        if self.file.keep_as(&partial).is_err() {
            self.file.discard();
        }
    }
}

impl Drop for TraceWriter {
    /// A writer dropped without close(): its lines become `<trace>.partial` (none: nothing is kept).
    fn drop(&mut self) {
        if !self.file.is_open() {
            return;
        }
        if self.records.is_empty() {
            self.file.discard();
        } else {
            self.keep_partial();
        }
    }
}
