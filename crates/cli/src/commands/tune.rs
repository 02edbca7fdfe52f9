//! `ataxx tune`: Texel tuning of the hand-crafted evaluation from PGN games.

use std::path::PathBuf;

use anyhow::{bail, Context};
use ataxx::{pgn, Color, GameResult};
use clap::Args as ClapArgs;
use engine::eval::{Weights, FEATURES, FEATURE_NAMES};
use engine::tune::{Sample, Tuner};
use indicatif::{ProgressBar, ProgressStyle};

#[derive(ClapArgs)]
pub struct Args {
    /// PGN files of finished games (unfinished games are skipped).
    #[arg(required = true, value_name = "PGN")]
    pgn: Vec<PathBuf>,
    /// Gradient steps over all positions.
    #[arg(long, default_value_t = 2000)]
    epochs: u32,
    /// Step size in hundredths of a piece.
    #[arg(long, default_value_t = 1.0)]
    learning_rate: f64,
    /// Leave out this many plies at the start of each game (book moves).
    #[arg(long, default_value_t = 4)]
    skip_plies: usize,
    /// Start from all-zero weights instead of the engine's current ones.
    #[arg(long)]
    from_zero: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let mut samples = Vec::new();
    let mut games = 0;
    for path in &args.pgn {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let parsed = pgn::parse_games(&text).with_context(|| format!("{}", path.display()))?;
        for game in parsed {
            let x_score = match game.result() {
                GameResult::Win(Color::X) => 1.0,
                GameResult::Win(Color::O) => 0.0,
                GameResult::Draw => 0.5,
                GameResult::Unfinished => continue,
            };
            games += 1;
            let mut pos = game.start();
            for (ply, played) in game.moves().iter().enumerate() {
                if ply >= args.skip_plies {
                    samples.extend(Sample::new(&pos, x_score));
                }
                pos.play_unchecked(played.mv());
            }
        }
    }
    if samples.is_empty() {
        bail!("no positions with a known result in the given PGN files");
    }
    let initial = if args.from_zero {
        Weights([0; FEATURES])
    } else {
        Weights::default()
    };
    let mut tuner = Tuner::new(samples, &initial, args.learning_rate);
    println!(
        "{} positions from {games} games; scale k = {:.4}; starting error {:.6}",
        tuner.samples(),
        tuner.scale(),
        tuner.error()
    );
    let bar = ProgressBar::new(u64::from(args.epochs));
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} epochs  error {msg}  {elapsed_precise}")
            .expect("valid template"),
    );
    for _ in 0..args.epochs {
        let error = tuner.epoch();
        bar.set_message(format!("{error:.6}"));
        bar.inc(1);
    }
    bar.finish();
    println!("final error {:.6}\n", tuner.error());
    let weights = tuner.weights();
    for (name, w) in FEATURE_NAMES.iter().zip(weights.0) {
        println!("{w:>6}  {name}");
    }
    println!("\nWeights({:?})", weights.0);
    Ok(())
}
