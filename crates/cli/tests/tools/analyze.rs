//! `ataxx analyze`: the best line and score of one position, on one thread or several.

use crate::common::{ataxx, stdout_of};

/// x wins in three plies (proved by exhaustive search in the engine's tests).
const WIN_IN_THREE: &str = "1x111/11111/1111o/ox11o/x1111 x 0 1";

#[test]
fn a_forced_win_is_found_and_named_on_one_thread_and_on_two() {
    for threads in ["1", "2"] {
        let out = stdout_of(&[
            "analyze",
            "--fen",
            WIN_IN_THREE,
            "--depth",
            "9",
            "--threads",
            threads,
        ]);
        let last = out.lines().last().unwrap_or_default();
        assert!(
            last.starts_with("best move ") && last.contains("(score win in 3 plies, depth 9,"),
            "{threads} threads: {out}"
        );
        assert!(out.contains("x to move"), "{out}");
    }
}

#[test]
fn a_finished_game_is_reported_instead_of_searched() {
    let out = stdout_of(&["analyze", "--fen", "x5o/7/7/7/7/7/o5x x 100 60"]);
    assert!(out.contains("the game is over"), "{out}");
    assert!(!out.contains("best move"), "{out}");
}

#[test]
fn bad_positions_and_thread_counts_are_refused_with_the_reason() {
    let out = ataxx(&["analyze", "--fen", "9/9 x"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--fen \"9/9 x\""), "{err}");
    let out = ataxx(&["analyze", "--threads", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--threads"), "{err}");
}
