//! Ankor move-tree counts and speed from the empty board through the seam's perft:
//! `cargo run -p games --release --example ankor_perft -- [SIZE] [MAX_DEPTH] [H]`
//! (defaults 6, 4, 1).

use std::time::Instant;

use games::ankor::Position;
use games::Rules;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: i64| -> i64 {
        args.get(i)
            .map(|s| s.parse().expect("a number"))
            .unwrap_or(default)
    };
    let (size, depth, h) = (arg(0, 6) as u8, arg(1, 4) as u32, arg(2, 1) as i8);
    let pos = Position::new(size, h).expect("size 3 to 8, H 0, 1 or -1");
    println!("{pos}");
    for d in 1..=depth {
        let start = Instant::now();
        let nodes = Rules::perft(&pos, d);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "depth {d}: {nodes} nodes in {:.3} ms ({:.2} M nodes/s)",
            secs * 1e3,
            nodes as f64 / secs.max(1e-9) / 1e6
        );
    }
}
