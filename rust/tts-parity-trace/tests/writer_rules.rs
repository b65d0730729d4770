//! The writer's rules and refusals, worded as python/tts_parity/trace_writer.py words them, and its files:
//! renamed into place only at close, `.partial` on failure, an existing file refused unless forced.

use std::fs;
use std::path::Path;

use serde_json::Value;
use tts_parity_trace::{
    write_wav_float32, GivenCounts, LogitStats, ModuleSidecar, Step, StepRecord, TimesMs, TraceError, TraceHeader, TraceWriter,
};

const Q: u32 = 4;

fn header() -> TraceHeader {
    TraceHeader::new("rust rules", Q, 12.5, 24000)
}

fn rows() -> (Vec<f32>, Vec<u32>, Vec<Vec<f32>>) {
    (vec![0.5, 2.0, -1.0], vec![1, 2, 0, 1], vec![vec![1.0, 0.0]; Q as usize - 1])
}

fn lines(path: &Path) -> Vec<Value> {
    fs::read_to_string(path).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn steps_are_numbered_1_2_3_and_the_trace_appears_only_at_close() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run/a.jsonl"); // a missing folder is created
    let (talker, codes, cp) = rows();
    let mut tw = TraceWriter::create(&path, header().profile("eager").seed(3), false).unwrap();
    for _ in 0..3 {
        tw.write_step(Step::new().talker_logits(&talker).codes(&codes).code_predictor_logits(&cp)).unwrap();
    }
    assert!(!path.exists(), "the trace appeared before close");
    tw.close().unwrap();
    tw.close().unwrap(); // a second close does nothing
    let l = lines(&path);
    assert_eq!(l[0], serde_json::json!({"schema": "tts-parity-trace/1", "engine": "rust rules", "q": 4, "frameRate": 12.5, "sampleRate": 24000, "profile": "eager", "seed": 3}));
    assert_eq!(l[1..].iter().map(|s| s["step"].as_u64().unwrap()).collect::<Vec<_>>(), vec![1, 2, 3]);
    assert_eq!(l[1]["logits"]["argmax"], 1);
    assert_eq!(l[1]["codePredictorLogits"].as_array().unwrap().len(), 3);
    assert_eq!(l[1]["nan"], serde_json::json!({"talker": 0, "codePredictor": 0, "vocoder": 0}));
    let err = tw.write_step(Step::new().codes(&codes)).unwrap_err();
    assert_eq!(err.to_string(), format!("step 4: TraceWriter({}): write_step() after close(): the writer is closed", path.display()));
    assert!(matches!(err, TraceError::State { step: Some(4), .. }));
}

#[test]
fn q_codes_and_q_minus_1_rows_are_refused_naming_step_field_and_argument() {
    let dir = tempfile::tempdir().unwrap();
    let mut tw = TraceWriter::create(dir.path().join("a.jsonl"), header(), false).unwrap();
    let (talker, codes, cp) = rows();
    let err = tw.write_step(Step::new().codes(&codes[..3])).unwrap_err();
    assert_eq!(err.to_string(), "step 1: \"codes\": expected 4 codes (q in the header), found 3");
    let four = vec![vec![0.0f32; 2]; 4];
    let err = tw.write_step(Step::new().talker_logits(&talker).code_predictor_logits(&four)).unwrap_err();
    assert_eq!(err.to_string(), "step 1: \"codePredictorLogits\" (code_predictor_logits): expected 3 rows (q-1), found 4");
    let err = tw.write_step(Step::new().talker_logits(&[])).unwrap_err();
    assert_eq!(err.to_string(), "step 1: \"logits\" (talker_logits): expected a row of at least one logit, found an empty row");
    let err = tw.write_step(Step::new().hidden(&talker)).unwrap_err();
    assert!(matches!(err, TraceError::EmptyStep { step: 1 }), "{err}");
    let times = TimesMs { talker: f64::NAN, code_predictor: 1.0, vocoder: None };
    let err = tw.write_step(Step::new().codes(&codes).times_ms(times)).unwrap_err();
    assert!(err.to_string().starts_with("step 1: \"timesMs.talker\" (times_ms): NaN is not JSON: a non-finite number is written as the string \"NaN\""), "{err}");
    // A refused step is not written: the next one is still step 1.
    tw.write_step(Step::new().talker_logits(&talker).codes(&codes).code_predictor_logits(&cp)).unwrap();
    let record = StepRecord { logits: Some(LogitStats { mean: 0.0, std: 0.0, min: 0.0, max: 0.0, argmax: 0, top5: vec![tts_parity_trace::TopLogit { id: 0, logit: 0.0 }; 6] }), ..Default::default() };
    let err = tw.write_record(record, false).unwrap_err();
    assert_eq!(err.to_string(), "step 2: \"logits.top5\": expected at most 5 entries, found 6");
    tw.close().unwrap();
}

#[test]
fn header_arguments_are_refused_before_any_file_is_made() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.jsonl");
    let cases = [
        (TraceHeader::new("x", 0, 12.5, 24000), "TraceWriter: q: expected an integer >= 1, found 0"),
        (TraceHeader::new("x", 65, 12.5, 24000), "TraceWriter: q: expected an integer from 1 to 64 (the format's limit), found 65"),
        (TraceHeader::new("x", 4, f64::NAN, 24000), "TraceWriter: frame_rate: expected a finite number > 0 (frames per second), found NaN"),
        (TraceHeader::new("x", 4, 12.5, 0), "TraceWriter: sample_rate: expected an integer >= 1, found 0"),
        (TraceHeader::new("", 4, 12.5, 24000), "TraceWriter: engine: expected a string of 1 to 500 characters, found 0 characters"),
        (TraceHeader::new("x", 4, 12.5, 24000).codebook_delays([0, 1]), "TraceWriter: codebook_delays: expected 4 delays (q), found 2"),
    ];
    for (h, message) in cases {
        let err = TraceWriter::create(&path, h, false).map(|_| ()).unwrap_err();
        assert_eq!(err.to_string(), message);
        assert!(matches!(err, TraceError::Argument { .. }));
    }
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0, "a refused header left a file");
}

#[test]
fn an_existing_file_is_refused_unless_forced_and_a_folder_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.jsonl");
    fs::write(&path, "keep me").unwrap();
    let err = TraceWriter::create(&path, header(), false).map(|_| ()).unwrap_err();
    assert_eq!(err.to_string(), format!("TraceWriter: path: {} already exists (pass force: true to replace it)", path.display()));
    assert_eq!(fs::read_to_string(&path).unwrap(), "keep me");
    let err = TraceWriter::create(dir.path(), header(), true).map(|_| ()).unwrap_err();
    assert_eq!(err.to_string(), format!("TraceWriter: path: {} is a folder (give a file path)", dir.path().display()));
    let mut tw = TraceWriter::create(&path, header(), true).unwrap();
    tw.write_step(Step::new().codes(&[0, 0, 0, 0])).unwrap();
    tw.close().unwrap();
    assert_eq!(lines(&path).len(), 2);
    // A file that appears under the name while the writer runs is not replaced at close either.
    let late = dir.path().join("late.jsonl");
    let mut tw = TraceWriter::create(&late, header(), false).unwrap();
    tw.write_step(Step::new().codes(&[0, 0, 0, 0])).unwrap();
    fs::write(&late, "theirs").unwrap();
    assert!(matches!(tw.close().unwrap_err(), TraceError::Exists { .. }));
    assert_eq!(fs::read_to_string(&late).unwrap(), "theirs");
    assert!(dir.path().join("late.jsonl.partial").exists(), "the lines written were lost");
}

#[test]
fn a_writer_dropped_before_close_keeps_its_lines_as_partial() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.jsonl");
    let run = || -> tts_parity_trace::Result<()> {
        let mut tw = TraceWriter::create(&path, header(), false)?;
        tw.write_step(Step::new().codes(&[1, 2, 3, 0]))?;
        tw.write_step(Step::new().codes(&[1, 2, 3]))?; // refused: the `?` drops the writer
        tw.close()
    };
    assert!(run().is_err());
    assert!(!path.exists());
    let partial = dir.path().join("a.jsonl.partial");
    assert_eq!(lines(&partial).len(), 2, "the header and step 1");
    // With no step written, nothing is kept; close() says so.
    let empty = dir.path().join("b.jsonl");
    let mut tw = TraceWriter::create(&empty, header(), false).unwrap();
    let err = tw.close().unwrap_err();
    assert!(err.to_string().ends_with("close() with no steps written (a trace needs at least step 1, the prefill); nothing was kept"), "{err}");
    drop(tw);
    let left: Vec<_> = fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, vec![std::ffi::OsString::from("a.jsonl.partial")]);
}

#[test]
fn non_finite_statistics_are_strings_and_counted_per_stage_with_the_vocoder_from_the_audio() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.jsonl");
    let mut tw = TraceWriter::create(&path, header(), false).unwrap();
    let talker = [1.0, f32::NAN, f32::INFINITY];
    let hidden = [f32::NEG_INFINITY, 0.0];
    let cp = vec![vec![f32::NAN, 0.0], vec![0.0, 1.0], vec![f32::NAN, f32::NAN]];
    tw.write_step(Step::new().talker_logits(&talker).hidden(&hidden).code_predictor_logits(&cp)).unwrap();
    tw.write_step(Step::new().codes(&[0, 0, 0, 0]).nan(GivenCounts { talker: Some(7), ..Default::default() })).unwrap();
    let hop = 1920;
    let mut audio = vec![0.0f32; 2 * hop];
    audio[hop + 5] = f32::NAN; // frame 2
    audio[10] = f32::INFINITY; // frame 1
    tw.set_audio(&audio, None).unwrap();
    tw.close().unwrap();
    let l = lines(&path);
    assert_eq!(l[1]["logits"]["mean"], "NaN");
    assert_eq!(l[1]["logits"]["max"], "Infinity");
    assert_eq!(l[1]["hidden"]["min"], "-Infinity");
    assert_eq!(l[1]["nan"], serde_json::json!({"talker": 1, "codePredictor": 3, "vocoder": 0}));
    assert_eq!(l[1]["inf"], serde_json::json!({"talker": 2, "codePredictor": 0, "vocoder": 1}));
    assert_eq!(l[2]["nan"], serde_json::json!({"talker": 7, "codePredictor": 0, "vocoder": 1}));
    let wav = fs::read(dir.path().join("a.wav")).unwrap();
    assert_eq!(wav.len(), 58 + 4 * audio.len());
}

#[test]
fn the_wav_is_the_58_byte_float32_header_of_the_python_writer() {
    // Expected bytes from the WAVE layout written out by hand (python/tts_parity/wav.py packs the same fields):
    // RIFF, size 4+26+12+8+data, WAVE, fmt chunk of 18 bytes (format 3, 1 channel, rate, rate*4, align 4,
    // 32 bits, cbSize 0), fact chunk (4 bytes: frames), data chunk.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.wav");
    write_wav_float32(&path, &[0.5, -1.0], 16000, false).unwrap();
    let mut expected = b"RIFF".to_vec();
    expected.extend(58u32.to_le_bytes());
    expected.extend(b"WAVEfmt ");
    expected.extend(18u32.to_le_bytes());
    expected.extend([3, 0, 1, 0]);
    expected.extend(16000u32.to_le_bytes());
    expected.extend(64000u32.to_le_bytes());
    expected.extend([4, 0, 32, 0, 0, 0]);
    expected.extend(b"fact");
    expected.extend(4u32.to_le_bytes());
    expected.extend(2u32.to_le_bytes());
    expected.extend(b"data");
    expected.extend(8u32.to_le_bytes());
    expected.extend(0.5f32.to_le_bytes());
    expected.extend((-1.0f32).to_le_bytes());
    assert_eq!(fs::read(&path).unwrap(), expected);
    let err = write_wav_float32(&path, &[0.0], 16000, false).unwrap_err();
    assert!(matches!(err, TraceError::Exists { .. }), "{err}");
    let err = write_wav_float32(dir.path().join("y.wav"), &[0.0], 0, false).unwrap_err();
    assert_eq!(err.to_string(), "write_wav_float32: sample_rate: expected an integer >= 1, found 0");
}

#[test]
fn the_sidecar_keeps_the_step_rules_and_writes_safetensors_keys_in_execution_order() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.modules.safetensors");
    let mut s = ModuleSidecar::create(&path, "attention", false).unwrap();
    assert_eq!(s.record("m", &[1], &[0.0]).unwrap_err().to_string(), format!("ModuleSidecar({}): record() before step(1): enter a step first", path.display()));
    s.step(1).unwrap();
    s.record("layers.0.attn", &[2, 2], &[1.0, 2.0, 3.0, 4.0]).unwrap();
    s.record("layers.0.attn", &[2, 2], &[5.0, 6.0, 7.0, 8.0]).unwrap();
    assert_eq!(s.step(1).unwrap_err().to_string(), format!("step 1: ModuleSidecar({}): step 1 entered twice; each step is entered once, in order", path.display()));
    assert!(s.step(3).unwrap_err().to_string().contains("skipping step 2"));
    let err = s.record("x", &[3], &[1.0]).unwrap_err();
    assert!(err.to_string().starts_with("ModuleSidecar::record: values: expected 3 values (shape [3]), found 1"), "{err}");
    s.step(2).unwrap();
    s.record("layers.0.attn", &[1], &[9.0]).unwrap();
    s.close().unwrap();
    let bytes = fs::read(&path).unwrap();
    let n = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    let header: Value = serde_json::from_slice(&bytes[8..8 + n]).unwrap();
    assert_eq!(header["__metadata__"]["schema"], "tts-parity-modules/1");
    let mut keys: Vec<&String> = header.as_object().unwrap().keys().filter(|k| *k != "__metadata__").collect();
    keys.sort();
    assert_eq!(keys, ["1/00000/layers.0.attn", "1/00001/layers.0.attn", "2/00000/layers.0.attn"]);
    let [begin, end] = [0, 1].map(|i| header["1/00001/layers.0.attn"]["data_offsets"][i].as_u64().unwrap() as usize);
    let data = &bytes[8 + n + begin..8 + n + end];
    assert_eq!(data, [5.0f32, 6.0, 7.0, 8.0].iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>());
}
