//! `ataxx perft`: move-tree leaf counts, per depth or divided by first move, for any game
//! behind the `games` seam (square Ataxx keeps its fast counter through it).

use std::time::Instant;

use anyhow::Context;
use clap::Args as ClapArgs;
use games::{AnyPosition, GameKind};

#[derive(ClapArgs)]
pub struct Args {
    /// Game whose rules to count: ataxx (square boards) or hexxagon.
    #[arg(long, default_value = "ataxx")]
    variant: GameKind,
    /// Position to count from (FEN of the variant, or `startpos`).
    #[arg(long, default_value = "startpos")]
    fen: String,
    /// Deepest ply to count; every depth from 1 up to it is printed.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(0..=12))]
    depth: u32,
    /// Print the count below each first move at the given depth instead.
    #[arg(long)]
    divide: bool,
    /// One JSON object per line instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let pos: Box<dyn AnyPosition> = if args.fen.trim() == "startpos" {
        args.variant.start(&Default::default())
    } else {
        args.variant.parse_position(&args.fen)
    }
    .with_context(|| format!("--fen {:?}", args.fen))?;
    if args.divide {
        let start = Instant::now();
        // Depth 0 has no first moves to divide by.
        let parts = match args.depth {
            0 => Vec::new(),
            depth => pos.divide(depth),
        };
        let total: u64 = parts.iter().map(|(_, n)| n).sum();
        for (mv, nodes) in &parts {
            if args.json {
                println!("{}", serde_json::json!({ "move": mv, "nodes": nodes }));
            } else {
                println!("{mv} {nodes}");
            }
        }
        let ms = start.elapsed().as_secs_f64() * 1e3;
        if args.json {
            println!(
                "{}",
                serde_json::json!({ "depth": args.depth, "nodes": total, "ms": ms })
            );
        } else {
            println!("\nmoves {}\nnodes {total}", parts.len());
        }
        return Ok(());
    }
    for depth in 1..=args.depth {
        let start = Instant::now();
        let nodes = pos.perft(depth);
        let secs = start.elapsed().as_secs_f64();
        let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
        if args.json {
            let line = serde_json::json!({
                "depth": depth, "nodes": nodes, "ms": secs * 1e3, "nps": nps.round()
            });
            println!("{line}");
        } else {
            println!(
                "depth {depth:>2}  nodes {nodes:>14}  time {:>10.3} ms  {:>8.1} Mnps",
                secs * 1e3,
                nps / 1e6
            );
        }
    }
    Ok(())
}
