//! Every command exits quietly when its output is closed: `ataxx blocks list | head -1`.

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};

/// Runs `ataxx args`, reads `lines` lines of its output, closes it, and returns the exit status
/// and what it wrote on stderr.
fn close_after(args: &[&str], lines: usize) -> (std::process::ExitStatus, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ataxx"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    for _ in 0..lines {
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
    }
    drop(out);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    (child.wait().unwrap(), stderr)
}

#[test]
fn blocks_list_piped_into_head_exits_quietly() {
    // More output than a pipe buffer holds, so the writer meets the closed pipe.
    let (status, stderr) = close_after(&["blocks", "list"], 1);
    assert!(status.success(), "{status}: {stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn commands_whose_output_is_closed_at_once_exit_quietly() {
    for args in [
        &["blocks", "list", "--blocks", "14"][..],
        &["levels"],
        &["perft", "--depth", "2", "--divide"],
        &["blocks", "show", "h"],
    ] {
        let (status, stderr) = close_after(args, 0);
        assert!(status.success(), "{args:?}: {status}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
