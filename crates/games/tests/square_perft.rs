//! Square Ataxx through the seam: the `ataxx` crate's counter, which counts the last two plies
//! without playing them, against playing every move.

mod common;

use games::Rules;

#[test]
fn the_crate_s_counter_agrees_with_the_plain_recursion() {
    for fen in [
        "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
        "x5o/7/7/7/7/7/o5x x 0 1",
        "x1o/3/o1x x 0 1",
    ] {
        let pos: ataxx::Position = fen.parse().unwrap();
        assert_eq!(Rules::perft(&pos, 4), common::plain_perft(&pos, 4), "{fen}");
    }
}
