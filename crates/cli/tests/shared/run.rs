//! Running the built `ataxx` binary, as both test binaries do (tests/server and tests/tools
//! include this file in their `common` module).

use std::process::{Command, Output};

/// The test build of `ataxx`, ready for its arguments.
pub fn ataxx_command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ataxx"))
}

/// Runs `ataxx` with `args`.
pub fn ataxx(args: &[&str]) -> Output {
    ataxx_command()
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
