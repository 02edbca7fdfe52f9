//! Perft: counting the leaves of the legal-move tree (spec section 4).

use crate::{Move, MoveList, Position};

/// Leaves of the move tree `depth` plies deep, counted in bulk at the last ply.
///
/// ```
/// use ataxx::{perft, Position};
/// assert_eq!(perft(&Position::startpos(), 3), 6460);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(),
        _ => {
            let mut moves = MoveList::new();
            pos.generate_moves(&mut moves);
            moves
                .iter()
                .map(|&mv| {
                    let mut child = *pos;
                    child.play_unchecked(mv);
                    perft(&child, depth - 1)
                })
                .sum()
        }
    }
}

/// Perft below each legal move (a "divide"), in move-generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&mv| {
            let mut child = *pos;
            child.play_unchecked(mv);
            (mv, perft(&child, depth - 1))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spec's table, to the depths that take well under a second.
    #[test]
    fn published_perft_counts() {
        let table: [(&str, &[u64]); 5] = [
            (
                "x5o/7/7/7/7/7/o5x x 0 1",
                &[1, 16, 256, 6460, 155888, 4752668],
            ),
            (
                "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
                &[1, 14, 196, 4184, 86528, 2266352],
            ),
            (
                "7/7/7/7/4ooo/4ooo/4oox x 0 1",
                &[1, 1, 55, 55, 1961, 51113, 1683904],
            ),
            (
                "x5o/7/7/7/7/7/o5x x 99 1",
                &[1, 16, 96, 2336, 57676, 1853056],
            ),
            ("x5o/7/7/7/7/7/o5x x 100 1", &[1, 0, 0, 0, 0, 0, 0, 0]),
        ];
        for (fen, counts) in table {
            let pos: Position = fen.parse().unwrap();
            for (depth, &expected) in counts.iter().enumerate() {
                assert_eq!(perft(&pos, depth as u32), expected, "{fen} depth {depth}");
            }
        }
    }

    #[test]
    fn divide_sums_to_perft() {
        let pos = Position::startpos();
        let parts = divide(&pos, 3);
        assert_eq!(parts.len(), 16);
        assert_eq!(parts.iter().map(|p| p.1).sum::<u64>(), 6460);
    }
}
