//! What the cross-language tests share: the repository's root, and the project's own readers run on what
//! the crate wrote (the `parity` CLI from the TypeScript build, the Python package's schema check).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the repository root")
}

fn ran(what: &str, mut command: Command) -> Output {
    command.output().unwrap_or_else(|e| panic!("{what} could not be started ({e}); the cross-language tests need Node and the repository's .venv (npm ci, npm test sets them up)"))
}

/// `node bin/parity.js ARGS` from the repository root (needs `npm run build` first: dist/).
pub fn parity(args: &[&str]) -> Output {
    let root = repo_root();
    assert!(root.join("dist/electron/cli/main.js").exists(), "dist/ is missing: run `npm run build` before cargo test");
    let mut command = Command::new("node");
    command.arg(root.join("bin/parity.js")).args(args).current_dir(&root);
    ran("node", command)
}

/// `node SCRIPT ARGS` with PARITY_DIST pointing at the TypeScript build.
pub fn node_script(script: &Path, args: &[&str]) -> Output {
    let mut command = Command::new("node");
    command.arg(script).args(args).env("PARITY_DIST", repo_root().join("dist/electron"));
    ran("node", command)
}

/// The Python interpreter with `tts_parity`'s dependencies: $PARITY_PYTHON, else the repository's .venv.
pub fn python() -> Command {
    let exe = std::env::var_os("PARITY_PYTHON").map(PathBuf::from).unwrap_or_else(|| repo_root().join(".venv/bin/python"));
    let mut command = Command::new(exe);
    command.env("PYTHONPATH", repo_root().join("python"));
    command
}

pub fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// Checks every line of `trace` with tts_parity's validator: the JSON Schemas generated from the zod schemas
/// (python/tts_parity/schema/, drift-tested against them) plus the rules a schema cannot say. Returns the
/// validator's output (one line per refused line; empty when all pass).
pub fn schema_problems(trace: &Path) -> String {
    let mut command = python();
    command.arg(repo_root().join("rust/tts-parity-trace/tests/check_trace_schema.py")).arg(trace);
    let out = ran("python", command);
    assert!(out.status.code().is_some_and(|c| c <= 1), "the schema check failed to run: {}", text(&out));
    text(&out).trim_end().to_string()
}
