//! The network's inputs: every 2×2 window of a 7×7 board, seen from one side.
//!
//! Each of the 36 windows shows one of 4⁴ = 256 patterns (each cell empty, ours, theirs or
//! blocked), and each (window, pattern) pair is one input, so a position has exactly 36 active
//! inputs per side. Windows rather than single cells: a window sees the local shapes that decide
//! captures (a hole next to a piece, a pair that shields a corner) that per-square inputs can only
//! add up linearly, at the same number of active inputs.
//!
//! A move changes the cells it fills and flips; only the windows over those cells change input,
//! which is what the accumulators update (see [`changed_windows`]).

use ataxx::{Color, Position};

/// The board size the network covers.
pub const BOARD_SIZE: u8 = 7;
/// Windows per rank and per file.
const SIDE: usize = BOARD_SIZE as usize - 1;
/// Windows on the board.
pub const WINDOWS: usize = SIDE * SIDE;
/// Patterns of one window.
pub const PATTERNS: usize = 256;
/// Number of inputs.
pub const INPUTS: usize = WINDOWS * PATTERNS;

/// Bits of the lower-left cells of the windows (files and ranks 0 to 5).
const ANCHORS: u64 = {
    let mut bits = 0u64;
    let mut rank = 0;
    while rank < SIDE {
        bits |= 0x3f << (8 * rank);
        rank += 1;
    }
    bits
};

/// A window's four cells as a nibble (bit 0 lower left, 1 lower right, 2 upper left, 3 upper
/// right) spread to base-4 digits: digit `i` is 1 when bit `i` is set.
const SPREAD: [u16; 16] = {
    let mut out = [0u16; 16];
    let mut n = 0;
    while n < 16 {
        let mut i = 0;
        while i < 4 {
            if n & (1 << i) != 0 {
                out[n] += 1 << (2 * i);
            }
            i += 1;
        }
        n += 1;
    }
    out
};

#[inline(always)]
fn nibble(bits: u64, anchor: u32) -> usize {
    let v = (bits >> anchor) & 0x303;
    ((v & 3) | ((v >> 6) & 0xc)) as usize
}

/// The three bitboards of one side's view: its pieces, the opponent's, and the blocked cells.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct View {
    pub ours: u64,
    pub theirs: u64,
    pub blocked: u64,
}

impl View {
    /// `pos` seen by `side`.
    pub fn of(pos: &Position, side: Color) -> View {
        View {
            ours: pos.pieces(side).0,
            theirs: pos.pieces(!side).0,
            blocked: pos.blocked().0,
        }
    }

    /// The input of window `window` (0–35, rank-major from a1).
    #[inline(always)]
    pub fn input(&self, window: usize) -> usize {
        let anchor = (8 * (window / SIDE) + window % SIDE) as u32;
        let pattern = SPREAD[nibble(self.ours, anchor)]
            + 2 * SPREAD[nibble(self.theirs, anchor)]
            + 3 * SPREAD[nibble(self.blocked, anchor)];
        window * PATTERNS + usize::from(pattern)
    }

    /// All active inputs, one per window.
    pub fn inputs(&self) -> [u16; WINDOWS] {
        std::array::from_fn(|w| self.input(w) as u16)
    }
}

/// The windows (as a bitboard of anchors) whose input differs when the cells `changed` change.
#[inline(always)]
pub fn changed_windows(changed: u64) -> u64 {
    // A cell lies in the windows anchored on it and on its left, lower and lower-left
    // neighbours. Shifting right by one moves file 0 onto file 7 of the rank below, which is
    // no anchor.
    (changed | changed >> 1 | changed >> 8 | changed >> 9) & ANCHORS
}

/// The window anchored on bit `anchor` of [`changed_windows`].
#[inline(always)]
pub fn window_of_anchor(anchor: u32) -> usize {
    (anchor as usize / 8) * SIDE + anchor as usize % 8
}

/// The eight symmetries of the square board (used to augment training data): `index` bit 0
/// mirrors the files, bit 1 the ranks, bit 2 swaps files and ranks.
pub fn symmetric(bits: u64, index: u8) -> u64 {
    let n = BOARD_SIZE - 1;
    let mut out = 0;
    let mut rest = bits;
    while rest != 0 {
        let bit = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        let (mut file, mut rank) = (bit % 8, bit / 8);
        if index & 1 != 0 {
            file = n - file;
        }
        if index & 2 != 0 {
            rank = n - rank;
        }
        if index & 4 != 0 {
            std::mem::swap(&mut file, &mut rank);
        }
        out |= 1u64 << (8 * rank + file);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ataxx::Square;

    /// The input of each window, read cell by cell through the position's own accessors.
    fn inputs_by_cells(pos: &Position, side: Color) -> Vec<usize> {
        let mut out = Vec::new();
        for rank in 0..6u8 {
            for file in 0..6u8 {
                let mut pattern = 0;
                for (i, (df, dr)) in [(0, 0), (1, 0), (0, 1), (1, 1)].into_iter().enumerate() {
                    let sq = Square::new(file + df, rank + dr).unwrap();
                    let state = match pos.piece_at(sq) {
                        None => 0,
                        Some(Ok(c)) if c == side => 1,
                        Some(Ok(_)) => 2,
                        Some(Err(())) => 3,
                    };
                    pattern += state * 4usize.pow(i as u32);
                }
                out.push(usize::from(rank * 6 + file) * PATTERNS + pattern);
            }
        }
        out
    }

    #[test]
    fn inputs_match_a_cell_by_cell_reading() {
        for fen in [
            "x5o/7/7/7/7/7/o5x x 0 1",
            "-xxoo--/x-xoo-o/xxx-ooo/7/ooo-xxx/o-oxx-x/--ooxx- o 0 12",
            "xxx2oo/xx3oo/x1x1o2/7/2o1x2/oo3xx/oo2xxx x 0 10",
        ] {
            let pos: Position = fen.parse().unwrap();
            for side in [Color::X, Color::O] {
                let ours: Vec<usize> = View::of(&pos, side)
                    .inputs()
                    .iter()
                    .map(|&i| usize::from(i))
                    .collect();
                assert_eq!(ours, inputs_by_cells(&pos, side), "{fen} {side:?}");
            }
        }
    }

    #[test]
    fn changed_windows_are_those_covering_a_changed_cell() {
        for bit in (0..64u32).filter(|b| b % 8 < 7 && b / 8 < 7) {
            let windows = changed_windows(1 << bit);
            let (file, rank) = (bit % 8, bit / 8);
            let expected = (0..64u32)
                .filter(|a| a % 8 < 6 && a / 8 < 6)
                .filter(|a| {
                    (a % 8..=a % 8 + 1).contains(&file) && (a / 8..=a / 8 + 1).contains(&rank)
                })
                .fold(0u64, |acc, a| acc | 1 << a);
            assert_eq!(windows, expected, "cell {bit}");
        }
    }

    #[test]
    fn symmetries_are_permutations_of_the_board() {
        let board = ataxx::Bitboard::board(BOARD_SIZE).0;
        for s in 0..8 {
            assert_eq!(symmetric(board, s), board);
            assert_eq!(symmetric(1, s).count_ones(), 1);
        }
        // Mirroring the files maps a1 to g1; the transpose maps b1 to a2.
        assert_eq!(symmetric(1, 1), 1 << 6);
        assert_eq!(symmetric(1 << 1, 4), 1 << 8);
    }
}
