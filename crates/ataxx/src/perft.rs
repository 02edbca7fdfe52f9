//! Perft: counting the leaves of the legal-move tree (spec section 4).

use crate::{count_with_pass, Bitboard, Move, MoveList, Position, HALFMOVE_LIMIT};

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
        2 => perft2(pos),
        _ => sum_over_children(pos, |child| perft(child, depth - 1)),
    }
}

/// A position of a game on square-grid bitboards with Ataxx's moves (square Ataxx, four-player
/// Ataxx): what perft needs to walk its move tree.
pub trait MoveTree: Copy {
    /// Appends every legal move: a lone pass when the side to move is stuck, none once the game
    /// is over.
    fn generate_moves(&self, moves: &mut MoveList);
    /// Plays a move from [`MoveTree::generate_moves`].
    fn play_unchecked(&mut self, mv: Move);
    /// How many moves [`MoveTree::generate_moves`] would list, counted without listing them.
    fn count_moves(&self) -> u64;

    /// Every legal move, as [`MoveTree::generate_moves`] lists them.
    #[inline(always)]
    fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        moves
    }
}

/// Implements [`MoveTree`] for a type by its inherent `generate_moves`, `play_unchecked` and
/// `count_moves` (whatever `play_unchecked` returns is dropped).
#[macro_export]
macro_rules! impl_move_tree {
    ($position:ty) => {
        impl $crate::MoveTree for $position {
            #[inline(always)]
            fn generate_moves(&self, moves: &mut $crate::MoveList) {
                <$position>::generate_moves(self, moves);
            }

            #[inline(always)]
            fn play_unchecked(&mut self, mv: $crate::Move) {
                <$position>::play_unchecked(self, mv);
            }

            #[inline(always)]
            fn count_moves(&self) -> u64 {
                <$position>::count_moves(self)
            }
        }
    };
}

impl_move_tree!(Position);

/// Leaves of the move tree `depth` plies deep, counted in bulk at the last ply only (no
/// depth-2 shortcut): four-player Ataxx's perft, and square Ataxx's for comparison with other
/// libraries' plain bulk counting.
///
/// ```
/// use ataxx::{perft_bulk, Position};
/// assert_eq!(perft_bulk(&Position::startpos(), 3), 6460);
/// ```
pub fn perft_bulk<P: MoveTree>(pos: &P, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(),
        _ => sum_over_children(pos, |child| perft_bulk(child, depth - 1)),
    }
}

/// The sum of `count` over the children of `pos`, in move-generation order.
#[inline(always)]
fn sum_over_children<P: MoveTree>(pos: &P, mut count: impl FnMut(&P) -> u64) -> u64 {
    // Listed in place: a returned list (`legal_moves`) is copied, 2 KiB a node.
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = *pos;
            child.play_unchecked(mv);
            count(&child)
        })
        .sum()
}

/// `perft(pos, 2)` without making the grandchildren's moves: each child's move count is derived
/// from the parent's jump count for the opponent, corrected for the cells the move changed.
///
/// Jumps of the side A to move in the child = pairs (a in A, e empty) at distance 2. The move
/// fills `to`, empties `from` (jumps only) and takes the flipped pieces F out of A, so the
/// child's count is the parent's minus A's pairs into `to`, plus A's pairs into `from`, minus
/// F's pairs into the child's empty cells. That replaces 16 shifted copies per child by a few
/// table look-ups.
fn perft2(pos: &Position) -> u64 {
    if pos.is_game_over() {
        return 0;
    }
    let us = pos.pieces(pos.turn());
    let them = pos.pieces(!pos.turn());
    let empty = pos.empty();
    let their_jumps = them.count_jumps_to(empty);
    let jumps_into = |cell, set: Bitboard| Bitboard::jump_targets_of(cell) & set;

    let mut total = 0;
    for to in us.neighbours() & empty {
        let flips = Bitboard::neighbours_of(to) & them;
        let child_empty = empty ^ Bitboard::from_square(to);
        let lost: u32 = flips.map(|p| jumps_into(p, child_empty).count()).sum();
        let jumps = their_jumps - jumps_into(to, them).count() - lost;
        let child_us = us | Bitboard::from_square(to) | flips;
        total += child_move_count(them ^ flips, child_us, child_empty, jumps, 0);
    }
    let halfmove = pos.halfmove_clock() + 1;
    for from in us {
        let gained = jumps_into(from, them).count();
        for to in jumps_into(from, empty) {
            let flips = Bitboard::neighbours_of(to) & them;
            let moved = Bitboard::from_square(from) | Bitboard::from_square(to);
            let child_empty = empty ^ moved;
            let lost: u32 = flips.map(|p| jumps_into(p, child_empty).count()).sum();
            let jumps = their_jumps - jumps_into(to, them).count() + gained - lost;
            let child_us = us ^ moved ^ flips;
            total += child_move_count(them ^ flips, child_us, child_empty, jumps, halfmove);
        }
    }
    if total == 0 && (us.within_two() & empty).is_empty() {
        // The side to move is stuck: its one move is a pass.
        let mut child = *pos;
        child.play_unchecked(Move::Pass);
        return child.count_moves();
    }
    total
}

/// [`Position::count_moves`] for a child position given as its parts, with the jump count known.
#[inline(always)]
fn child_move_count(
    mover: Bitboard,
    other: Bitboard,
    empty: Bitboard,
    jumps: u32,
    halfmove: u32,
) -> u64 {
    if halfmove >= HALFMOVE_LIMIT || mover.is_empty() {
        return 0;
    }
    count_with_pass((mover.neighbours() & empty).count() + jumps, || {
        !(other.within_two() & empty).is_empty()
    })
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

    /// The incremental depth-2 count against making every move, on positions of many shapes.
    #[test]
    fn depth_two_shortcut_matches_plain_counting() {
        let mut pos = Position::startpos();
        let mut seed = 0x1234_5678_u64;
        for _ in 0..2000 {
            let plain: u64 = pos
                .legal_moves()
                .iter()
                .map(|&mv| {
                    let mut child = pos;
                    child.play_unchecked(mv);
                    child.count_moves()
                })
                .sum();
            assert_eq!(perft2(&pos), plain, "{pos}");
            let moves = pos.legal_moves();
            if moves.is_empty() {
                pos = Position::startpos();
                continue;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            pos.play_unchecked(moves[(seed % moves.len() as u64) as usize]);
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
