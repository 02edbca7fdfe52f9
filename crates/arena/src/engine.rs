//! One UAI engine process, spoken to over its stdin and stdout (spec section 6).
//!
//! A reader thread turns the engine's stdout into lines on a channel, so every wait here is a
//! `recv_timeout` with a deadline: an engine that hangs costs a timeout, never a stuck runner.
//! When the process closes its output the channel disconnects, which is how a crash shows.

use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use ataxx::Position;
use thiserror::Error;

/// How to start an engine and what to tell it before its first game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name in PGN tags and tables; empty = the engine's `id name`.
    pub name: String,
    /// Program and arguments.
    pub command: Vec<String>,
    /// `setoption name <N> value <V>` pairs, sent in this order.
    pub options: Vec<(String, String)>,
}

impl EngineSpec {
    /// An unnamed engine from a command line, split at whitespace outside quotes
    /// (`"…"` or `'…'` keep spaces inside one argument).
    ///
    /// ```
    /// use arena::EngineSpec;
    /// let spec = EngineSpec::from_command_line("python3 'my engine.py' --level 2").unwrap();
    /// assert_eq!(spec.command, ["python3", "my engine.py", "--level", "2"]);
    /// ```
    pub fn from_command_line(line: &str) -> Result<EngineSpec, CommandLineError> {
        let mut command = Vec::new();
        let mut word = String::new();
        let mut in_word = false;
        let mut quote = None;
        for c in line.chars() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), c) => word.push(c),
                (None, '"' | '\'') => {
                    quote = Some(c);
                    in_word = true;
                }
                (None, c) if c.is_whitespace() => {
                    if in_word {
                        command.push(std::mem::take(&mut word));
                        in_word = false;
                    }
                }
                (None, c) => {
                    word.push(c);
                    in_word = true;
                }
            }
        }
        if quote.is_some() {
            return Err(CommandLineError::UnclosedQuote(line.to_string()));
        }
        if in_word {
            command.push(word);
        }
        if command.is_empty() {
            return Err(CommandLineError::Empty);
        }
        Ok(EngineSpec {
            name: String::new(),
            command,
            options: Vec::new(),
        })
    }
}

/// An engine command line that could not be split.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CommandLineError {
    #[error("empty engine command")]
    Empty,
    #[error("unclosed quote in engine command `{0}`")]
    UnclosedQuote(String),
}

/// What went wrong while talking to an engine.
#[derive(Debug, Error)]
pub enum EngineError {
    #[error("cannot start `{command}`: {source}")]
    Spawn { command: String, source: io::Error },
    #[error("the engine exited ({status})")]
    Exited { status: String },
    #[error("no `{expected}` within {} ms", waited.as_millis())]
    Timeout {
        expected: &'static str,
        waited: Duration,
    },
}

/// What an engine answered to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchReply {
    /// The move text after `bestmove`, as the engine wrote it (empty if it wrote none).
    pub bestmove: String,
    /// From just before `go` was sent to the `bestmove` line.
    pub elapsed: Duration,
    /// The last `info … score` seen, in hundredths of a piece from the mover's view.
    pub score: Option<i32>,
    /// The last `info depth` seen.
    pub depth: Option<u32>,
}

/// A running engine process that has answered `uaiok` and `readyok`.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    id_name: Option<String>,
}

impl Engine {
    /// Starts the engine, sends `uai`, its options and `isready`, waiting at most `timeout`
    /// for each reply.
    pub fn start(spec: &EngineSpec, timeout: Duration) -> Result<Engine, EngineError> {
        let spawn_error = |source| EngineError::Spawn {
            command: spec.command.join(" "),
            source,
        };
        let (program, args) = spec
            .command
            .split_first()
            .ok_or_else(|| spawn_error(io::Error::other("empty command")))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(spawn_error)?;
        let stdin = child.stdin.take().expect("stdin was piped");
        let stdout = child.stdout.take().expect("stdout was piped");
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buffer = Vec::new();
            // Lossy decoding: an engine printing bytes that are not UTF-8 is still an engine.
            while matches!(reader.read_until(b'\n', &mut buffer), Ok(n) if n > 0) {
                let line = String::from_utf8_lossy(&buffer).trim_end().to_string();
                buffer.clear();
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            child,
            stdin,
            lines,
            id_name: None,
        };
        engine.send("uai")?;
        let deadline = Instant::now() + timeout;
        let mut id_name = None;
        engine.wait_for("uaiok", deadline, |line| {
            if let Some(name) = line.strip_prefix("id name ") {
                id_name = Some(name.trim().to_string());
            }
            line.trim() == "uaiok"
        })?;
        engine.id_name = id_name;
        for (name, value) in &spec.options {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        engine.sync(timeout)?;
        Ok(engine)
    }

    /// The name the engine gave in `id name`.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// `uainewgame` then `isready`.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("uainewgame")?;
        self.sync(timeout)
    }

    /// Sends the position and `isready` (waiting at most `ready_timeout`), then `go <limits>`,
    /// and waits at most `limit` after `go` for `bestmove`.
    pub fn search(
        &mut self,
        pos: &Position,
        go_limits: &str,
        ready_timeout: Duration,
        limit: Duration,
    ) -> Result<SearchReply, EngineError> {
        self.send(&format!("position fen {pos}"))?;
        self.sync(ready_timeout)?;
        let start = Instant::now();
        self.send(&format!("go {go_limits}"))?;
        let (mut score, mut depth, mut bestmove) = (None, None, None);
        self.wait_for("bestmove", start + limit, |line| {
            let mut tokens = line.split_whitespace();
            match tokens.next() {
                Some("bestmove") => {
                    bestmove = Some(tokens.next().unwrap_or("").to_string());
                    true
                }
                Some("info") => {
                    read_info(line, &mut score, &mut depth);
                    false
                }
                _ => false,
            }
        })?;
        Ok(SearchReply {
            bestmove: bestmove.unwrap_or_default(),
            elapsed: start.elapsed(),
            score,
            depth,
        })
    }

    /// Asks the engine to quit and gives it a moment before killing it.
    pub fn quit(mut self) {
        if self.send("quit").is_ok() {
            let deadline = Instant::now() + Duration::from_millis(200);
            while Instant::now() < deadline {
                if matches!(self.child.try_wait(), Ok(Some(_))) {
                    return;
                }
                thread::sleep(Duration::from_millis(5));
            }
        }
        // Drop kills what is left.
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let written = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        written.map_err(|_| self.exited())
    }

    fn sync(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("isready")?;
        self.wait_for("readyok", Instant::now() + timeout, |line| {
            line.trim() == "readyok"
        })
    }

    /// Reads lines until `done` accepts one, the deadline passes or the engine goes away.
    fn wait_for(
        &mut self,
        expected: &'static str,
        deadline: Instant,
        mut done: impl FnMut(&str) -> bool,
    ) -> Result<(), EngineError> {
        let started = Instant::now();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if done(&line) => return Ok(()),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(EngineError::Timeout {
                        expected,
                        waited: started.elapsed(),
                    })
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.exited()),
            }
        }
    }

    /// The error for an engine whose pipes closed, with its exit status when it has one.
    fn exited(&mut self) -> EngineError {
        let deadline = Instant::now() + Duration::from_millis(100);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break status.to_string(),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(2)),
                _ => break "closed its pipes".to_string(),
            }
        };
        EngineError::Exited { status }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Takes `depth` and `score` from an `info` line. Scores come as `score cp N` (UAI), and from
/// older engines as `score cs N` or a bare `score N`; mate-style scores are ignored.
fn read_info(line: &str, score: &mut Option<i32>, depth: &mut Option<u32>) {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    for (i, token) in tokens.iter().enumerate() {
        let next = tokens.get(i + 1).copied().unwrap_or("");
        match *token {
            "depth" => *depth = next.parse().ok().or(*depth),
            "score" => {
                let value = match next {
                    "cp" | "cs" => tokens.get(i + 2).copied().unwrap_or(""),
                    _ => next,
                };
                *score = value.parse().ok().or(*score);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_scores_in_every_dialect() {
        for (line, want) in [
            (
                "info depth 3 score cp -25 nodes 100 pv d4",
                (Some(-25), Some(3)),
            ),
            ("info depth 7 score 140", (Some(140), Some(7))),
            ("info score cs 12", (Some(12), None)),
            ("info string depth of nothing", (None, None)),
        ] {
            let (mut score, mut depth) = (None, None);
            read_info(line, &mut score, &mut depth);
            assert_eq!((score, depth), want, "{line}");
        }
    }

    #[test]
    fn command_lines_split_like_a_shell() {
        let spec = EngineSpec::from_command_line("  ataxx  uai \"--level\" '' ").unwrap();
        assert_eq!(spec.command, ["ataxx", "uai", "--level", ""]);
        assert!(EngineSpec::from_command_line("  ").is_err());
        assert!(EngineSpec::from_command_line("a 'b").is_err());
    }
}
