//! The crate's statistics against the cases the TypeScript and Python tests share
//! (test/fixtures/logit-stats-cases.json: expected values derived by exact arithmetic, see its generator),
//! bit for bit; and against the TypeScript engine's own logitStats on rows whose sums are not exact, where
//! only the same order of operations gives the same bits.

mod common;

use serde_json::Value;
use tts_parity_trace::{count_non_finite, logit_stats, LogitStats};

fn number(v: &Value) -> f64 {
    match v {
        Value::String(s) if s == "NaN" => f64::NAN,
        Value::String(s) if s == "Infinity" => f64::INFINITY,
        Value::String(s) if s == "-Infinity" => f64::NEG_INFINITY,
        other => other.as_f64().unwrap_or_else(|| panic!("not a number: {other}")),
    }
}

/// Equal bits, or both NaN (a NaN's payload is not part of the rules).
fn same(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

#[test]
fn the_shared_cases_give_the_expected_bits() {
    let path = common::repo_root().join("test/fixtures/logit-stats-cases.json");
    let cases: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let cases = cases["cases"].as_array().unwrap();
    assert!(cases.len() >= 10, "{} holds {} cases", path.display(), cases.len());
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let row: Vec<f32> = case["row"].as_array().unwrap().iter().map(|v| number(v) as f32).collect();
        let e = &case["expected"];
        let s = logit_stats(&row);
        assert!(same(s.mean, number(&e["mean"])), "{name}: mean {} vs {}", s.mean, e["mean"]);
        assert!(same(s.std, number(&e["variance"]).sqrt()), "{name}: std {} vs sqrt({})", s.std, e["variance"]);
        assert!(same(s.min, number(&e["min"])) && same(s.max, number(&e["max"])), "{name}: min/max {} {}", s.min, s.max);
        assert_eq!(s.argmax, e["argmax"].as_i64().unwrap(), "{name}: argmax");
        let top: Vec<(i64, f64)> = e["top5"].as_array().unwrap().iter().map(|t| (t["id"].as_i64().unwrap(), number(&t["logit"]))).collect();
        assert_eq!(s.top5.len(), top.len(), "{name}: top5 {:?}", s.top5);
        for (ours, (id, logit)) in s.top5.iter().zip(&top) {
            assert!(ours.id == *id && same(ours.logit, *logit), "{name}: top5 {:?} vs {top:?}", s.top5);
        }
        let c = count_non_finite(&row);
        assert_eq!((c.nan, c.inf), (e["nan"].as_u64().unwrap(), e["inf"].as_u64().unwrap()), "{name}: counts");
    }
}

/// Rows whose float64 sums round at almost every addition (values from 1e-4 to 1e4, more bits than a float64
/// holds): 64 rows of 1 000 values, with ties, a NaN row and Infinity rows among them.
fn inexact_rows(vocab: usize) -> Vec<Vec<f32>> {
    (0..64)
        .map(|r| {
            let mut row: Vec<f32> = (0..vocab).map(|i| (i as f32 * 0.37 + r as f32).sin() * 10f32.powi((i % 9) as i32 - 4) * (1.0 + r as f32)).collect();
            match r {
                5 => row[17] = f32::NAN,
                6 => row[3] = f32::INFINITY,
                7 => (row[3], row[900]) = (f32::NEG_INFINITY, f32::INFINITY),
                8 => (row[10], row[20]) = (100.0, 100.0),
                _ => {}
            }
            row
        })
        .collect()
}

#[test]
fn the_statistics_are_the_typescript_engines_bit_for_bit() {
    let vocab = 1000;
    let rows = inexact_rows(vocab);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rows.f32");
    std::fs::write(&file, rows.iter().flatten().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>()).unwrap();
    let script = common::repo_root().join("rust/tts-parity-trace/tests/ts-logit-stats.mjs");
    let out = common::node_script(&script, &[file.to_str().unwrap(), &vocab.to_string()]);
    assert!(out.status.success(), "{}", common::text(&out));
    let theirs: Vec<Value> = String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(theirs.len(), rows.len());
    let bits = |x: f64| format!("{:x}", x.to_bits());
    for (r, (row, t)) in rows.iter().zip(&theirs).enumerate() {
        let s: LogitStats = logit_stats(row);
        let ours = serde_json::json!({
            "mean": bits(s.mean), "std": bits(s.std), "min": bits(s.min), "max": bits(s.max), "argmax": s.argmax,
            "top5": s.top5.iter().map(|t| serde_json::json!([t.id, bits(t.logit)])).collect::<Vec<_>>(),
        });
        assert_eq!(&ours, t, "row {r}");
    }
    // The rows do exercise the order of additions: a pairwise sum (numpy's) gives other bits on some of them.
    let pairwise_differs = rows.iter().filter(|row| row.iter().all(|x| x.is_finite())).any(|row| {
        let in_order: f64 = row.iter().map(|&x| f64::from(x)).sum();
        let halves = row.split_at(row.len() / 2);
        let pairwise = halves.0.iter().map(|&x| f64::from(x)).sum::<f64>() + halves.1.iter().map(|&x| f64::from(x)).sum::<f64>();
        in_order.to_bits() != pairwise.to_bits()
    });
    assert!(pairwise_differs, "no row is sensitive to the summation order; the test would not catch another order");
}
