//! `ataxx stats`: seed 003's measurements of the game, reproduced by self-play.

use anyhow::Context;
use ataxx::Position;
use ataxx_players::{search, Heuristic, Level, MoveSet, Player, PlayerSpec, SearchSpec};
use clap::Args as ClapArgs;
use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

#[derive(ClapArgs)]
pub struct Args {
    /// Self-play games to measure.
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Level that plays both sides (a classic level: the seed's figures come from such players).
    #[arg(long, default_value = "medium")]
    level: String,
    /// Seed for the players' random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Positions (spread evenly over the games) on which minimax counts the boards it examines.
    #[arg(long, default_value_t = 40)]
    search_samples: usize,
    /// Also count depth-4 minimax boards (slow: about 43^4 boards per sample without reductions).
    #[arg(long)]
    depth4: bool,
    /// Print JSON instead of the table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize, Default)]
struct Stats {
    games: u32,
    positions: u64,
    avg_moves_raw: f64,
    max_moves_raw: usize,
    avg_moves_merged: f64,
    avg_moves_reduced: f64,
    avg_game_plies: f64,
    max_game_plies: u32,
    search_samples: usize,
    boards_depth3_raw: f64,
    boards_depth3_reduced: f64,
    boards_depth4_raw: Option<f64>,
    boards_depth4_reduced: Option<f64>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let level: &Level = args.level.parse()?;
    let spec = level
        .classic()
        .with_context(|| format!("level {} is the engine; choose a classic level", level.name))?;
    let mut stats = Stats {
        games: args.games,
        ..Stats::default()
    };
    let positions = self_play(&args, &spec, &mut stats)?;
    count_boards(&args, &positions, &mut stats);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&stats)?);
    } else {
        print_table(&args, level, &spec, &stats);
    }
    Ok(())
}

/// A progress bar over `len` steps, each one of `unit`, labelled by its message.
fn progress_bar(len: u64, unit: &str) -> ProgressBar {
    ProgressBar::new(len).with_style(
        ProgressStyle::with_template(&format!(
            "{{msg:12}} {{bar:40}} {{pos}}/{{len}} {unit}  {{elapsed_precise}}"
        ))
        .expect("valid template"),
    )
}

/// Plays the self-play games, filling in `stats`' move counts and game lengths; returns every
/// position the games went through, in order.
fn self_play(args: &Args, spec: &PlayerSpec, stats: &mut Stats) -> anyhow::Result<Vec<Position>> {
    let bar = progress_bar(u64::from(args.games), "games");
    bar.set_message("self-play");
    let (mut raw, mut merged, mut reduced, mut plies) = (0u64, 0u64, 0u64, 0u64);
    let mut positions = Vec::new();
    for game in 0..args.games {
        let mut players = [
            spec.build(args.seed ^ (2 * u64::from(game))),
            spec.build(args.seed ^ (2 * u64::from(game) + 1)),
        ];
        players.iter_mut().for_each(|p| p.new_game());
        let mut pos = Position::startpos();
        let mut ply = 0u32;
        while let Some(mv) = players[ply as usize % 2].choose(&pos) {
            let n = MoveSet::Raw.moves(&pos).len();
            raw += n as u64;
            stats.max_moves_raw = stats.max_moves_raw.max(n);
            merged += MoveSet::Merged.moves(&pos).len() as u64;
            reduced += MoveSet::Reduced.moves(&pos).len() as u64;
            positions.push(pos);
            pos.play(mv)?;
            ply += 1;
        }
        plies += u64::from(ply);
        stats.max_game_plies = stats.max_game_plies.max(ply);
        bar.inc(1);
    }
    bar.finish_and_clear();
    stats.positions = positions.len() as u64;
    let per_position = |n: u64| n as f64 / stats.positions.max(1) as f64;
    stats.avg_moves_raw = per_position(raw);
    stats.avg_moves_merged = per_position(merged);
    stats.avg_moves_reduced = per_position(reduced);
    stats.avg_game_plies = plies as f64 / f64::from(args.games.max(1));
    Ok(positions)
}

/// Fills in `stats`' board counts: the boards a plain minimax examines, on average, over
/// `args.search_samples` of `positions` spread evenly.
fn count_boards(args: &Args, positions: &[Position], stats: &mut Stats) {
    let step = (positions.len() / args.search_samples.max(1)).max(1);
    let samples: Vec<Position> = positions
        .iter()
        .step_by(step)
        .take(args.search_samples)
        .copied()
        .collect();
    stats.search_samples = samples.len();
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let bar = progress_bar(samples.len() as u64, "positions");
    let mut boards = |depth: u32, moves: MoveSet, name: &str| {
        bar.reset();
        bar.set_message(name.to_string());
        let spec = SearchSpec {
            depth,
            heuristic: Heuristic::Difference,
            moves,
            pruning: false,
        };
        let total: u64 = samples
            .iter()
            .map(|pos| {
                bar.inc(1);
                search(pos, spec, &mut rng).boards
            })
            .sum();
        total as f64 / samples.len().max(1) as f64
    };
    stats.boards_depth3_raw = boards(3, MoveSet::Raw, "depth 3 raw");
    stats.boards_depth3_reduced = boards(3, MoveSet::Reduced, "depth 3 red.");
    if args.depth4 {
        stats.boards_depth4_raw = Some(boards(4, MoveSet::Raw, "depth 4 raw"));
        stats.boards_depth4_reduced = Some(boards(4, MoveSet::Reduced, "depth 4 red."));
    }
    bar.finish_and_clear();
}

/// The measurements beside seed 003's figures, one row each.
fn print_table(args: &Args, level: &Level, spec: &PlayerSpec, stats: &Stats) {
    println!(
        "{} self-play games at level {} ({}), {} positions",
        args.games, level.name, spec, stats.positions
    );
    println!();
    println!("{:<52} {:>12} {:>12}", "measure", "measured", "seed 003");
    let row = |name: &str, value: String, seed: &str| println!("{name:<52} {value:>12} {seed:>12}");
    row(
        "legal moves per position (a single per origin)",
        format!("{:.1}", stats.avg_moves_raw),
        "about 43",
    );
    row(
        "most legal moves seen",
        stats.max_moves_raw.to_string(),
        "up to ~200",
    );
    row(
        "moves per position, singles merged",
        format!("{:.1}", stats.avg_moves_merged),
        "-",
    );
    row(
        "moves per position, both reductions",
        format!("{:.1}", stats.avg_moves_reduced),
        "about 19",
    );
    row(
        "game length (plies)",
        format!("{:.1}", stats.avg_game_plies),
        "about 68",
    );
    row(
        "longest game (plies)",
        stats.max_game_plies.to_string(),
        "-",
    );
    row(
        "boards examined, minimax depth 3",
        format!("{:.0}", stats.boards_depth3_raw),
        "81,400",
    );
    row(
        "boards examined, depth 3 with reductions",
        format!("{:.0}", stats.boards_depth3_reduced),
        "7,240",
    );
    if let (Some(raw), Some(reduced)) = (stats.boards_depth4_raw, stats.boards_depth4_reduced) {
        row("boards examined, minimax depth 4", format!("{raw:.0}"), "-");
        row(
            "boards examined, depth 4 with reductions",
            format!("{reduced:.0}"),
            "137,561",
        );
    }
    println!(
        "\n(boards: positions made by a plain minimax, averaged over {} positions of these games)",
        stats.search_samples
    );
}
