//! Four-player perft against the spec's table (`variants.md` 2.4), every depth it gives.

mod common;

use games::ataxx4::{perft, Position};
use games::GameKind;

const TABLE: [(&str, &[u64]); 3] = [
    (
        "r5b/7/7/7/7/7/y5g r 0 1",
        &[8, 64, 512, 4096, 69952, 1163908],
    ),
    ("r5b/7/2-1-2/7/2-1-2/7/y5g r 0 1", &[7, 49, 343, 2401]),
    ("r3b/5/5/5/y3g r 0 1", &[8, 61, 458, 3277, 45711]),
];

#[test]
fn spec_perft_table() {
    for (fen, counts) in TABLE {
        let pos: Position = fen.parse().unwrap();
        assert_eq!(perft(&pos, 0), 1);
        for (depth, &expected) in (1..).zip(counts) {
            assert_eq!(perft(&pos, depth), expected, "{fen} depth {depth}");
        }
    }
}

#[test]
fn divide_and_the_plain_recursion_agree_with_perft() {
    for (fen, counts) in TABLE {
        let any = GameKind::Ataxx4.parse_position(fen).unwrap();
        assert_eq!(any.perft(4), counts[3], "{fen}");
        let divided = any.divide(4);
        assert_eq!(divided.iter().map(|(_, n)| n).sum::<u64>(), counts[3]);
        // Playing every move, the last ply too (no bulk counting), gives the same totals.
        let pos: Position = fen.parse().unwrap();
        assert_eq!(common::plain_perft(&pos, 3), counts[2], "{fen}");
    }
}

#[test]
fn passes_eliminations_and_finished_positions() {
    // Red is boxed in by blocks: its only move is a pass, which counts as one move.
    let boxed: Position = "r--3b/---4/---4/7/7/7/y5g r 0 1".parse().unwrap();
    assert_eq!(boxed.legal_moves().to_vec(), vec![ataxx::Move::Pass]);
    assert_eq!(perft(&boxed, 1), 1);
    assert_eq!(perft(&boxed, 2), 8);
    // Blue is out: the turn goes from red straight to green, and the tree skips blue.
    let no_blue: Position = "r6/7/7/7/7/7/y5g r 0 1".parse().unwrap();
    let mut after = no_blue;
    after.play("b6".parse().unwrap()).unwrap();
    assert_eq!(after.to_string(), "r6/1r5/7/7/7/7/y5g g 0 1");
    assert_eq!(perft(&no_blue, 3), 512);
    // Finished positions have no moves: a lone colour, the clock, a full board.
    for fen in [
        "r6/7/7/7/7/7/7 r 0 1",
        "r5b/7/7/7/7/7/y5g r 100 1",
        "rrrbb/bgggg/ggyyy/rrrrr/----- b 0 9",
    ] {
        let pos: Position = fen.parse().unwrap();
        assert!(pos.is_game_over(), "{fen}");
        assert_eq!(
            (perft(&pos, 0), perft(&pos, 1), perft(&pos, 2)),
            (1, 0, 0),
            "{fen}"
        );
    }
}

#[test]
fn counters_follow_the_spec() {
    let mut pos = Position::startpos();
    let steps = [
        ("b6", "r5b/1r5/7/7/7/7/y5g b 0 1"),
        ("g7e5", "r6/1r5/4b2/7/7/7/y5g g 1 1"),
        ("f2", "r6/1r5/4b2/7/7/5g1/y5g y 0 1"),
        ("a1c3", "r6/1r5/4b2/7/2y4/5g1/6g r 1 2"),
        ("b6d4", "r6/7/4r2/3r3/2r4/5g1/6g g 2 2"),
    ];
    for (mv, fen) in steps {
        pos.play(mv.parse().unwrap()).unwrap();
        assert_eq!(pos.to_string(), fen, "after {mv}");
    }
}
