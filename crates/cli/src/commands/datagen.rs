//! `ataxx datagen`: self-play training data for a learned evaluation.
//!
//! Each game starts from the start position (or a book position) plus a few random plies, then
//! the engine plays both sides at a fixed node budget per move. Every position where the side
//! to move has a real move is written as an [`engine::data::Record`] with the search score and
//! the game's final result. A game ends by the rules, or early once the search proves a forced
//! end (the proven result is the game's result). Games are written whole and in order, so an
//! interrupted run resumes where it stopped: the file's game count says which game is next.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::mpsc;
use std::time::Instant;

use anyhow::{bail, Context};
use ataxx::{Color, Position};
use clap::Args as ClapArgs;
use engine::data::{self, Record, RECORD_BYTES};
use engine::score::is_decisive;
use engine::search::Engine;
use engine::time::Limits;
use engine::{net_eval::NetEval, nnue::Network};
use indicatif::{ProgressBar, ProgressStyle};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(ClapArgs)]
pub struct Args {
    /// The data file; an existing one is checked and continued.
    #[arg(long, short)]
    output: PathBuf,
    /// Games the file holds when the run ends (earlier games in the file count).
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Search budget per move.
    #[arg(long, default_value_t = 5_000)]
    nodes: u64,
    /// Random plies played before the engine takes over (not recorded).
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// Start positions, one FEN per line (as `ataxx match --book`); game g starts from line
    /// g mod count. Default: the standard start position.
    #[arg(long)]
    book: Option<PathBuf>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seed of the random plies; game g uses a stream derived from it and g.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Transposition table per thread, in MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Play with this net (docs/nnue.md) on 7×7 boards, or `default` for the embedded one;
    /// without it, the hand-crafted evaluation.
    #[arg(long, value_name = "NET_FILE")]
    eval_file: Option<PathBuf>,
}

/// One finished game: its index and its records, encoded.
struct Game {
    index: u64,
    bytes: Vec<u8>,
    positions: u64,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.threads == 0 || args.nodes == 0 {
        bail!("--threads and --nodes must be at least 1");
    }
    let eval = match &args.eval_file {
        None => NetEval::new(None),
        Some(path) if path.as_os_str() == "default" => NetEval::builtin(),
        Some(path) => NetEval::new(Some(Network::load(path)?)),
    };
    let starts = match &args.book {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading {}", path.display()))?;
            let book = arena::book::parse(&text)
                .with_context(|| format!("reading the book {}", path.display()))?;
            if book.is_empty() {
                bail!("the book {} holds no position", path.display());
            }
            book
        }
        None => vec![Position::startpos()],
    };
    let done = games_in(&args.output)?;
    if done >= args.games {
        println!(
            "{} already holds {done} games (asked for {})",
            args.output.display(),
            args.games
        );
        return Ok(());
    }
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.output)
        .with_context(|| format!("opening {}", args.output.display()))?;
    let mut out = BufWriter::new(file);

    let bar = ProgressBar::new(args.games).with_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games  {msg}  {elapsed_precise}, ETA {eta_precise}",
        )
        .expect("valid template"),
    );
    bar.set_position(done);
    let next = AtomicU64::new(done);
    let (send, receive) = mpsc::channel::<Game>();
    let started = Instant::now();
    let mut positions = 0u64;
    std::thread::scope(|scope| -> anyhow::Result<()> {
        for _ in 0..args.threads {
            let send = send.clone();
            let (next, starts, args, eval) = (&next, &starts, &args, &eval);
            scope.spawn(move || {
                let mut engine = Engine::new(eval.clone(), args.hash);
                loop {
                    let index = next.fetch_add(1, Relaxed);
                    if index >= args.games {
                        break;
                    }
                    let start = starts[(index % starts.len() as u64) as usize];
                    let game = play_game(&mut engine, start, index, args);
                    if send.send(game).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        // Games finish out of order; they are written in order so that the file always holds
        // games 0..n.
        let mut pending = BTreeMap::new();
        let mut expected = done;
        for game in receive {
            pending.insert(game.index, game);
            while let Some(game) = pending.remove(&expected) {
                out.write_all(&game.bytes)?;
                out.flush()?;
                positions += game.positions;
                expected += 1;
                bar.inc(1);
                let secs = started.elapsed().as_secs_f64().max(1e-3);
                bar.set_message(format!(
                    "{positions} positions, {:.0} positions/s",
                    positions as f64 / secs
                ));
            }
        }
        Ok(())
    })?;
    bar.finish();
    println!(
        "{}: {} games, {positions} new positions in {:.1} s",
        args.output.display(),
        args.games,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Games already in `path` (0 when it does not exist). A torn last record (an interrupted
/// write) is cut off.
fn games_in(path: &PathBuf) -> anyhow::Result<u64> {
    let Ok(file) = File::open(path) else {
        return Ok(0);
    };
    let len = file.metadata()?.len();
    let whole = len - len % RECORD_BYTES as u64;
    if whole != len {
        eprintln!(
            "{}: cutting off a torn record ({} bytes)",
            path.display(),
            len - whole
        );
        OpenOptions::new().write(true).open(path)?.set_len(whole)?;
    }
    let records =
        data::read_all(File::open(path)?).with_context(|| format!("reading {}", path.display()))?;
    Ok(data::count_games(&records))
}

/// Plays game `index` from `start` and encodes its records.
fn play_game(engine: &mut Engine<NetEval>, start: Position, index: u64, args: &Args) -> Game {
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    // Random plies; an opening that ends the game is drawn again.
    let mut pos = start;
    for _ in 0..100 {
        pos = start;
        for _ in 0..args.random_plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        if !pos.is_game_over() {
            break;
        }
    }
    engine.clear();
    let limits = Limits {
        nodes: Some(args.nodes),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut recorded: Vec<(Position, i32)> = Vec::new();
    let winner: Option<Color> = loop {
        if let Some(outcome) = pos.outcome() {
            break outcome.winner();
        }
        if pos.must_pass() {
            pos.play_unchecked(ataxx::Move::Pass);
            continue;
        }
        let report = engine.search(&pos, &limits, &stop, |_| {});
        recorded.push((pos, report.score));
        if is_decisive(report.score) {
            // Adjudicated: the search has proved the end.
            let mover = pos.turn();
            break Some(if report.score > 0 { mover } else { !mover });
        }
        pos.play_unchecked(report.best_move());
    };
    let mut bytes = Vec::with_capacity(recorded.len() * RECORD_BYTES);
    for (i, (p, score)) in recorded.iter().enumerate() {
        let result = match winner {
            None => 0,
            Some(side) if side == p.turn() => 1,
            Some(_) => -1,
        };
        bytes.extend_from_slice(&Record::new(p, *score, result, i == 0).to_bytes());
    }
    Game {
        index,
        bytes,
        positions: recorded.len() as u64,
    }
}
