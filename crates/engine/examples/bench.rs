//! `ataxx bench` without the rest of the `ataxx` binary: the node signature and nodes/s at a
//! depth (default [`engine::bench::DEFAULT_DEPTH`]), for quick A/B timings between builds.
//!
//!     cargo run --release -p ataxx-engine --example bench [DEPTH]

use engine::{bench, eval::HandCrafted};

fn main() {
    let depth = std::env::args()
        .nth(1)
        .map_or(bench::DEFAULT_DEPTH, |d| d.parse().expect("a depth"));
    let summary = bench::run(HandCrafted::default(), depth, |_, _| {});
    println!("{} nodes {} nps", summary.nodes, summary.nps());
}
