//! `ataxx openings`: books of random, near-balanced openings.

use std::path::PathBuf;

use anyhow::{bail, Context};
use arena::book;
use arena::openings::{generate, OpeningSettings};
use ataxx::Position;
use clap::Args as ClapArgs;

#[derive(ClapArgs)]
pub struct Args {
    /// Random plies played from the start position.
    #[arg(long, default_value_t = 4)]
    plies: u32,
    /// Openings to generate (per start position).
    #[arg(long, default_value_t = 100)]
    count: usize,
    /// Start position to play from (FEN or `startpos`); repeat for several, e.g. blocked layouts.
    #[arg(long = "start", value_name = "FEN", default_value = "startpos")]
    starts: Vec<String>,
    /// Plies of the material search that judges balance.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=4))]
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
    let mut all = Vec::new();
    for (i, fen) in args.starts.iter().enumerate() {
        let start: Position = fen.parse().with_context(|| format!("--start {fen:?}"))?;
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
         {} random plies from each start, kept when a {}-ply material search stays within {} piece(s)",
        args.plies,
        args.count,
        args.depth,
        args.max_imbalance,
        args.seed,
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
