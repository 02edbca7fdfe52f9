//! Search scores: hundredths of a piece from the side to move's view, and game-end scores.
//!
//! A finished game scores [`WIN`] minus the plies it takes to reach it, so shorter wins rank
//! higher and longer losses rank higher. Static evaluations stay strictly inside
//! ±[`MAX_EVAL`], below every game-end score.

use std::fmt;

/// Deepest ply any search reaches (root = ply 0).
pub const MAX_PLY: usize = 128;

/// The score of a game won at the root.
pub const WIN: i32 = 10_000;

/// Scores at or above this are wins found by search.
pub const WIN_BOUND: i32 = WIN - MAX_PLY as i32;

/// Largest magnitude a static evaluation may return.
pub const MAX_EVAL: i32 = WIN_BOUND - 1;

/// Larger than any score; the initial search window.
pub const INFINITE: i32 = WIN + 1;

/// The score of the game being won `ply` plies from the root.
#[inline]
pub const fn win_in(ply: usize) -> i32 {
    WIN - ply as i32
}

/// Whether a score claims a forced game end (win or loss).
#[inline]
pub const fn is_decisive(score: i32) -> bool {
    score >= WIN_BOUND || score <= -WIN_BOUND
}

/// Scores are stored in the transposition table relative to the node that stores them, so a
/// forced end found at one ply keeps its distance when it is read back at another.
#[inline]
pub const fn to_table(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Inverse of [`to_table`].
#[inline]
pub const fn from_table(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A score for people: `+1.25`, `-0.40`, `win in 7 plies`, `loss in 4 plies`.
///
/// ```
/// use engine::score::{win_in, Human};
/// assert_eq!(Human(125).to_string(), "+1.25");
/// assert_eq!(Human(-40).to_string(), "-0.40");
/// assert_eq!(Human(win_in(7)).to_string(), "win in 7 plies");
/// assert_eq!(Human(-win_in(1)).to_string(), "loss in 1 ply");
/// ```
#[derive(Copy, Clone, Debug)]
pub struct Human(pub i32);

impl fmt::Display for Human {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let score = self.0;
        if is_decisive(score) {
            let plies = WIN - score.abs();
            let word = if score > 0 { "win" } else { "loss" };
            let unit = if plies == 1 { "ply" } else { "plies" };
            write!(f, "{word} in {plies} {unit}")
        } else {
            let sign = if score < 0 { '-' } else { '+' };
            write!(f, "{sign}{}.{:02}", score.abs() / 100, score.abs() % 100)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_scores_round_trip_and_keep_the_distance_from_the_storing_node() {
        for score in [0, 57, -300, win_in(9), -win_in(4)] {
            assert_eq!(from_table(to_table(score, 5), 5), score);
        }
        // A win 9 plies from the root found at ply 5 is a win in 4 from that node; read back at
        // ply 2 it becomes a win in 6 from the root.
        assert_eq!(from_table(to_table(win_in(9), 5), 2), win_in(6));
        assert!(!is_decisive(MAX_EVAL) && is_decisive(win_in(MAX_PLY)));
    }
}
