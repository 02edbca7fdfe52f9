//! Gataxx's level 3, as seed 003 reconstructs it: a one-ply look at the opponent's replies.
//!
//! For each of its moves the player finds the reply that leaves the opponent the most pieces and,
//! among those, the one that leaves the player the fewest. The move scores
//! `own - opponent` after that reply. This is not minimax: the opponent is assumed to grab the
//! most pieces, not to minimise the player's score.

use ataxx::{Color, Move, Position};

/// The gataxx level-3 score of playing `mv` in `pos`, in pieces.
pub fn worst_case_score(pos: &Position, mv: Move) -> i32 {
    let me = pos.turn();
    let mut after = *pos;
    after.play_unchecked(mv);
    let count = |p: &Position, c: Color| p.pieces(c).count() as i32;
    let replies = after.legal_moves();
    if replies.is_empty() {
        return count(&after, me) - count(&after, !me);
    }
    // (opponent's pieces, -own pieces) maximised lexicographically.
    let (his, mine) = replies
        .iter()
        .map(|&reply| {
            let mut next = after;
            next.play_unchecked(reply);
            (count(&next, !me), -count(&next, me))
        })
        .max()
        .expect("at least one reply");
    -mine - his
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_the_opponents_greediest_reply() {
        // x: c3; o: e5. After x plays d4 (flipping e5), o has no pieces: game over, 3 - 0.
        let pos: Position = "7/7/4o2/7/2x4/7/7 x 0 1".parse().unwrap();
        assert_eq!(worst_case_score(&pos, "d4".parse().unwrap()), 3);
        // After x plays b2, o's greediest reply is the single d4, flipping c3: o 3, x 1 (b2).
        assert_eq!(worst_case_score(&pos, "b2".parse().unwrap()), -2);
        // After x plays d3, o's single d4 flips c3 and d3: o 4, x 0.
        assert_eq!(worst_case_score(&pos, "d3".parse().unwrap()), -4);
    }
}
