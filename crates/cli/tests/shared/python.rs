//! The Python side of the interoperability, mail and bot tests: the interpreter is
//! `ATAXX_PYTHON` or the repository's `.venv` that `scripts/test.sh` creates, and the scripts
//! live in `tests/python`. Both test binaries include this file in their `common` module.

use std::path::PathBuf;
use std::process::Command;

/// `ATAXX_PYTHON`, or else the repository's `.venv`.
pub fn interpreter() -> PathBuf {
    std::env::var_os("ATAXX_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.venv/bin/python"))
}

/// Where `tests/python/<name>` is.
pub fn script_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/python")
        .join(name)
}

/// `python tests/python/<name>`, ready for its arguments.
pub fn script(name: &str) -> Command {
    let mut command = Command::new(interpreter());
    command.arg(script_path(name));
    command
}

/// What a test says when the interpreter cannot be started.
pub fn cannot_run(error: std::io::Error) -> String {
    format!(
        "cannot run {} ({error}); run scripts/test.sh",
        interpreter().display()
    )
}
