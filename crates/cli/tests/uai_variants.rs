//! UAI_Variant through real pipes: Hexxagon and four-player Ataxx FENs, then back to square.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use games::GameKind;

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ataxx"))
            .args(["uai", "--level", "medium"])
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

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that satisfies `done`, or a failure after `timeout`.
    fn read_until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
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

    fn expect_line(&mut self, wanted: &str, timeout: Duration) -> Vec<String> {
        self.read_until(timeout, |line| line == wanted)
    }

    /// The move of the next `bestmove` line, checked to be the whole line in strict notation.
    fn bestmove_text(&mut self, timeout: Duration) -> String {
        let lines = self.read_until(timeout, |line| line.starts_with("bestmove"));
        let last = lines.last().unwrap();
        let tokens: Vec<&str> = last.split(' ').collect();
        assert_eq!(tokens.len(), 2, "bestmove line {last:?}");
        tokens[1].to_string()
    }

    fn quit(mut self) {
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

const SECOND: Duration = Duration::from_secs(1);

#[test]
fn uai_variant_exchange_plays_hexxagon_and_ataxx4() {
    let mut engine = Engine::start();
    engine.send("uai");
    let intro = engine.expect_line("uaiok", 5 * SECOND);
    assert!(
        intro.iter().any(|l| {
            l
            == "option name UAI_Variant type combo default ataxx var ataxx var hexxagon var ataxx4"
        }),
        "{intro:?}"
    );
    for kind in [GameKind::Hexxagon, GameKind::Ataxx4] {
        engine.send(&format!("setoption name UAI_Variant value {kind}"));
        engine.send("uainewgame");
        engine.send("isready");
        engine.expect_line("readyok", 5 * SECOND);
        let mut pos = kind.start(&Default::default()).unwrap();
        for ply in 0..6 {
            engine.send(&format!("position fen {}", pos.fen()));
            engine.send(if ply % 2 == 0 {
                "go depth 2"
            } else {
                "go movetime 100"
            });
            let mv = engine.bestmove_text(10 * SECOND);
            assert!(
                pos.legal_moves().contains(&mv),
                "{kind}: {mv} in {}",
                pos.fen()
            );
            pos.play(&mv).unwrap();
        }
    }
    // A forced four-player win, found by the paranoid search.
    engine.send("position fen 2y1g/5/2b1r/5/5 r 0 1");
    engine.send("go depth 3");
    assert_eq!(engine.bestmove_text(10 * SECOND), "d4");
    // Back to square Ataxx: the engine's own loop answers.
    engine.send("setoption name UAI_Variant value ataxx");
    engine.send("position startpos");
    engine.send("go depth 2");
    let mv = engine.bestmove_text(10 * SECOND);
    let square = GameKind::Ataxx.start(&Default::default()).unwrap();
    assert!(square.legal_moves().contains(&mv), "{mv}");
    engine.quit();
}
