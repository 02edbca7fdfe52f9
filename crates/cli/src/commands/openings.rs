//! `ataxx openings`: books of random, near-balanced openings.

use std::path::PathBuf;

use anyhow::{bail, Context};
use arena::book;
use arena::openings::{generate, OpeningSettings};
use ataxx::{Layout, Position};
use clap::Args as ClapArgs;

#[derive(ClapArgs)]
pub struct Args {
    /// Random plies played from the start position.
    #[arg(long, default_value_t = 4)]
    plies: u32,
    /// Openings to generate (per start position).
    #[arg(long, default_value_t = 100)]
    count: usize,
    /// Start position to play from (FEN or `startpos`); repeatable.
    #[arg(long = "start", value_name = "FEN")]
    starts: Vec<String>,
    /// Start from the standard start with this Blocks-Config layout (`h`, `36`, `x`…); repeatable.
    #[arg(long = "blocks", value_name = "CODE")]
    layouts: Vec<Layout>,
    /// Plies of the alpha-beta search (piece difference) that judges balance.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=6))]
    depth: u32,
    /// Keep openings whose searched material balance is within this many pieces.
    #[arg(long, default_value_t = 1)]
    max_imbalance: i32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write the book here instead of to standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let mut starts = args
        .starts
        .iter()
        .map(|fen| fen.parse().with_context(|| format!("--start {fen:?}")))
        .collect::<anyhow::Result<Vec<Position>>>()?;
    starts.extend(args.layouts.iter().map(|layout| layout.start_position()));
    if starts.is_empty() {
        starts.push(Position::startpos());
    }
    let mut all = Vec::new();
    for (i, &start) in starts.iter().enumerate() {
        let settings = OpeningSettings {
            starts: vec![start],
            plies: args.plies,
            count: args.count,
            depth: args.depth,
            max_imbalance: args.max_imbalance,
            seed: args.seed.wrapping_add(i as u64),
        };
        let openings = generate(&settings);
        if openings.len() < args.count {
            bail!(
                "only {} of {} openings found from {start}: allow more imbalance or fewer plies",
                openings.len(),
                args.count
            );
        }
        all.extend(openings);
    }
    let comment = format!(
        "ataxx openings --plies {} --count {} --depth {} --max-imbalance {} --seed {}\n\
         starts: {}\n\
         {} random plies from each start, kept when a {}-ply alpha-beta search on piece difference stays within {} piece(s)",
        args.plies,
        args.count,
        args.depth,
        args.max_imbalance,
        args.seed,
        starts
            .iter()
            .map(|p| p.board_fen())
            .collect::<Vec<_>>()
            .join(", "),
        args.plies,
        args.depth,
        args.max_imbalance
    );
    let text = book::format(&all, &comment);
    match &args.output {
        Some(path) => std::fs::write(path, text)
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => print!("{text}"),
    }
    Ok(())
}
