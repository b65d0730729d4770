//! The demo bundle: where `parity` keeps it, the sizes bundle.json gives, and its weights as Candle tensors.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use candle_core::{Device, Tensor};
use serde_json::Value;

use crate::onnx::{read_initializers, Initializer};

/// The folder `parity` builds the demo bundle in (electron/engine/demo/resolve-demo-bundle.ts), as
/// python/tts_parity/demo/bundle.py finds it: $PARITY_CACHE_DIR, else $XDG_CACHE_HOME/tts-parity-studio, else
/// ~/.cache/tts-parity-studio; folder demo-bundle-v5-20240611.
pub fn demo_bundle_dir() -> PathBuf {
    let root = match std::env::var_os("PARITY_CACHE_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache"))
            .join("tts-parity-studio"),
    };
    root.join("demo-bundle-v5-20240611")
}

#[derive(Clone, Copy, Debug)]
pub struct DecoderSizes {
    pub layers: usize,
    pub heads: usize,
    pub kv_heads: usize,
    pub head_dim: usize,
}

/// What the port needs of bundle.json (docs/bundle-format.md).
pub struct Manifest {
    pub folder: PathBuf,
    pub sample_rate: u32,
    pub frame_rate: f64,
    pub codebooks: usize,
    pub eos: usize,
    pub bos: u32,
    pub text_bos: u32,
    pub frames_per_char: f64,
    pub max_bytes: usize,
    pub max_frames: usize,
    pub rows_per_codebook: usize,
    pub talker: DecoderSizes,
    pub code_predictor: DecoderSizes,
    files: HashMap<&'static str, String>,
}

fn field<'a>(m: &'a Value, path: &str, file: &Path) -> Result<&'a Value, String> {
    path.split('.').try_fold(m, |v, key| v.get(key)).ok_or_else(|| format!("{}: missing field \"{path}\" (docs/bundle-format.md)", file.display()))
}

fn number(m: &Value, path: &str, file: &Path) -> Result<f64, String> {
    field(m, path, file)?.as_f64().ok_or_else(|| format!("{}: \"{path}\" is not a number", file.display()))
}

fn sizes(m: &Value, section: &str, file: &Path) -> Result<DecoderSizes, String> {
    let n = |key: &str| number(m, &format!("{section}.{key}"), file).map(|v| v as usize);
    Ok(DecoderSizes { layers: n("layers")?, heads: n("heads")?, kv_heads: n("kvHeads")?, head_dim: n("headDim")? })
}

impl Manifest {
    pub fn read(folder: &Path) -> Result<Self, String> {
        let file = folder.join("bundle.json");
        let text = std::fs::read_to_string(&file).map_err(|e| {
            format!("{}: {e}; build the demo bundle with `node bin/parity.js bundle build-demo --out {}` (or any `parity synth` once), or pass --bundle DIR", file.display(), folder.display())
        })?;
        let m: Value = serde_json::from_str(&text).map_err(|e| format!("{}: not readable JSON ({e})", file.display()))?;
        if field(&m, "text.tokenizer", &file)?.as_str() != Some("byte") {
            return Err(format!("{}: text.tokenizer is not \"byte\"; the port runs the demo architecture only", file.display()));
        }
        let export = |section: &str, key: &str| -> Result<String, String> {
            field(&m, &format!("{section}.exports.{key}.file"), &file)?.as_str().map(String::from).ok_or_else(|| format!("{}: {section}.exports.{key}.file is not a string", file.display()))
        };
        let files = HashMap::from([
            ("embed", field(&m, "embed.export.file", &file)?.as_str().unwrap_or_default().to_string()),
            ("talker", export("talker", "eager-fp32")?),
            ("code_predictor", export("codePredictor", "eager-fp32")?),
        ]);
        let n = |path: &str| number(&m, path, &file);
        Ok(Manifest {
            folder: folder.into(),
            sample_rate: n("sampleRate")? as u32,
            frame_rate: n("frameRate")?,
            codebooks: n("codebooks")? as usize,
            eos: n("specialCodes.eos")? as usize,
            bos: n("specialCodes.bos")? as u32,
            text_bos: n("text.bos")? as u32,
            frames_per_char: n("text.framesPerChar")?,
            max_bytes: n("text.maxBytes")? as usize,
            max_frames: n("maxFrames")? as usize,
            rows_per_codebook: n("embed.codecRowsPerCodebook")? as usize,
            talker: sizes(&m, "talker", &file)?,
            code_predictor: sizes(&m, "codePredictor", &file)?,
            files,
        })
    }
}

/// One network's initializers as Candle tensors (f32, CPU).
pub struct Weights {
    file: String,
    inits: HashMap<String, Initializer>,
}

impl Weights {
    pub fn open(m: &Manifest, network: &'static str) -> Result<Self, String> {
        let path = m.folder.join(&m.files[network]);
        Ok(Weights { file: path.display().to_string(), inits: read_initializers(&path)? })
    }

    pub fn tensor(&self, name: &str) -> Result<Tensor, String> {
        let init = self.inits.get(name).ok_or_else(|| format!("{}: initializer \"{name}\" not found (the port reads the demo architecture's weights)", self.file))?;
        Tensor::from_vec(init.values.clone(), init.dims.as_slice(), &Device::Cpu).map_err(|e| format!("{}: {name}: {e}", self.file))
    }

    /// A scalar constant the export holds as an initializer (RMSNorm's eps is `const.float32.0.000001`).
    pub fn scalar(&self, name: &str) -> Result<f32, String> {
        match self.inits.get(name) {
            Some(init) if init.values.len() == 1 => Ok(init.values[0]),
            _ => Err(format!("{}: constant \"{name}\" not found; the port re-implements the demo architecture and this export was built with others", self.file)),
        }
    }
}
