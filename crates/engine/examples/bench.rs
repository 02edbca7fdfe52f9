//! `ataxx bench` without the rest of the `ataxx` binary: the node signature and nodes/s at a
//! depth (default [`engine::bench::DEFAULT_DEPTH`]) with the default evaluation, for quick A/B
//! timings between builds; `hce` instead of a net file benches the hand-crafted evaluation, a
//! net file that network (their nodes/s cost).
//!
//!     cargo run --release -p ataxx-engine --example bench [DEPTH [NET_FILE | hce]]

use std::path::Path;

use engine::{bench, eval::HandCrafted, net_eval::NetEval, nnue::Network};

fn main() -> Result<(), engine::nnue::NetError> {
    let mut args = std::env::args().skip(1);
    let depth = args
        .next()
        .map_or(bench::DEFAULT_DEPTH, |d| d.parse().expect("a depth"));
    let summary = match args.next().as_deref() {
        Some("hce") => bench::run(HandCrafted::default(), depth, |_, _| {}),
        Some(path) => {
            let net = Network::load(Path::new(path))?;
            bench::run(NetEval::new(Some(net)), depth, |_, _| {})
        }
        None => bench::run(NetEval::default(), depth, |_, _| {}),
    };
    println!("{} nodes {} nps", summary.nodes, summary.nps());
    Ok(())
}
