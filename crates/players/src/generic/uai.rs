//! UAI for every game: `UAI_Variant` in front of a square-Ataxx UAI loop.
//!
//! [`run_with_variants`] advertises `option name UAI_Variant type combo default ataxx var
//! ataxx var hexxagon var ataxx4 var ankor` (inserted into the square loop's `uai` reply, before
//! `uaiok`). While the variant is `ataxx` every line goes to the square loop unchanged; after
//! `setoption name UAI_Variant value hexxagon` (or `ataxx4`, `ankor`) this front end answers
//! `isready`, `position startpos|fen … [moves …]`, `go` and `d` itself, through
//! [`games::AnyPosition`] and the generic players: a named level of the variant if one was
//! given, else [`super::search_any`] with `go`'s `depth` / `movetime` / clock.

use std::io::{self, BufRead, Read, Write};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use games::{AnyPosition, GameKind};

use super::any::{choose_any, search_any};

/// The option line advertised in the `uai` reply.
pub const VARIANT_OPTION: &str =
    "option name UAI_Variant type combo default ataxx var ataxx var hexxagon var ataxx4 var ankor";

type Shared = Arc<Mutex<Box<dyn Write + Send>>>;

/// Lines sent to the square loop, read as a byte stream.
struct ChannelReader {
    lines: Receiver<String>,
    pending: Vec<u8>,
    at: usize,
}

impl Read for ChannelReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at >= self.pending.len() {
            match self.lines.recv() {
                Ok(line) => {
                    self.pending = line.into_bytes();
                    self.pending.push(b'\n');
                    self.at = 0;
                }
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len() - self.at);
        buf[..n].copy_from_slice(&self.pending[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The square loop's output: whole lines, the variant option inserted before `uaiok`.
struct Intercept {
    out: Shared,
    line: Vec<u8>,
    uaiok: Sender<()>,
}

impl Write for Intercept {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for &b in buf {
            self.line.push(b);
            if b == b'\n' {
                let mut out = self.out.lock().unwrap_or_else(|p| p.into_inner());
                if self.line.trim_ascii() == b"uaiok" {
                    writeln!(out, "{VARIANT_OPTION}")?;
                }
                out.write_all(&self.line)?;
                out.flush()?;
                if self.line.trim_ascii() == b"uaiok" {
                    let _ = self.uaiok.send(());
                }
                self.line.clear();
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn send(out: &Shared, line: &str) {
    let mut out = out.lock().unwrap_or_else(|p| p.into_inner());
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}

/// Runs UAI on `input`/`output` for every game. `square` runs the square-Ataxx loop on the
/// reader and writer it is given (e.g. `engine::uai::run(engine, r, w)`); `level` is the named
/// level to play in the variants (`None`: search by `go`'s limits); `seed` its random choices.
pub fn run_with_variants<F>(
    input: impl BufRead,
    output: impl Write + Send + 'static,
    level: Option<String>,
    seed: u64,
    square: F,
) -> io::Result<()>
where
    F: FnOnce(Box<dyn BufRead + Send>, Box<dyn Write + Send>) -> io::Result<()> + Send + 'static,
{
    let out: Shared = Arc::new(Mutex::new(Box::new(output)));
    let (to_square, lines) = channel::<String>();
    let reader = io::BufReader::new(ChannelReader {
        lines,
        pending: Vec::new(),
        at: 0,
    });
    let (uaiok, identified) = channel();
    let intercept = Intercept {
        out: Arc::clone(&out),
        line: Vec::new(),
        uaiok,
    };
    let worker = std::thread::spawn(move || square(Box::new(reader), Box::new(intercept)));
    let mut variant = GameKind::Ataxx;
    let mut position: Option<Box<dyn AnyPosition>> = None;
    let mut searches = 0u64;
    for line in input.lines() {
        let line = line?;
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if let ["setoption", "name", name, "value", value] = tokens[..] {
            if name.eq_ignore_ascii_case("UAI_Variant") {
                match value.parse::<GameKind>() {
                    Ok(kind) => {
                        variant = kind;
                        position = None;
                    }
                    Err(e) => send(&out, &format!("info string {e}")),
                }
                continue;
            }
        }
        let command = tokens.first().copied().unwrap_or("").to_string();
        let command = command.as_str();
        if variant == GameKind::Ataxx || matches!(command, "uai" | "quit" | "setoption") {
            let quit = command == "quit";
            let identify = command == "uai";
            if to_square.send(line.clone()).is_err() || quit {
                break;
            }
            if identify {
                // Keeps replies in order: the identification before anything answered here.
                let _ = identified.recv_timeout(Duration::from_secs(10));
            }
            continue;
        }
        match command {
            "isready" => send(&out, "readyok"),
            "uainewgame" => position = None,
            "position" => match read_position(variant, &tokens[1..]) {
                Ok(pos) => position = Some(pos),
                Err(e) => send(&out, &format!("info string position ignored: {e}")),
            },
            "d" | "print" => {
                let pos = current(&mut position, variant);
                for l in pos.diagram().lines() {
                    send(&out, l);
                }
                send(&out, &format!("fen {}", pos.fen()));
            }
            "go" => {
                let pos = current(&mut position, variant);
                searches += 1;
                let seed = seed.wrapping_add(searches);
                let best = go(pos, &tokens[1..], level.as_deref(), seed, &out);
                send(&out, &format!("bestmove {best}"));
            }
            _ => {}
        }
    }
    drop(to_square);
    worker
        .join()
        .unwrap_or_else(|_| Err(io::Error::other("the square UAI loop panicked")))
}

fn current(position: &mut Option<Box<dyn AnyPosition>>, kind: GameKind) -> &dyn AnyPosition {
    &**position.get_or_insert_with(|| kind.start(&Default::default()).expect("default start"))
}

fn read_position(kind: GameKind, args: &[&str]) -> Result<Box<dyn AnyPosition>, String> {
    let moves_at = args.iter().position(|&t| t == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let mut pos = match setup {
        ["startpos"] => kind.start(&Default::default()).map_err(|e| e.to_string())?,
        ["fen", fen @ ..] => kind
            .parse_position(&fen.join(" "))
            .map_err(|e| e.to_string())?,
        _ => {
            return Err(format!(
                "expected startpos or fen, got {:?}",
                setup.join(" ")
            ))
        }
    };
    for mv in moves {
        pos.play(mv).map_err(|e| e.to_string())?;
    }
    Ok(pos)
}

/// The move for `go`: the level's, or a search within `go`'s depth and time.
fn go(
    pos: &dyn AnyPosition,
    args: &[&str],
    level: Option<&str>,
    seed: u64,
    out: &Shared,
) -> String {
    if pos.legal_moves().is_empty() {
        return "0000".into();
    }
    let value = |key: &str| -> Option<u64> {
        let i = args.iter().position(|&t| t == key)?;
        args.get(i + 1)?.parse().ok()
    };
    let depth = value("depth").map(|d| d.clamp(1, 64) as u32);
    let movetime = value("movetime").or_else(|| {
        // A clock: a thirtieth of the smaller of the two given, plus the increment.
        let time = [value("btime"), value("wtime")]
            .into_iter()
            .flatten()
            .min()?;
        let inc = [value("binc"), value("winc")]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(0);
        Some(time / 30 + inc / 2)
    });
    if depth.is_none() {
        if let Some(level) = level {
            match choose_any(level, pos, seed) {
                Ok(mv) => return mv,
                // A level this game's table lacks (`master` in Hexxagon): say so, then search.
                Err(err) => send(out, &format!("info string {err}; searching instead")),
            }
        }
    }
    let deadline =
        movetime.map(|ms| Instant::now() + Duration::from_millis(ms.saturating_sub(10).max(1)));
    let depth = depth.unwrap_or(if deadline.is_some() { 64 } else { 4 });
    match search_any(pos, depth, deadline, seed) {
        Ok((mv, score)) => {
            send(out, &format!("info depth {depth} score {score} pv {mv}"));
            mv
        }
        Err(_) => "0000".into(),
    }
}
