//! Move-tree counts (spec `variants.md` 2.4): a pass is one move, a colour that is out is
//! skipped (it never gets the turn, so it adds no level), a finished position has no moves.

use super::Position;

/// Leaf nodes `depth` plies deep, counting the last ply without playing it; the moves above it
/// on the stack, not in the seam's vectors, for speed (docs/benchmarks.md).
///
/// ```
/// use games::ataxx4::{perft, Position};
/// assert_eq!(perft(&Position::startpos(), 4), 4096);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    ataxx::perft_bulk(pos, depth)
}

ataxx::impl_move_tree!(Position);
