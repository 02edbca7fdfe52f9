//! Perft for Hexxagon: leaves of the legal-move tree, counted in bulk at the last ply, with the
//! square game's conventions (a forced pass is one move; a finished position has none).

use super::geometry::bits;
use super::position::Position;

/// Leaves of the move tree `depth` plies deep. The last ply is counted without being made, and
/// the plies above it are made from cell indices, never from [`Move`](super::Move) values.
///
/// ```
/// use games::hexxagon::{perft, Position};
/// assert_eq!(perft(&Position::startpos(), 3), 16824);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(),
        _ => {
            if pos.is_game_over() {
                return 0;
            }
            let g = pos.geometry();
            let (us, _, empty) = pos.sides();
            let below = |from: Option<usize>, to: Option<usize>| {
                let mut child = *pos;
                child.apply(from, to);
                perft(&child, depth - 1)
            };
            let mut total = 0;
            let mut any = false;
            for to in bits(g.neighbours_of_set(us) & empty) {
                any = true;
                total += below(None, Some(to));
            }
            for from in bits(us) {
                for to in bits(g.jumps(from) & empty) {
                    any = true;
                    total += below(Some(from), Some(to));
                }
            }
            if !any {
                total = below(None, None);
            }
            total
        }
    }
}

#[cfg(test)]
mod tests {
    // The spec's table, every depth, is `tests/hexxagon_perft.rs`.
    use super::*;

    #[test]
    fn divide_sums_to_perft_and_passes_count_once() {
        let parts = crate::AnyPosition::divide(&Position::startpos(), 3);
        assert_eq!(parts.len(), 24);
        assert_eq!(parts.iter().map(|p| p.1).sum::<u64>(), 16824);
        let stuck: Position = "5/6/7/8/9/8/ooo4/ooo3/xoo2 x 0 1".parse().unwrap();
        assert_eq!(perft(&stuck, 1), 1);
        let mut after = stuck;
        after.play_unchecked(super::super::Move::Pass);
        assert_eq!(perft(&stuck, 2), after.count_moves());
        let finished: Position = "x3o/6/7/8/o7x/8/7/6/x3o x 100 1".parse().unwrap();
        assert_eq!((perft(&finished, 0), perft(&finished, 3)), (1, 0));
    }
}
