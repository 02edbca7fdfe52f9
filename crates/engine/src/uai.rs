//! The UAI protocol loop (spec section 6).
//!
//! The calling thread reads commands; a `go` hands the engine to a worker thread that searches
//! and prints `bestmove`. While it runs, the reader still answers `isready` and obeys `stop` and
//! `quit` through an atomic stop flag. A command that needs the engine itself (`go`,
//! `setoption`, `uainewgame`) stops a running search first.
//!
//! The loop drives a [`Thinker`]: the engine, or any other move chooser (the named levels and
//! classic players implement it in the players crate), so that all of them speak the same UAI.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use ataxx::{Color, DiagramStyle, Move, Position};

use crate::eval::Evaluator;
use crate::score::WIN;
use crate::search::{Engine, Report};
use crate::time::{Clock, Limits};

/// Transposition table size when no `Hash` option is given, in MiB.
pub const DEFAULT_HASH_MIB: usize = 16;
const MAX_HASH_MIB: usize = 4096;
const MAX_THREADS: usize = 256;

type Output = Arc<Mutex<dyn Write + Send>>;

/// Something the UAI loop can ask for moves.
pub trait Thinker: Send + 'static {
    /// The `id name` text.
    fn name(&self) -> String;

    /// `option name …` lines for the `uai` reply.
    fn option_lines(&self) -> Vec<String> {
        Vec::new()
    }

    /// Applies a `setoption` whose name was matched case-insensitively (given lower-cased).
    /// Unknown names are ignored; a bad value is explained in the error.
    fn set_option(&mut self, _name: &str, _value: &str) -> Result<(), String> {
        Ok(())
    }

    /// `uainewgame`.
    fn new_game(&mut self);

    /// The move to play in `pos` (a pass when the game is over), reporting progress through
    /// `on_info`. Must return soon after `stop` is set.
    fn think(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Report),
    ) -> Move;

    /// A static evaluation for the `eval` debug command, if the thinker has one.
    fn evaluate(&self, _pos: &Position) -> Option<i32> {
        None
    }
}

impl<E: Evaluator + 'static> Thinker for Engine<E> {
    fn name(&self) -> String {
        format!("ataxx {}", env!("CARGO_PKG_VERSION"))
    }

    fn option_lines(&self) -> Vec<String> {
        let mut lines = vec![
            format!(
                "option name Hash type spin default {DEFAULT_HASH_MIB} min 1 max {MAX_HASH_MIB}"
            ),
            format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
            "option name Clear Hash type button".to_string(),
        ];
        lines.extend(self.evaluator().option_lines());
        lines
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "hash" => match value.parse::<usize>() {
                Ok(mib) if (1..=MAX_HASH_MIB).contains(&mib) => {
                    self.resize_hash(mib);
                    Ok(())
                }
                _ => Err(format!(
                    "Hash must be 1 to {MAX_HASH_MIB} MiB, not {value:?}"
                )),
            },
            "threads" => match value.parse::<usize>() {
                Ok(threads) if (1..=MAX_THREADS).contains(&threads) => {
                    self.set_threads(threads);
                    Ok(())
                }
                _ => Err(format!("Threads must be 1 to {MAX_THREADS}, not {value:?}")),
            },
            "clear hash" => {
                self.clear();
                Ok(())
            }
            // The evaluation's own options (EvalFile); unknown options are ignored (spec 6.4).
            _ => self.set_eval_option(name, value).unwrap_or(Ok(())),
        }
    }

    fn new_game(&mut self) {
        self.clear();
    }

    fn think(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Report),
    ) -> Move {
        self.search(pos, limits, stop, on_info).best_move()
    }

    fn evaluate(&self, pos: &Position) -> Option<i32> {
        Some(self.evaluator().evaluate(pos))
    }
}

fn send(out: &Output, line: &str) {
    let mut out = out.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    // A GUI that closed our stdout cannot be told anything more; the next read ends the loop.
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}

struct RunningSearch<T> {
    stop: Arc<AtomicBool>,
    worker: JoinHandle<T>,
}

struct Session<T: Thinker> {
    engine: Option<T>,
    running: Option<RunningSearch<T>>,
    position: Position,
    out: Output,
}

/// Runs the protocol until `quit` or the end of `input`.
pub fn run<T: Thinker>(
    engine: T,
    input: impl BufRead,
    output: impl Write + Send + 'static,
) -> io::Result<()> {
    let mut session = Session {
        engine: Some(engine),
        running: None,
        position: Position::startpos(),
        out: Arc::new(Mutex::new(output)),
    };
    for line in input.lines() {
        let line = line?;
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = tokens.split_first() else {
            continue;
        };
        match command {
            "uai" => session.identify(),
            "isready" => send(&session.out, "readyok"),
            "setoption" => session.set_option(args),
            "uainewgame" => session.engine().new_game(),
            "position" => session.set_position(args),
            "go" => session.go(args),
            "stop" => session.finish_search(true),
            "quit" => break,
            "d" | "print" => session.print_board(),
            "eval" => {
                let pos = session.position;
                if let Some(score) = session.engine().evaluate(&pos) {
                    send(&session.out, &format!("info string eval cp {score}"));
                }
            }
            _ => {}
        }
    }
    session.finish_search(true);
    Ok(())
}

impl<T: Thinker> Session<T> {
    /// The engine, once any running search has been stopped and has handed it back.
    fn engine(&mut self) -> &mut T {
        self.finish_search(true);
        self.engine
            .as_mut()
            .expect("the engine is home when no search runs")
    }

    /// Wait for the running search, if any; `stop` asks it to end now.
    fn finish_search(&mut self, stop: bool) {
        if let Some(running) = self.running.take() {
            if stop {
                running.stop.store(true, Relaxed);
            }
            let engine = running.worker.join().expect("the search thread panicked");
            self.engine = Some(engine);
        }
    }

    fn identify(&mut self) {
        let engine = self.engine();
        let mut lines = vec![
            format!("id name {}", engine.name()),
            "id author the ataxx project".to_string(),
        ];
        lines.extend(engine.option_lines());
        lines.push("uaiok".to_string());
        for line in lines {
            send(&self.out, &line);
        }
    }

    fn set_option(&mut self, args: &[&str]) {
        let value_at = args.iter().position(|t| t.eq_ignore_ascii_case("value"));
        let name_end = value_at.unwrap_or(args.len());
        let name = match args.first() {
            Some(t) if t.eq_ignore_ascii_case("name") => args[1..name_end].join(" "),
            _ => return,
        };
        let value = value_at
            .map(|i| args[i + 1..].join(" "))
            .unwrap_or_default();
        if let Err(message) = self.engine().set_option(&name.to_ascii_lowercase(), &value) {
            send(&self.out, &format!("info string {message}"));
        }
    }

    fn set_position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|&t| t == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let parsed = match setup {
            ["startpos"] => Ok(Position::startpos()),
            ["fen", fen @ ..] => fen.join(" ").parse::<Position>().map_err(|e| e.to_string()),
            _ => Err(format!(
                "expected startpos or fen, got {:?}",
                setup.join(" ")
            )),
        };
        let mut pos = match parsed {
            Ok(pos) => pos,
            Err(err) => {
                send(&self.out, &format!("info string position ignored: {err}"));
                return;
            }
        };
        for text in moves {
            match pos.parse_move(text) {
                Ok(mv) => pos.play_unchecked(mv),
                Err(err) => {
                    send(&self.out, &format!("info string position ignored: {err}"));
                    return;
                }
            }
        }
        self.position = pos;
    }

    fn go(&mut self, args: &[&str]) {
        let limits = parse_go(args, self.position.turn());
        self.finish_search(true);
        let mut engine = self
            .engine
            .take()
            .expect("the engine is home when no search runs");
        let stop = Arc::new(AtomicBool::new(false));
        let position = self.position;
        let out = Arc::clone(&self.out);
        let flag = Arc::clone(&stop);
        let worker = thread::spawn(move || {
            let best = engine.think(&position, &limits, &flag, &mut |r| {
                send(&out, &info_line(r));
            });
            // Under `go infinite` the answer waits for `stop`, as in UCI.
            while limits.infinite && !flag.load(Relaxed) {
                thread::sleep(Duration::from_millis(1));
            }
            send(&out, &format!("bestmove {best}"));
            engine
        });
        self.running = Some(RunningSearch { stop, worker });
    }

    fn print_board(&self) {
        for line in self.position.diagram(DiagramStyle::FEN).lines() {
            send(&self.out, line);
        }
        send(&self.out, &format!("fen {}", self.position));
    }
}

/// Limits of a `go` command. `btime`/`binc` belong to x and `wtime`/`winc` to o (spec 6.4);
/// unknown keys and their values are skipped.
pub fn parse_go(args: &[&str], turn: Color) -> Limits {
    let mut limits = Limits::default();
    let (mut x_time, mut o_time, mut x_inc, mut o_inc) = (None, None, 0, 0);
    let mut moves_to_go = None;
    let mut tokens = args.iter();
    while let Some(&key) = tokens.next() {
        if key == "infinite" {
            limits.infinite = true;
            continue;
        }
        let Some(value) = tokens.clone().next().and_then(|v| v.parse::<i64>().ok()) else {
            continue;
        };
        tokens.next();
        let ms = value.max(0) as u64;
        match key {
            "btime" => x_time = Some(ms),
            "wtime" => o_time = Some(ms),
            "binc" => x_inc = ms,
            "winc" => o_inc = ms,
            "movestogo" => moves_to_go = Some(ms as u32),
            "movetime" => limits.movetime = Some(Duration::from_millis(ms)),
            "depth" => limits.depth = Some(value.clamp(1, i64::from(i32::MAX)) as i32),
            "nodes" => limits.nodes = Some(ms),
            _ => {}
        }
    }
    let (time, inc) = match turn {
        Color::X => (x_time, x_inc),
        Color::O => (o_time, o_inc),
    };
    limits.clock = time.map(|ms| Clock {
        remaining: Duration::from_millis(ms),
        increment: Duration::from_millis(inc),
        moves_to_go,
    });
    limits
}

/// `info depth … seldepth … score cp … nodes … nps … time … hashfull … pv …`. Forced game ends
/// are reported as `score cp` of ±(10000 − plies), as many Ataxx GUIs read only `cp`.
pub fn info_line(report: &Report) -> String {
    let mut line = format!(
        "info depth {} seldepth {} score cp {} nodes {} nps {} time {} hashfull {}",
        report.depth,
        report.seldepth,
        report.score.clamp(-WIN, WIN),
        report.nodes,
        report.nps(),
        report.time.as_millis(),
        report.hashfull,
    );
    if !report.pv.is_empty() {
        line.push_str(" pv");
        for mv in &report.pv {
            line.push(' ');
            line.push_str(&mv.to_string());
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_reads_the_clock_of_the_side_to_move_and_skips_unknown_keys() {
        let args = ["btime", "900", "wtime", "1200", "binc", "10", "winc", "20"];
        let x = parse_go(&args, Color::X).clock.unwrap();
        assert_eq!(
            (x.remaining, x.increment),
            (Duration::from_millis(900), Duration::from_millis(10))
        );
        let o = parse_go(&args, Color::O).clock.unwrap();
        assert_eq!(o.remaining, Duration::from_millis(1200));
        let limits = parse_go(
            &[
                "nodes",
                "800",
                "simulations",
                "800",
                "depth",
                "x",
                "infinite",
            ],
            Color::X,
        );
        assert_eq!(limits.nodes, Some(800));
        assert!(limits.infinite && limits.depth.is_none() && limits.clock.is_none());
    }
}
