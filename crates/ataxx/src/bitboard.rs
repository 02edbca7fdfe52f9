//! Sets of cells as 64-bit masks.
//!
//! Every square board from 3×3 to 8×8 uses the same layout: bit `8·rank + file`, with `a1` = bit 0.
//! A board smaller than 8×8 simply never uses the files and ranks past its edge (the position keeps
//! them walled off), so one set of shift routines serves every size.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::Square;

/// A set of squares.
///
/// ```
/// use ataxx::{Bitboard, Square};
/// let a1: Square = "a1".parse().unwrap();
/// let set = Bitboard::from_square(a1).neighbours();
/// assert_eq!(set.count(), 3); // b1, a2, b2 (plus off-board cells of the 8×8 grid are never included)
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_B: u64 = FILE_A << 1;
const FILE_G: u64 = FILE_A << 6;
const FILE_H: u64 = FILE_A << 7;

/// Shift by `dx` files and `dy` ranks, dropping bits that leave the 8×8 grid.
#[inline(always)]
const fn shift(b: u64, dx: i32, dy: i32) -> u64 {
    let keep = match dx {
        2 => !(FILE_A | FILE_B),
        1 => !FILE_A,
        0 => !0,
        -1 => !FILE_H,
        _ => !(FILE_G | FILE_H),
    };
    let by = dx + 8 * dy;
    let moved = if by >= 0 { b << by } else { b >> -by };
    moved & keep
}

/// The 16 offsets at Chebyshev distance exactly 2.
const JUMP_OFFSETS: [(i32, i32); 16] = [
    (-2, -2),
    (-1, -2),
    (0, -2),
    (1, -2),
    (2, -2),
    (-2, -1),
    (2, -1),
    (-2, 0),
    (2, 0),
    (-2, 1),
    (2, 1),
    (-2, 2),
    (-1, 2),
    (0, 2),
    (1, 2),
    (2, 2),
];

const fn table(single: bool) -> [Bitboard; 64] {
    let mut out = [Bitboard(0); 64];
    let mut sq = 0;
    while sq < 64 {
        let b = 1u64 << sq;
        out[sq] = if single {
            Bitboard(spread1(b) & !b)
        } else {
            let mut acc = 0;
            let mut i = 0;
            while i < 16 {
                acc |= shift(b, JUMP_OFFSETS[i].0, JUMP_OFFSETS[i].1);
                i += 1;
            }
            Bitboard(acc)
        };
        sq += 1;
    }
    out
}

#[inline(always)]
const fn spread1(b: u64) -> u64 {
    let row = b | shift(b, 1, 0) | shift(b, -1, 0);
    row | (row << 8) | (row >> 8)
}

static NEIGHBOURS: [Bitboard; 64] = table(true);
static JUMP_TARGETS: [Bitboard; 64] = table(false);

/// Up to this many pieces, counting jumps piece by piece is faster than 16 shifted copies
/// (measured with the perft benchmark).
const PER_PIECE_JUMP_COUNT: u32 = 8;

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 cells of the 8×8 grid.
    pub const FULL: Bitboard = Bitboard(!0);

    /// The set holding just `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// The first `n` files of the first `n` ranks: the cells of an n×n board.
    pub const fn board(n: u8) -> Bitboard {
        let row = (1u64 << n) - 1;
        let mut acc = 0;
        let mut r = 0;
        while r < n {
            acc |= row << (8 * r);
            r += 1;
        }
        Bitboard(acc)
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// The lowest square of the set, if any.
    #[inline(always)]
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// Every square at distance exactly 1 from some square of the set (the set itself excluded
    /// only where no other member touches it).
    #[inline(always)]
    pub const fn neighbours(self) -> Bitboard {
        Bitboard(spread1(self.0) & !self.0)
    }

    /// Every square at distance 0, 1 or 2 from the set.
    #[inline(always)]
    pub const fn within_two(self) -> Bitboard {
        let b = self.0;
        let row1 = b | shift(b, 1, 0) | shift(b, -1, 0);
        let row2 = row1 | shift(row1, 1, 0) | shift(row1, -1, 0);
        Bitboard(row2 | (row2 << 8) | (row2 >> 8) | (row2 << 16) | (row2 >> 16))
    }

    /// Squares at distance 1 from `sq`.
    #[inline(always)]
    pub fn neighbours_of(sq: Square) -> Bitboard {
        NEIGHBOURS[sq.index() as usize]
    }

    /// Squares at distance exactly 2 from `sq` (where a jump from `sq` may land).
    #[inline(always)]
    pub fn jump_targets_of(sq: Square) -> Bitboard {
        JUMP_TARGETS[sq.index() as usize]
    }

    /// Number of (from, to) pairs with `from` in `self`, `to` in `targets` and distance exactly 2.
    /// Few pieces are counted one table look-up each; many with one shifted copy of the whole
    /// set per jump direction, which costs the same whatever the number of pieces.
    #[inline(always)]
    pub fn count_jumps_to(self, targets: Bitboard) -> u32 {
        if self.count() <= PER_PIECE_JUMP_COUNT {
            return self
                .map(|sq| (JUMP_TARGETS[sq.index() as usize] & targets).count())
                .sum();
        }
        let mut total = 0;
        for (dx, dy) in JUMP_OFFSETS {
            total += (shift(self.0, dx, dy) & targets.0).count_ones();
        }
        total
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        iter.into_iter()
            .fold(Bitboard::EMPTY, |acc, sq| acc | Bitboard::from_square(sq))
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    /// Draws the 8×8 grid, rank 8 on top, `1` for members.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        for rank in (0..8).rev() {
            for file in 0..8 {
                let bit = self.0 >> (8 * rank + file) & 1;
                f.write_str(if bit == 1 { "1" } else { "." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_have_the_right_sizes_in_the_middle_and_corners() {
        let d4: Square = "d4".parse().unwrap();
        let a1: Square = "a1".parse().unwrap();
        let h8 = Square::from_index_unchecked(63);
        assert_eq!(Bitboard::neighbours_of(d4).count(), 8);
        assert_eq!(Bitboard::jump_targets_of(d4).count(), 16);
        assert_eq!(Bitboard::neighbours_of(a1).count(), 3);
        assert_eq!(Bitboard::jump_targets_of(a1).count(), 5);
        assert_eq!(Bitboard::jump_targets_of(h8).count(), 5);
    }

    #[test]
    fn jump_count_matches_per_piece_count() {
        let pieces = Bitboard(0x0042_0018_2400_8101);
        let targets = !pieces & Bitboard::board(7);
        let slow: u32 = pieces
            .map(|sq| (Bitboard::jump_targets_of(sq) & targets).count())
            .sum();
        assert_eq!(pieces.count_jumps_to(targets), slow);
    }

    #[test]
    fn within_two_is_the_union_of_rings() {
        let sq: Square = "b6".parse().unwrap();
        let b = Bitboard::from_square(sq);
        let expected = b | Bitboard::neighbours_of(sq) | Bitboard::jump_targets_of(sq);
        assert_eq!(b.within_two(), expected);
    }
}
