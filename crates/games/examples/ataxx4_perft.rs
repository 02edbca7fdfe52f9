//! Four-player perft speed: `cargo run --release -p games --example ataxx4_perft -- [DEPTH] [FEN]`
//! prints the leaf count and leaves per second for each depth up to DEPTH (default 7) from FEN
//! (default the 7×7 start).

use std::time::Instant;

use games::ataxx4::{perft, Position};

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args
        .next()
        .map_or(7, |d| d.parse().expect("DEPTH is a number"));
    let fen = args.collect::<Vec<_>>().join(" ");
    let pos: Position = if fen.is_empty() {
        Position::startpos()
    } else {
        fen.parse().unwrap_or_else(|e| panic!("FEN {fen:?}: {e}"))
    };
    println!("{pos}");
    for d in 1..=depth {
        let clock = Instant::now();
        let leaves = perft(&pos, d);
        let seconds = clock.elapsed().as_secs_f64();
        println!(
            "depth {d}: {leaves} leaves in {seconds:.3} s, {:.1} M leaves/s",
            leaves as f64 / seconds.max(1e-9) / 1e6
        );
    }
}
