use ataxx::{perft, Position};

/// Perft with bulk counting at the last ply only (no depth-2 shortcut), for comparison with
/// other libraries' plain bulk-counting perft.
fn perft_plain(pos: &Position, depth: u32) -> u64 {
    if depth == 1 {
        return pos.count_moves();
    }
    pos.legal_moves()
        .iter()
        .map(|&mv| {
            let mut child = *pos;
            child.play_unchecked(mv);
            perft_plain(&child, depth - 1)
        })
        .sum()
}
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

fn perft_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (name, fen, depth, nodes) in [
        ("startpos-5", "x5o/7/7/7/7/7/o5x x 0 1", 5, 4_752_668u64),
        ("startpos-6", "x5o/7/7/7/7/7/o5x x 0 1", 6, 141_865_520),
        (
            "4corners-5",
            "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
            5,
            2_266_352,
        ),
    ] {
        let pos: Position = fen.parse().unwrap();
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| b.iter(|| perft(black_box(&pos), depth)));
    }
    let start = Position::startpos();
    group.throughput(Throughput::Elements(141_865_520));
    group.bench_function("startpos-6-plain-bulk", |b| {
        b.iter(|| perft_plain(black_box(&start), 6))
    });
    group.finish();
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
