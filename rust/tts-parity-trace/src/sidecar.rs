//! The module sidecar (`tts-parity-modules/1`, docs/python-modules.md): a safetensors file of chosen modules'
//! outputs at chosen steps, keyed `{step}/{seq:05}/{module name}` (seq: the output's place in the step's
//! execution order), F32, `__metadata__.schema` = "tts-parity-modules/1". `parity compare-trace` walks two of
//! them at the first divergent step and names the first module whose output differs or holds a NaN.
//! Written with the `safetensors` crate (its `serialize`), renamed into place when complete.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use safetensors::tensor::{Dtype, TensorView};

use crate::error::{Result, TraceError};
use crate::output_file::{check_output_path, write_atomically};

/// The `__metadata__.schema` of a sidecar.
pub const MODULES_SCHEMA: &str = "tts-parity-modules/1";

/// `run/a.jsonl` -> `run/a.modules.safetensors`, the name `parity compare-trace` looks for beside a trace.
pub fn sidecar_path_for(trace: impl AsRef<Path>) -> PathBuf {
    trace.as_ref().with_extension("modules.safetensors")
}

/// Records module outputs step by step and writes them at [`ModuleSidecar::close`], with the step rules of
/// the Python recorders (python/tts_parity/_steps.py): steps are entered 1, 2, 3... in order, each once.
///
/// ```no_run
/// # fn main() -> tts_parity_trace::Result<()> {
/// let mut sidecar = tts_parity_trace::ModuleSidecar::create("a.modules.safetensors", "^talker\\.layers\\.\\d+\\.self_attn$", false)?;
/// sidecar.step(1)?;
/// sidecar.record("talker.layers.0.self_attn", &[1, 5, 64], &vec![0.0f32; 320])?;
/// sidecar.close()?;
/// # Ok(()) }
/// ```
pub struct ModuleSidecar {
    path: PathBuf,
    force: bool,
    modules: String,
    last: u64,
    current: Option<u64>,
    seq: usize,
    outputs: Vec<(String, Vec<usize>, Vec<u8>)>,
    closed: bool,
}

impl ModuleSidecar {
    /// A sidecar at `path` (refused now if it exists and `force` is false). `modules` says what was recorded
    /// (the Python recorder stores its regular expression there); it goes into the metadata.
    pub fn create(path: impl AsRef<Path>, modules: &str, force: bool) -> Result<Self> {
        let path = path.as_ref().to_path_buf();
        check_output_path(&path, force, "ModuleSidecar: path")?;
        Ok(ModuleSidecar { path, force, modules: modules.into(), last: 0, current: None, seq: 0, outputs: vec![], closed: false })
    }

    fn owner(&self) -> String {
        format!("ModuleSidecar({})", self.path.display())
    }

    fn state(&self, step: Option<u64>, problem: String) -> TraceError {
        TraceError::State { step, owner: self.owner(), problem }
    }

    /// Enters step `n` (1 = the prefill); the outputs recorded next belong to it, in the order recorded.
    pub fn step(&mut self, n: u64) -> Result<()> {
        if self.closed {
            return Err(self.state(Some(n), "step() after close(): the recorder is closed".into()));
        }
        if n == 0 {
            return Err(TraceError::Argument { call: "ModuleSidecar::step", argument: "step", expected: "an integer >= 1 (1 = the prefill)".into(), found: "0".into() });
        }
        let expected = self.last + 1;
        if n == self.last {
            return Err(self.state(Some(n), format!("step {n} entered twice; each step is entered once, in order")));
        }
        if n < self.last {
            return Err(self.state(Some(n), format!("entered after step {}; steps are entered 1, 2, 3... in order (expected step {expected})", self.last)));
        }
        if n > expected {
            return Err(self.state(Some(n), format!("entered after step {}, skipping step {expected}; steps are entered 1, 2, 3... in order, each once", self.last)));
        }
        self.last = n;
        self.current = Some(n);
        self.seq = 0;
        Ok(())
    }

    /// Records one output of module `name` (shape `shape`, row-major f32 values) in the current step.
    pub fn record(&mut self, name: &str, shape: &[usize], values: &[f32]) -> Result<()> {
        let Some(step) = self.current.filter(|_| !self.closed) else {
            let problem = if self.closed { "record() after close(): the recorder is closed" } else { "record() before step(1): enter a step first" };
            return Err(self.state(None, problem.into()));
        };
        let elements: usize = shape.iter().product();
        if elements != values.len() {
            return Err(TraceError::Argument {
                call: "ModuleSidecar::record",
                argument: "values",
                expected: format!("{elements} values (shape {shape:?})"),
                found: format!("{} for module \"{name}\" at step {step}", values.len()),
            });
        }
        if name.is_empty() {
            return Err(TraceError::Argument { call: "ModuleSidecar::record", argument: "name", expected: "a module name".into(), found: "\"\"".into() });
        }
        let bytes = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.outputs.push((format!("{step}/{:05}/{name}", self.seq), shape.to_vec(), bytes));
        self.seq += 1;
        Ok(())
    }

    /// Writes the sidecar (atomically) and closes the recorder; a second close does nothing.
    pub fn close(&mut self) -> Result<()> {
        if self.closed {
            return Ok(());
        }
        self.closed = true;
        let views = self
            .outputs
            .iter()
            .map(|(key, shape, bytes)| {
                TensorView::new(Dtype::F32, shape.clone(), bytes).map(|v| (key.clone(), v)).map_err(|e| {
                    TraceError::Argument { call: "ModuleSidecar::close", argument: "outputs", expected: "F32 tensors".into(), found: format!("{key}: {e}") }
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let metadata = HashMap::from([("schema".to_string(), MODULES_SCHEMA.to_string()), ("modules".to_string(), self.modules.clone())]);
        let bytes = safetensors::serialize(views, Some(metadata)).map_err(|e| TraceError::Argument {
            call: "ModuleSidecar::close",
            argument: "outputs",
            expected: "tensors safetensors can serialize".into(),
            found: e.to_string(),
        })?;
        write_atomically(&bytes, &self.path, self.force, "ModuleSidecar: path")
    }
}
