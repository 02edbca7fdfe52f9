//! A UAI engine process: started, asked for moves, restarted by the bot when it fails.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context};

/// How long an engine may take to answer `uai` or `isready`.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// A running engine.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The games besides square Ataxx that the engine's `UAI_Variant` option offers.
    pub variants: Vec<String>,
    variant: String,
}

impl Engine {
    /// Starts `command` and completes the `uai` / `isready` handshake.
    pub fn start(command: &[String]) -> anyhow::Result<Engine> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| anyhow!("no engine command given after --"))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .with_context(|| format!("cannot start the engine {program:?}"))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
        let mut engine = Engine {
            child,
            stdin,
            lines,
            variants: vec![],
            variant: "ataxx".into(),
        };
        engine.send("uai")?;
        let deadline = Instant::now() + HANDSHAKE;
        loop {
            let line = engine.line_before(deadline)?;
            if let Some(rest) = line.strip_prefix("option name UAI_Variant ") {
                let mut words = rest.split_whitespace();
                while let Some(word) = words.next() {
                    if word == "var" {
                        engine.variants.extend(words.next().map(str::to_string));
                    }
                }
            }
            if line.trim() == "uaiok" {
                break;
            }
        }
        engine.ready()?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> anyhow::Result<()> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .context("the engine's input is closed (did it exit?)")
    }

    fn line_before(&mut self, deadline: Instant) -> anyhow::Result<String> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => bail!("the engine did not answer in time"),
            Err(RecvTimeoutError::Disconnected) => bail!("the engine exited"),
        }
    }

    fn ready(&mut self) -> anyhow::Result<()> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE;
        while self.line_before(deadline)?.trim() != "readyok" {}
        Ok(())
    }

    /// Asks for a move in `fen` of `game` with the `go` arguments given; waits until `deadline`.
    pub fn best_move(
        &mut self,
        game: &str,
        fen: &str,
        go: &str,
        within: Duration,
    ) -> anyhow::Result<String> {
        if game != self.variant {
            self.send(&format!("setoption name UAI_Variant value {game}"))?;
            self.variant = game.to_string();
        }
        self.ready()?;
        self.send(&format!("position fen {fen}"))?;
        self.send(&format!("go {go}"))?;
        let deadline = Instant::now() + within;
        loop {
            let line = self.line_before(deadline)?;
            if let Some(rest) = line.trim().strip_prefix("bestmove") {
                return rest
                    .split_whitespace()
                    .next()
                    .map(str::to_string)
                    .ok_or_else(|| anyhow!("the engine's bestmove names no move"));
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        // A moment to quit cleanly, then the process is ended for sure.
        std::thread::sleep(Duration::from_millis(20));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
