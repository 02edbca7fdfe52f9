//! `ataxx datagen`: self-play training data for the learned evaluation, appended to a corpus
//! directory (docs/datagen.md).
//!
//! Each game starts from the standard start position (or a book position, or, for a share of
//! the games, a blocked layout drawn from the canonical Blocks-Config codes), plays a random
//! number of random plies, keeps the opening when a short search scores it near level (or draws
//! it again), then the engine plays both sides at a fixed node budget per move. A game ends by
//! the rules, or early once the search proves a forced end. Games are written in files of
//! `--chunk-games` games ([`engine::data::Chunk`]), each written whole (through a temporary
//! file and a rename) and never changed afterwards, so a corpus under git only ever gains
//! files, and an interrupted run resumes at its first missing file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::mpsc;
use std::time::Instant;

use anyhow::{bail, Context};
use ataxx::{Color, Layout, Move, Position};
use clap::Args as ClapArgs;
use engine::data::{Chunk, GameRecord, Ply, EXTENSION};
use engine::score::is_decisive;
use engine::search::Engine;
use engine::time::Limits;
use engine::{net_eval::NetEval, nnue::Network};
use indicatif::{ProgressBar, ProgressStyle};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(ClapArgs)]
pub struct Args {
    /// The corpus directory (created if missing); files are named seed<SEED>-<N>.games.zst.
    #[arg(long, short)]
    output: PathBuf,
    /// Games of this seed the directory holds when the run ends, rounded up to whole files
    /// (files written by earlier runs count).
    #[arg(long, default_value_t = 1_000)]
    games: u64,
    /// Games per file.
    #[arg(long, default_value_t = 500)]
    chunk_games: u64,
    /// Search budget per move.
    #[arg(long, default_value_t = 5_000)]
    nodes: u64,
    /// Random plies played before the engine takes over (not recorded): a count or a range
    /// such as 8-16, each game drawing its count uniformly from it.
    #[arg(long, default_value = "8-16")]
    random_plies: PlyRange,
    /// Node budget of the search that checks a random opening; 0 keeps every opening.
    #[arg(long, default_value_t = 1_000)]
    opening_nodes: u64,
    /// An opening is kept when that search scores it within this many hundredths of a piece
    /// of level; otherwise another is drawn (after 100 draws, the most level one is kept).
    #[arg(long, default_value_t = 100)]
    opening_margin: i32,
    /// Start positions, one FEN per line (as `ataxx match --book`), 7×7 boards only; game g
    /// starts from line g mod count. Default: the standard start position.
    #[arg(long)]
    book: Option<PathBuf>,
    /// Percentage of games that start from a blocked layout instead: a canonical Blocks-Config
    /// code with 1 to `--max-blocks` blocked cells (`ataxx blocks list --canonical`), drawn
    /// uniformly per game.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=100))]
    blocked_share: u8,
    /// The most blocked cells a drawn layout may have.
    #[arg(long, default_value_t = 12)]
    max_blocks: u32,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seed of the random plies; game g uses a stream derived from it and g. Each run that
    /// adds to a corpus takes a seed of its own.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Transposition table per thread, in MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// The evaluation: `default` (the embedded net, docs/nnue.md), a net file, or `hce` (the
    /// hand-crafted evaluation).
    #[arg(long, value_name = "NET_FILE", default_value = "default")]
    eval_file: PathBuf,
}

/// A count of random plies, or a range to draw it from.
#[derive(Copy, Clone, Debug)]
pub struct PlyRange {
    low: u32,
    high: u32,
}

impl FromStr for PlyRange {
    type Err = String;

    fn from_str(text: &str) -> Result<PlyRange, String> {
        let number = |t: &str| {
            t.trim()
                .parse::<u32>()
                .map_err(|_| format!("{text:?} is not a ply count or a range such as 8-16"))
        };
        let (low, high) = match text.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => (number(text)?, number(text)?),
        };
        if low > high {
            return Err(format!("the range {text:?} is empty"));
        }
        Ok(PlyRange { low, high })
    }
}

/// One finished game and its index.
struct Played {
    index: u64,
    game: GameRecord,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.threads == 0 || args.nodes == 0 || args.chunk_games == 0 {
        bail!("--threads, --nodes and --chunk-games must be at least 1");
    }
    let eval = match args.eval_file.to_str() {
        Some("hce") => NetEval::new(None),
        Some("default") => NetEval::builtin(),
        _ => NetEval::new(Some(Network::load(&args.eval_file)?)),
    };
    let starts = match &args.book {
        Some(path) => book_starts(path)?,
        None => vec![Position::startpos()],
    };
    let layouts = playable_layouts(args.max_blocks);
    if args.blocked_share > 0 && layouts.is_empty() {
        bail!(
            "no canonical layout has 1 to {} blocked cells",
            args.max_blocks
        );
    }
    std::fs::create_dir_all(&args.output)
        .with_context(|| format!("creating {}", args.output.display()))?;
    let settings = settings_of(&args);
    let chunks = args.games.div_ceil(args.chunk_games);
    let first_missing = first_missing_chunk(&args, chunks, &settings)?;
    if first_missing == chunks {
        println!(
            "{} already holds {} games of seed {}",
            args.output.display(),
            chunks * args.chunk_games,
            args.seed
        );
        return Ok(());
    }
    let (first_game, end_game) = (first_missing * args.chunk_games, chunks * args.chunk_games);

    let next = AtomicU64::new(first_game);
    let (send, receive) = mpsc::channel::<Played>();
    let mut collector = Collector::new(&args, settings, first_game, end_game);
    std::thread::scope(|scope| -> anyhow::Result<()> {
        for _ in 0..args.threads {
            let send = send.clone();
            let (next, starts, layouts, args, eval) = (&next, &starts, &layouts, &args, &eval);
            scope.spawn(move || {
                let mut engine = Engine::new(eval.clone(), args.hash);
                loop {
                    let index = next.fetch_add(1, Relaxed);
                    if index >= end_game {
                        break;
                    }
                    let game = play_game(&mut engine, starts, layouts, index, args);
                    if send.send(Played { index, game }).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        for played in receive {
            collector.add(played)?;
        }
        Ok(())
    })?;
    collector.bar.finish();
    println!(
        "{}: {} games of seed {}, {} new positions in {:.1} s",
        args.output.display(),
        end_game,
        args.seed,
        collector.positions,
        collector.started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The start positions of the book at `path`: at least one, all 7×7.
fn book_starts(path: &Path) -> anyhow::Result<Vec<Position>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let book = arena::book::parse(&text)
        .with_context(|| format!("reading the book {}", path.display()))?;
    if book.is_empty() {
        bail!("the book {} holds no position", path.display());
    }
    if let Some(other) = book.iter().find(|p| p.size() != 7) {
        bail!("the training data holds 7x7 games; the book has {other}");
    }
    Ok(book)
}

/// The first of this seed's `chunks` files not yet written (`chunks` when all are). When
/// resuming, the files already there must have been made the same way, with `settings`.
fn first_missing_chunk(args: &Args, chunks: u64, settings: &str) -> anyhow::Result<u64> {
    let first_missing = (0..chunks)
        .find(|&k| !chunk_path(args, k).exists())
        .unwrap_or(chunks);
    if first_missing > 0 {
        let last = chunk_path(args, first_missing - 1);
        let bytes = std::fs::read(&last).with_context(|| format!("reading {}", last.display()))?;
        let found = Chunk::from_bytes(&bytes)
            .with_context(|| format!("reading {}", last.display()))?
            .settings;
        if found != settings {
            bail!(
                "{} was made with other settings ({found}); this run's are {settings}; \
                 give this run a seed of its own",
                last.display()
            );
        }
    }
    Ok(first_missing)
}

/// Takes the finished games, which come out of order, and writes each file once all of its
/// games are in; shows the progress.
struct Collector<'a> {
    args: &'a Args,
    settings: String,
    bar: ProgressBar,
    started: Instant,
    /// Finished games waiting for an earlier one, by index.
    pending: BTreeMap<u64, GameRecord>,
    /// The index of the next game of the file being filled.
    expected: u64,
    /// The file being filled, its games in order.
    games: Vec<GameRecord>,
    /// Positions (plies other than passes) of the games this run played so far.
    positions: u64,
}

impl<'a> Collector<'a> {
    /// A collector for the games `first_game..end_game`.
    fn new(args: &'a Args, settings: String, first_game: u64, end_game: u64) -> Self {
        let bar = ProgressBar::new(end_game).with_style(
            ProgressStyle::with_template(
                "{bar:40} {pos}/{len} games  {msg}  {elapsed_precise}, ETA {eta_precise}",
            )
            .expect("valid template"),
        );
        bar.set_position(first_game);
        Collector {
            args,
            settings,
            bar,
            started: Instant::now(),
            pending: BTreeMap::new(),
            expected: first_game,
            games: Vec::new(),
            positions: 0,
        }
    }

    fn add(&mut self, played: Played) -> anyhow::Result<()> {
        self.pending.insert(played.index, played.game);
        while let Some(game) = self.pending.remove(&self.expected) {
            self.positions += game.plies.iter().filter(|p| **p != Ply::Pass).count() as u64;
            self.games.push(game);
            self.expected += 1;
            self.bar.inc(1);
            self.bar.set_message(format!(
                "{} positions, {:.0} positions/s",
                self.positions,
                self.positions_per_second()
            ));
            if self.expected.is_multiple_of(self.args.chunk_games) {
                self.write_file()?;
            }
        }
        Ok(())
    }

    /// Writes the file just filled.
    fn write_file(&mut self) -> anyhow::Result<()> {
        let chunk = Chunk {
            settings: self.settings.clone(),
            games: std::mem::take(&mut self.games),
        };
        let path = chunk_path(self.args, self.expected / self.args.chunk_games - 1);
        write_chunk(&path, &chunk)?;
        // A line per file, also where the bar is hidden (no terminal).
        self.bar.suspend(|| {
            eprintln!(
                "wrote {} ({} games, {} new positions, {:.0}/s)",
                path.display(),
                self.expected,
                self.positions,
                self.positions_per_second()
            )
        });
        Ok(())
    }

    fn positions_per_second(&self) -> f64 {
        self.positions as f64 / self.started.elapsed().as_secs_f64().max(1e-3)
    }
}

/// How the games were made, stored in every file.
fn settings_of(args: &Args) -> String {
    let book = args
        .book
        .as_ref()
        .map_or("startpos".into(), |p| p.display().to_string());
    let mut settings = format!(
        "ataxx datagen: seed {} chunk-games {} nodes {} random-plies {}-{} opening-nodes {} \
         opening-margin {} book {book} eval {}",
        args.seed,
        args.chunk_games,
        args.nodes,
        args.random_plies.low,
        args.random_plies.high,
        args.opening_nodes,
        args.opening_margin,
        args.eval_file.display()
    );
    // Named only when set, so that the files of earlier runs, made before the option existed,
    // still match their own commands when resumed.
    if args.blocked_share > 0 {
        settings += &format!(
            " blocked-share {}% max-blocks {}",
            args.blocked_share, args.max_blocks
        );
    }
    settings
}

/// The canonical Blocks-Config layouts with 1 to `max_blocks` blocked cells whose start
/// position both sides can move from, in code order.
fn playable_layouts(max_blocks: u32) -> Vec<Layout> {
    Layout::all()
        .filter(|l| l.is_canonical() && (1..=max_blocks).contains(&l.blocks()))
        .filter(|l| {
            let start = l.start_position();
            let mut other = start;
            other.play_unchecked(Move::Pass);
            !start.must_pass() && !other.must_pass()
        })
        .collect()
}

fn chunk_path(args: &Args, chunk: u64) -> PathBuf {
    args.output
        .join(format!("seed{}-{chunk:05}.{EXTENSION}", args.seed))
}

/// Writes a file whole: a temporary file, then a rename.
fn write_chunk(path: &Path, chunk: &Chunk) -> anyhow::Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, chunk.to_bytes()?)
        .with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))
}

/// A random opening from `start`: up to 100 draws, the first that a short search scores near
/// level (or the most level one).
fn opening(
    engine: &mut Engine<NetEval>,
    start: Position,
    rng: &mut ChaCha8Rng,
    args: &Args,
) -> Position {
    let stop = AtomicBool::new(false);
    let check = Limits {
        nodes: Some(args.opening_nodes),
        ..Limits::default()
    };
    let mut best: Option<(i32, Position)> = None;
    for _ in 0..100 {
        let mut pos = start;
        let plies = rng.random_range(args.random_plies.low..=args.random_plies.high);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        if pos.is_game_over() {
            continue;
        }
        if args.opening_nodes == 0 {
            return pos;
        }
        engine.clear();
        let imbalance = engine.search(&pos, &check, &stop, |_| {}).score.abs();
        if imbalance <= args.opening_margin {
            return pos;
        }
        let more_level = match best {
            Some((b, _)) => imbalance < b,
            None => true,
        };
        if more_level {
            best = Some((imbalance, pos));
        }
    }
    best.map_or(start, |(_, pos)| pos)
}

/// Plays game `index`: from a blocked layout for `--blocked-share` of the games, otherwise from
/// line `index` of the starts.
fn play_game(
    engine: &mut Engine<NetEval>,
    starts: &[Position],
    layouts: &[Layout],
    index: u64,
    args: &Args,
) -> GameRecord {
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    // Drawn only when asked for, so that the games of earlier runs replay unchanged.
    let start = if args.blocked_share > 0 && rng.random_range(0..100) < args.blocked_share {
        layouts[rng.random_range(0..layouts.len())].start_position()
    } else {
        starts[(index % starts.len() as u64) as usize]
    };
    let first = opening(engine, start, &mut rng, args);
    engine.clear();
    let limits = Limits {
        nodes: Some(args.nodes),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut pos = first;
    let mut plies = Vec::new();
    let winner: Option<Color> = loop {
        if let Some(outcome) = pos.outcome() {
            break outcome.winner();
        }
        if pos.must_pass() {
            plies.push(Ply::Pass);
            pos.play_unchecked(Move::Pass);
            continue;
        }
        let report = engine.search(&pos, &limits, &stop, |_| {});
        let score = report.score.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
        plies.push(Ply::Searched {
            mv: report.best_move(),
            score,
        });
        if is_decisive(report.score) {
            // Adjudicated: the search has proved the end.
            let mover = pos.turn();
            break Some(if report.score > 0 { mover } else { !mover });
        }
        pos.play_unchecked(report.best_move());
    };
    GameRecord {
        start: first,
        plies,
        winner,
    }
}
