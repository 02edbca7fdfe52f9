//! The perft benchmark of every game on Ataxx's rules (square Ataxx here, Hexxagon in the
//! `games` crate, which includes this file): each case's count is checked once, then timed,
//! with its leaves as the throughput.

use std::fmt::Debug;
use std::str::FromStr;

use criterion::{black_box, Criterion, Throughput};

/// One benchmark: its name, the position's FEN, the depth, the leaves perft must count and the
/// perft that counts them.
pub type Case<P> = (&'static str, &'static str, u32, u64, fn(&P, u32) -> u64);

/// Benchmarks each case in a group of ten samples.
pub fn bench_perft<P>(c: &mut Criterion, group: &str, cases: &[Case<P>])
where
    P: FromStr,
    P::Err: Debug,
{
    let mut group = c.benchmark_group(group);
    group.sample_size(10);
    for &(name, fen, depth, nodes, perft) in cases {
        let pos: P = fen.parse().unwrap();
        assert_eq!(perft(&pos, depth), nodes, "{name}");
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| b.iter(|| perft(black_box(&pos), depth)));
    }
    group.finish();
}
