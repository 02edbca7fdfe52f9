//! Running the built `ataxx` binary from the CLI's integration tests (both binaries include it
//! in their `common` module).

use std::process::{Command, Output};

/// Runs `ataxx` with `args`.
pub fn ataxx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ataxx"))
        .args(args)
        .output()
        .expect("the ataxx binary runs")
}

/// The standard output of a run that must succeed.
pub fn stdout_of(args: &[&str]) -> String {
    let out = ataxx(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}
