//! Perft through the seam: Hexxagon's bulk counter (and square Ataxx's for comparison).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use games::hexxagon::{perft, Position};

fn hexxagon_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("hexxagon-perft");
    group.sample_size(10);
    for (name, fen, depth, nodes) in [
        ("startpos-4", "x3o/6/7/8/o7x/8/7/6/x3o x 0 1", 4, 492_714u64),
        ("startpos-5", "x3o/6/7/8/o7x/8/7/6/x3o x 0 1", 5, 16_906_239),
        (
            "classic-4",
            "x3o/6/7/4-3/o2-4x/4-3/7/6/x3o x 0 1",
            4,
            476_406,
        ),
    ] {
        let pos: Position = fen.parse().unwrap();
        assert_eq!(perft(&pos, depth), nodes, "{name}");
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| b.iter(|| perft(black_box(&pos), depth)));
    }
    group.finish();
}

criterion_group!(benches, hexxagon_perft);
criterion_main!(benches);
