//! The shape of a square board (square Ataxx, four-player Ataxx): its side and its walls.

use crate::Bitboard;

/// An n×n board in the 8×8 bitboard layout: its side and its walls, the blocked cells plus
/// every cell off the board, so that a position's empty cells are one complement away and no
/// move ever leaves the board.
///
/// ```
/// use ataxx::{Bitboard, Grid};
/// let blocked = Bitboard::from_square("b2".parse().unwrap());
/// let grid = Grid::new(3, blocked);
/// assert_eq!((grid.size(), grid.cells().count(), grid.blocked()), (3, 9, blocked));
/// assert_eq!((!grid.walls()).count(), 8);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Grid {
    walls: Bitboard,
    size: u8,
}

impl Grid {
    /// The `size`×`size` board (1 to 8) with `blocked` cells; blocks off the board are walls
    /// anyway.
    pub const fn new(size: u8, blocked: Bitboard) -> Grid {
        Grid {
            walls: Bitboard(!Bitboard::board(size).0 | blocked.0),
            size,
        }
    }

    /// The board's side.
    #[inline(always)]
    pub const fn size(self) -> u8 {
        self.size
    }

    /// Every cell of the board, blocked ones included.
    #[inline(always)]
    pub const fn cells(self) -> Bitboard {
        Bitboard::board(self.size)
    }

    /// The blocked cells of the board.
    #[inline(always)]
    pub const fn blocked(self) -> Bitboard {
        Bitboard(self.walls.0 & self.cells().0)
    }

    /// The blocked cells and every cell off the board: no piece ever stands there.
    #[inline(always)]
    pub const fn walls(self) -> Bitboard {
        self.walls
    }
}
