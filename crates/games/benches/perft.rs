//! Perft through the seam: Hexxagon's bulk counter, in the harness of square Ataxx's perft bench.

#[path = "../../ataxx/benches/harness/mod.rs"]
mod harness;

use criterion::{criterion_group, criterion_main, Criterion};
use games::hexxagon::{perft, Position};

fn hexxagon_perft(c: &mut Criterion) {
    let start = "x3o/6/7/8/o7x/8/7/6/x3o x 0 1";
    let classic = "x3o/6/7/4-3/o2-4x/4-3/7/6/x3o x 0 1";
    harness::bench_perft::<Position>(
        c,
        "hexxagon-perft",
        &[
            ("startpos-4", start, 4, 492_714, perft),
            ("startpos-5", start, 5, 16_906_239, perft),
            ("classic-4", classic, 4, 476_406, perft),
        ],
    );
}

criterion_group!(benches, hexxagon_perft);
criterion_main!(benches);
