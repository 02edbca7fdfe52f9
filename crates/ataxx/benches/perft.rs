//! Square Ataxx's perft: with the depth-2 shortcut, and with bulk counting at the last ply only
//! (`perft_bulk`) for comparison with other libraries' plain bulk-counting perft.

mod harness;

use ataxx::{perft, perft_bulk, Position};
use criterion::{criterion_group, criterion_main, Criterion};

fn perft_benches(c: &mut Criterion) {
    let start = "x5o/7/7/7/7/7/o5x x 0 1";
    harness::bench_perft::<Position>(
        c,
        "perft",
        &[
            ("startpos-5", start, 5, 4_752_668, perft),
            ("startpos-6", start, 6, 141_865_520, perft),
            (
                "4corners-5",
                "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
                5,
                2_266_352,
                perft,
            ),
            ("startpos-6-plain-bulk", start, 6, 141_865_520, perft_bulk),
        ],
    );
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
