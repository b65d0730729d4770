//! `candle-demo`: the demo bundle's talker and code predictor ported to Candle (eager, KV cache grown by
//! concatenation, greedy), tracing every step through `tts-parity-trace` so that `parity compare-trace` can set
//! it beside the engine's own trace (docs/other-runtimes.md).
//!
//!   candle-demo --text "hello world" --out run/candle [--attention fused|sdpa|manual] [--dtype f32|f16]
//!               [--record-modules] [--bundle DIR] [--force]
//!
//! Writes OUT/trace.jsonl (and OUT/trace.modules.safetensors with --record-modules: every talker and
//! code-predictor layer's attention and MLP output, the talker's input and lm_head, every step). No audio: the
//! vocoder is not ported. Exit status: 0 done, 2 bad input (one line naming it), 3 internal error.

mod attention;
mod bundle;
mod decoder;
mod model;
mod onnx;

use std::path::PathBuf;
use std::process::ExitCode;

use candle_core::DType;
use tts_parity_trace::{ModuleSidecar, Step, TimesMs, TraceHeader, TraceWriter};

use attention::Kernel;
use model::Demo;

const USAGE: &str = "usage: candle-demo --text TEXT --out DIR [--attention fused|sdpa|manual] [--dtype f32|f16] [--record-modules] [--bundle DIR] [--force]";

struct Args {
    text: String,
    out: PathBuf,
    bundle: PathBuf,
    kernel: Kernel,
    dtype: DType,
    record: bool,
    force: bool,
}

fn parse(mut argv: impl Iterator<Item = String>) -> Result<Args, String> {
    let (mut text, mut out, mut bundle) = (None, None, bundle::demo_bundle_dir());
    let (mut kernel, mut dtype, mut record, mut force) = (Kernel::Fused, DType::F32, false, false);
    while let Some(flag) = argv.next() {
        let mut value = || argv.next().ok_or_else(|| format!("{flag}: expected a value after it; {USAGE}"));
        match flag.as_str() {
            "--text" => text = Some(value()?),
            "--out" => out = Some(PathBuf::from(value()?)),
            "--bundle" => bundle = PathBuf::from(value()?),
            "--attention" => {
                kernel = match value()?.as_str() {
                    "fused" => Kernel::Fused,
                    "sdpa" => Kernel::Sdpa,
                    "manual" => Kernel::Manual,
                    other => return Err(format!("--attention: expected fused, sdpa or manual, found \"{other}\"")),
                }
            }
            "--dtype" => {
                dtype = match value()?.as_str() {
                    "f32" => DType::F32,
                    "f16" => DType::F16,
                    other => return Err(format!("--dtype: expected f32 or f16 (the attention's dtype), found \"{other}\"")),
                }
            }
            "--record-modules" => record = true,
            "--force" => force = true,
            other => return Err(format!("unknown option \"{other}\"; {USAGE}")),
        }
    }
    let text = text.ok_or_else(|| format!("--text is required; {USAGE}"))?;
    let out = out.ok_or_else(|| format!("--out is required; {USAGE}"))?;
    Ok(Args { text, out, bundle, kernel, dtype, record, force })
}

/// A writer's refusal as this command's line: an existing output names --force, the crate's own words name its API.
fn said(e: tts_parity_trace::TraceError) -> String {
    match e {
        tts_parity_trace::TraceError::Exists { path, .. } => format!("{} already exists (pass --force to replace it)", path.display()),
        other => other.to_string(),
    }
}

fn run(args: Args) -> Result<String, String> {
    let demo = Demo::load(bundle::Manifest::read(&args.bundle)?)?;
    let (ids, frames) = demo.tokenize(&args.text)?;
    let profile = format!("{},{}", match args.kernel {
        Kernel::Fused => "fused",
        Kernel::Sdpa => "sdpa",
        Kernel::Manual => "manual",
    }, if args.dtype == DType::F16 { "f16" } else { "f32" });
    let trace = args.out.join("trace.jsonl");
    let sidecar_path = tts_parity_trace::sidecar_path_for(&trace);
    let mut header = TraceHeader::new(format!("candle-demo {} eager", env!("CARGO_PKG_VERSION")), demo.m.codebooks as u32, demo.m.frame_rate, demo.m.sample_rate)
        .profile(profile.clone())
        .text(args.text.clone());
    let mut sidecar = None;
    if args.record {
        header = header.modules(sidecar_path.file_name().unwrap().to_string_lossy());
        sidecar = Some(ModuleSidecar::create(&sidecar_path, "embed|feedback|talker.*|code_predictor.*", args.force).map_err(said)?);
    }
    let mut tw = TraceWriter::create(&trace, header, args.force).map_err(said)?;
    let mut nan_steps = vec![];
    demo.synthesize(&ids, frames, args.kernel, args.dtype, |step, out| {
        if let Some(s) = sidecar.as_mut() {
            s.step(step).map_err(said)?;
            for (name, t) in &out.taps {
                let values: Vec<f32> = t.flatten_all().and_then(|t| t.to_vec1()).map_err(|e| format!("internal: candle: {e}"))?;
                s.record(name, t.dims(), &values).map_err(said)?;
            }
        }
        if out.talker_logits.iter().chain(&out.hidden).any(|x| x.is_nan()) {
            nan_steps.push(step);
        }
        let times = TimesMs { talker: out.talker_ms, code_predictor: out.code_predictor_ms, vocoder: None };
        let step = Step::new().talker_logits(&out.talker_logits).codes(&out.codes).code_predictor_logits(&out.code_predictor_logits).hidden(&out.hidden).times_ms(times);
        tw.write_step(step).map_err(said)
    })?;
    if let Some(s) = sidecar.as_mut() {
        s.close().map_err(said)?;
    }
    tw.close().map_err(said)?;
    let nan = match nan_steps.first() {
        Some(first) => format!("; NaN in the talker from step {first} ({} of {frames} steps)", nan_steps.len()),
        None => String::new(),
    };
    Ok(format!("wrote {} ({frames} steps, attention {profile}{}){nan}", trace.display(), if args.record { ", with module sidecar" } else { "" }))
}

fn main() -> ExitCode {
    let outcome = parse(std::env::args().skip(1)).and_then(run);
    match outcome {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(line) if line.starts_with("internal: ") => {
            eprintln!("candle-demo: internal error: {}", &line["internal: ".len()..]);
            ExitCode::from(3)
        }
        Err(line) => {
            eprintln!("candle-demo: {line}");
            ExitCode::from(2)
        }
    }
}
