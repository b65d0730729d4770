//! What the crate writes is what the rest of the project reads: every line passes tts_parity's validator
//! (the JSON Schemas generated from the zod schemas, plus the cross-line rules), and `parity compare-trace`
//! (the TypeScript reader and localiser) reads two Rust traces with their WAVs and sidecars and names the
//! planted difference: its step, stage and codebook, the first non-finite value, and the module.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;
use tts_parity_trace::{sidecar_path_for, ModuleSidecar, Step, TimesMs, TraceHeader, TraceWriter};

const Q: usize = 4;
const VOCAB: usize = 64;
const STEPS: usize = 6;
const RATE: u32 = 24000;
const HOP: usize = 1920; // 24000 / 12.5

/// A made-up decode run from a fixed formula: raw rows per step, codes, a hidden state and audio, with an
/// Inf in step 2's talker row and a NaN in step 5's codebook-1 row.
struct Run {
    talker: Vec<Vec<f32>>,
    cp: Vec<Vec<Vec<f32>>>,
    codes: Vec<Vec<u32>>,
    audio: Vec<f32>,
}

fn run() -> Run {
    let value = |s: usize, k: usize, i: usize| ((s * 131 + k * 17 + i) as f32 * 0.61).sin() * 3.0;
    let mut talker: Vec<Vec<f32>> = (0..STEPS).map(|s| (0..VOCAB).map(|i| value(s, 0, i)).collect()).collect();
    talker[1][5] = f32::INFINITY;
    let mut cp: Vec<Vec<Vec<f32>>> = (0..STEPS).map(|s| (1..Q).map(|k| (0..VOCAB).map(|i| value(s, k, i)).collect()).collect()).collect();
    cp[4][0][9] = f32::NAN;
    let codes = (0..STEPS).map(|s| (0..Q).map(|k| ((s * 7 + k * 3) % VOCAB) as u32).collect()).collect();
    let audio = (0..STEPS * HOP).map(|n| 0.3 * (2.0 * std::f32::consts::PI * 200.0 * n as f32 / RATE as f32).sin()).collect();
    Run { talker, cp, codes, audio }
}

fn write(dir: &Path, name: &str, r: &Run, bug_at: Option<usize>) -> PathBuf {
    let path = dir.join(format!("{name}.jsonl"));
    let sidecar_path = sidecar_path_for(&path);
    let sidecar_name = sidecar_path.file_name().unwrap().to_str().unwrap().to_string();
    let header = TraceHeader::new("rust cross-language", Q as u32, 12.5, RATE).profile("eager").modules(sidecar_name);
    let mut tw = TraceWriter::create(&path, header, false).unwrap();
    let mut sidecar = ModuleSidecar::create(&sidecar_path, "layers.0.mlp, layers.1.mlp", false).unwrap();
    for s in 0..STEPS {
        let mut talker = r.talker[s].clone();
        let mut inner = vec![0.25f32; 8];
        let mut outer = vec![0.5f32; 8];
        if bug_at == Some(s + 1) {
            talker.iter_mut().for_each(|x| *x *= 1.01);
            outer[3] = 0.75; // the planted module: layers.1.mlp at this step only
        }
        inner[s % 8] = s as f32;
        outer[s % 8] += s as f32;
        sidecar.step(s as u64 + 1).unwrap();
        sidecar.record("layers.0.mlp", &[1, 8], &inner).unwrap();
        sidecar.record("layers.1.mlp", &[1, 8], &outer).unwrap();
        let times = TimesMs { talker: 1.0 + s as f64, code_predictor: 0.5, vocoder: Some(0.25) };
        tw.write_step(Step::new().talker_logits(&talker).codes(&r.codes[s]).code_predictor_logits(&r.cp[s]).hidden(&outer).times_ms(times)).unwrap();
    }
    tw.set_audio(&r.audio, None).unwrap();
    sidecar.close().unwrap();
    tw.close().unwrap();
    path
}

#[test]
fn every_line_passes_the_generated_json_schema_and_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(dir.path(), "a", &run(), None);
    assert_eq!(common::schema_problems(&a), "", "the validator refused a line the crate wrote");
    // The validator can refuse: a negative code and a bare NaN (not JSON at all) in hand-written lines.
    let broken = dir.path().join("broken.jsonl");
    let text = fs::read_to_string(&a).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    lines[1] = lines[1].replacen("\"codes\":[0,", "\"codes\":[-1,", 1);
    fs::write(&broken, lines.join("\n") + "\n").unwrap();
    let problems = common::schema_problems(&broken);
    assert!(problems.starts_with("line 2: step 1: \"codes.0\": -1 is less than the minimum of 0"), "{problems}");
}

#[test]
fn compare_trace_reads_the_rust_traces_and_localises_the_planted_difference() {
    let dir = tempfile::tempdir().unwrap();
    let r = run();
    let a = write(dir.path(), "a", &r, None);
    let b = write(dir.path(), "b", &r, Some(4));
    let out_dir = dir.path().join("out");
    let p = |x: &Path| x.to_str().unwrap().to_string();
    let wav = |n: &str| p(&dir.path().join(n));
    let out = common::parity(&["compare-trace", &p(&a), &p(&b), "--wav-a", &wav("a.wav"), "--wav-b", &wav("b.wav"), "--out", &p(&out_dir)]);
    assert!(out.status.success(), "{}", common::text(&out));
    let report: Value = serde_json::from_str(&fs::read_to_string(out_dir.join("report.json")).unwrap()).unwrap();
    let d = &report["divergence"];
    assert_eq!((d["firstStep"].as_u64(), d["stage"].as_str(), d["codebook"].as_u64()), (Some(4), Some("talker-logits"), Some(0)), "{d}");
    assert_eq!(d["firstNonFinite"]["a"], serde_json::json!({"step": 2, "stage": "talker", "nan": 0, "inf": 1}));
    assert_eq!(report["moduleDrill"]["status"], "found", "{}", report["moduleDrill"]);
    assert_eq!(report["moduleDrill"]["module"]["name"], "layers.1.mlp");
    assert_eq!(report["traces"]["a"]["header"]["engine"], "rust cross-language");
    assert_eq!(report["sources"]["a"]["format"], "float32");
    assert_eq!(report["metrics"]["bitIdentical"], true, "the two WAVs are the same samples");
    // A against itself, with its WAV: every statistic equal (never "identical" with a non-finite one in it).
    let same = common::parity(&["compare-trace", &p(&a), &p(&a), "--wav-a", &wav("a.wav"), "--wav-b", &wav("a.wav"), "--json"]);
    assert!(same.status.success(), "{}", common::text(&same));
    let same: Value = serde_json::from_slice(&same.stdout).unwrap();
    assert_eq!(same["verdict"], "within-tolerance", "{}", same["verdict"]);
    assert_eq!(same["divergence"]["largestLogitDiff"], Value::Null, "{}", same["divergence"]);
    assert_eq!(same["metrics"]["bitIdentical"], true);
}

#[test]
fn the_wav_is_byte_for_byte_the_python_writers() {
    let dir = tempfile::tempdir().unwrap();
    let samples: Vec<f32> = (0..1000).map(|n| (n as f32 * 0.01).sin() * 0.5).chain([f32::NAN, f32::INFINITY, -0.0]).collect();
    let ours = dir.path().join("rust.wav");
    tts_parity_trace::write_wav_float32(&ours, &samples, 22050, false).unwrap();
    let raw = dir.path().join("samples.f32");
    fs::write(&raw, samples.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>()).unwrap();
    let theirs = dir.path().join("python.wav");
    let script = "import sys, numpy as np\nfrom tts_parity.wav import write_wav_float32\nwrite_wav_float32(sys.argv[2], np.fromfile(sys.argv[1], '<f4'), 22050)";
    let out = common::python().args(["-c", script]).arg(&raw).arg(&theirs).output().unwrap();
    assert!(out.status.success(), "{}", common::text(&out));
    assert_eq!(fs::read(&ours).unwrap(), fs::read(&theirs).unwrap());
}

