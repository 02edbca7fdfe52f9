//! `ataxx bench`: the engine's fixed benchmark (node signature and speed), with the default
//! evaluation (the embedded net on 7×7 boards, the hand-crafted one elsewhere).

use clap::Args as ClapArgs;
use engine::{bench, net_eval::NetEval, score::Human};

#[derive(ClapArgs)]
pub struct Args {
    /// Search depth for every benchmark position.
    #[arg(long, default_value_t = bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(i32).range(1..=64))]
    depth: i32,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let summary = bench::run(NetEval::default(), args.depth, |pos, report| {
        println!(
            "{:<64} score {:>14}  nodes {:>10}  best {}",
            pos.to_string(),
            Human(report.score).to_string(),
            report.nodes,
            report.best_move()
        );
    });
    println!(
        "\n{} nodes {} nps ({:.3} s, depth {})",
        summary.nodes,
        summary.nps(),
        summary.time.as_secs_f64(),
        args.depth
    );
    Ok(())
}
