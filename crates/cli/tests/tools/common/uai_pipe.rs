//! A UAI engine (the built `ataxx uai`) behind real pipes, for the UAI conversation tests.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// The engine process, its input and the lines it has printed.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    pub lines: Receiver<String>,
}

impl Engine {
    /// Starts `ataxx` with `args` (e.g. `["uai"]`) behind pipes.
    pub fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ataxx"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the ataxx binary starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that satisfies `done`, or a failure after `timeout`.
    pub fn read_until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let finished = done(&line);
                    seen.push(line);
                    if finished {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("no answer in {timeout:?}; saw {seen:?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("engine exited; saw {seen:?}"),
            }
        }
    }

    pub fn expect_line(&mut self, wanted: &str, timeout: Duration) -> Vec<String> {
        self.read_until(timeout, |line| line == wanted)
    }

    /// The move text of the next `bestmove` line, checked to be the whole line (`bestmove M`),
    /// with every line read up to it.
    pub fn bestmove(&mut self, timeout: Duration) -> (String, Vec<String>) {
        let lines = self.read_until(timeout, |line| line.starts_with("bestmove"));
        let last = lines.last().unwrap();
        let tokens: Vec<&str> = last.split(' ').collect();
        assert_eq!(tokens.len(), 2, "bestmove line {last:?}");
        (tokens[1].to_string(), lines)
    }

    pub fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "exit status {status}");
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        self.child.kill().unwrap();
        panic!("engine did not quit");
    }
}
