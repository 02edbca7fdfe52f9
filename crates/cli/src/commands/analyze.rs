//! `ataxx analyze`: search one position and show the best line and score.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::Context;
use ataxx::{DiagramStyle, Position};
use clap::Args as ClapArgs;
use engine::{net_eval::NetEval, score::Human, search::Engine, time::Limits};

#[derive(ClapArgs)]
pub struct Args {
    /// Position to analyse (FEN or `startpos`).
    #[arg(long, default_value = "startpos")]
    fen: String,
    /// Search to this depth.
    #[arg(long, conflicts_with = "movetime", value_parser = clap::value_parser!(i32).range(1..=127))]
    depth: Option<i32>,
    /// Search for this many milliseconds (the default is 1000 when no depth is given).
    #[arg(long)]
    movetime: Option<u64>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=4096))]
    hash: u64,
    /// Search threads (Lazy SMP: the helpers share the transposition table).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let pos: Position = args
        .fen
        .parse()
        .with_context(|| format!("--fen {:?}", args.fen))?;
    print!("{}", pos.diagram(DiagramStyle::FEN));
    println!("{} to move\n", pos.turn());
    if let Some(outcome) = pos.outcome() {
        println!("the game is over: {outcome}");
        return Ok(());
    }
    let movetime = match (args.depth, args.movetime) {
        (None, None) => Some(1000),
        (_, t) => t,
    };
    let limits = Limits {
        depth: args.depth,
        movetime: movetime.map(Duration::from_millis),
        ..Limits::default()
    };
    let mut engine = Engine::new(NetEval::default(), args.hash as usize);
    engine.set_threads(args.threads as usize);
    let report = engine.search(&pos, &limits, &AtomicBool::new(false), |r| {
        let pv: Vec<String> = r.pv.iter().map(ToString::to_string).collect();
        println!(
            "depth {:>2}/{:<2} score {:>14}  nodes {:>10}  {:>6} ms  pv {}",
            r.depth,
            r.seldepth,
            Human(r.score).to_string(),
            r.nodes,
            r.time.as_millis(),
            pv.join(" ")
        );
    });
    println!(
        "\nbest move {} (score {}, depth {}, {} nodes, {} nodes/s)",
        report.best_move(),
        Human(report.score),
        report.depth,
        report.nodes,
        report.nps()
    );
    Ok(())
}
