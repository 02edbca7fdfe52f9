//! The hexagonal board: cells in axial coordinates, their labels, and per-board tables of
//! neighbours and jump targets as bit masks.
//!
//! A board with `n` cells a side holds the cells (x, y) with 0 ≤ x, y ≤ 2n−2 and |x − y| ≤ n−1.
//! The six neighbours of (x, y) are (x±1, y), (x, y±1), (x+1, y+1) and (x−1, y−1); the distance
//! of two cells is max(|dx|, |dy|, |dx − dy|).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The smallest board: 3 cells a side, 19 cells.
pub const MIN_SIZE: u8 = 3;
/// The largest (and default) board: 5 cells a side, 61 cells.
pub const MAX_SIZE: u8 = 5;
/// Cells of the largest board; every board's cells fit in one `u64`.
pub const MAX_CELLS: usize = 61;

/// Axial coordinates on the largest board span 0..=8 (`a`…`i`, `1`…`9`).
const SPAN: u8 = 2 * MAX_SIZE - 1;

/// A cell of a hexagonal board, by axial coordinates; written `a1`…`i9`.
///
/// A `Cell` is a cell of the largest (n = 5) board; whether it lies on a smaller board is the
/// [`Geometry`]'s question.
///
/// ```
/// use games::hexxagon::Cell;
/// let e5: Cell = "e5".parse().unwrap();
/// assert_eq!((e5.x(), e5.y()), (4, 4));
/// assert_eq!(e5.distance("i9".parse().unwrap()), 4);
/// assert!("a9".parse::<Cell>().is_err()); // |x − y| = 8: outside the hexagon
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Cell {
    x: u8,
    y: u8,
}

impl Cell {
    /// The cell (x, y), if it lies on the largest board.
    pub const fn new(x: u8, y: u8) -> Option<Cell> {
        if x < SPAN && y < SPAN && x.abs_diff(y) < MAX_SIZE {
            Some(Cell { x, y })
        } else {
            None
        }
    }

    pub const fn x(self) -> u8 {
        self.x
    }

    pub const fn y(self) -> u8 {
        self.y
    }

    /// Hex distance: max(|dx|, |dy|, |dx − dy|).
    pub const fn distance(self, other: Cell) -> u8 {
        let dx = self.x as i8 - other.x as i8;
        let dy = self.y as i8 - other.y as i8;
        let a = dx.unsigned_abs();
        let b = dy.unsigned_abs();
        let c = (dx - dy).unsigned_abs();
        let m = if a > b { a } else { b };
        if m > c {
            m
        } else {
            c
        }
    }

    /// Reads two ASCII bytes, letter then digit (lower case).
    pub(crate) fn from_ascii(b: &[u8]) -> Option<Cell> {
        match b {
            [f @ b'a'..=b'i', r @ b'1'..=b'9'] => Cell::new(f - b'a', r - b'1'),
            _ => None,
        }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.x) as char, self.y + 1)
    }
}

/// Text that is not a cell label.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("bad cell {0:?}: expected a letter a-i then a digit 1-9 naming a cell of the hexagon (|letter - digit| at most 4 apart, e.g. e5, a1, i9)")]
pub struct ParseCellError(pub String);

impl FromStr for Cell {
    type Err = ParseCellError;

    fn from_str(s: &str) -> Result<Cell, ParseCellError> {
        Cell::from_ascii(s.as_bytes()).ok_or_else(|| ParseCellError(s.to_string()))
    }
}

/// Marks "no cell here" in [`Geometry`]'s coordinate look-up.
const NONE: u8 = u8::MAX;

/// One board size's tables: cell indices, coordinates and masks.
///
/// Cells are numbered row by row from the bottom (y = 0), by increasing x inside a row, so `a1`
/// is cell 0. Bit `i` of a mask is cell `i`. The tables are built at compile time, one per size.
///
/// ```
/// use games::hexxagon::Geometry;
/// let g = Geometry::of(5).unwrap();
/// assert_eq!(g.len(), 61);
/// let e5 = g.index("e5".parse().unwrap()).unwrap();
/// assert_eq!(g.neighbours(e5).count_ones(), 6);
/// assert_eq!(g.jumps(e5).count_ones(), 12);
/// assert_eq!(g.neighbours(0).count_ones(), 3); // a1, a corner
/// assert!(Geometry::of(6).is_none());
/// ```
#[derive(Debug)]
pub struct Geometry {
    n: u8,
    len: u8,
    cells: [Cell; MAX_CELLS],
    index: [[u8; SPAN as usize]; SPAN as usize],
    /// First cell index of each row y (and one past the last row).
    row_start: [u8; SPAN as usize + 1],
    neighbours: [u64; MAX_CELLS],
    jumps: [u64; MAX_CELLS],
    all: u64,
}

static GEOMETRIES: [Geometry; (MAX_SIZE - MIN_SIZE + 1) as usize] =
    [Geometry::build(3), Geometry::build(4), Geometry::build(5)];

impl Geometry {
    /// The tables of the board with `n` cells a side (3 to 5).
    pub fn of(n: u8) -> Option<&'static Geometry> {
        GEOMETRIES.get(n.checked_sub(MIN_SIZE)? as usize)
    }

    const fn build(n: u8) -> Geometry {
        let span = 2 * n - 1;
        let mut g = Geometry {
            n,
            len: 0,
            cells: [Cell { x: 0, y: 0 }; MAX_CELLS],
            index: [[NONE; SPAN as usize]; SPAN as usize],
            row_start: [0; SPAN as usize + 1],
            neighbours: [0; MAX_CELLS],
            jumps: [0; MAX_CELLS],
            all: 0,
        };
        let mut y = 0;
        while y < span {
            g.row_start[y as usize] = g.len;
            let mut x = 0;
            while x < span {
                if x.abs_diff(y) < n {
                    g.cells[g.len as usize] = Cell { x, y };
                    g.index[x as usize][y as usize] = g.len;
                    g.all |= 1 << g.len;
                    g.len += 1;
                }
                x += 1;
            }
            y += 1;
        }
        let mut y = span;
        while y <= SPAN {
            g.row_start[y as usize] = g.len;
            y += 1;
        }
        let mut i = 0;
        while i < g.len as usize {
            let mut j = 0;
            while j < g.len as usize {
                match g.cells[i].distance(g.cells[j]) {
                    1 => g.neighbours[i] |= 1 << j,
                    2 => g.jumps[i] |= 1 << j,
                    _ => {}
                }
                j += 1;
            }
            i += 1;
        }
        g
    }

    /// Cells a side.
    pub const fn size(&self) -> u8 {
        self.n
    }

    /// Number of cells: 3n² − 3n + 1 (19, 37, 61).
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Always false: every board has cells (for clippy's `len` without `is_empty`).
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The mask of every cell.
    pub const fn all(&self) -> u64 {
        self.all
    }

    /// The cell with index `i`.
    pub fn cell(&self, i: usize) -> Cell {
        self.cells[i]
    }

    /// The index of `cell`, if it lies on this board.
    pub fn index(&self, cell: Cell) -> Option<usize> {
        match self.index[cell.x as usize][cell.y as usize] {
            NONE => None,
            i => Some(i as usize),
        }
    }

    /// Whether `cell` lies on this board.
    pub fn contains(&self, cell: Cell) -> bool {
        self.index(cell).is_some()
    }

    /// The cells at distance 1 from cell `i` (up to 6).
    #[inline(always)]
    pub fn neighbours(&self, i: usize) -> u64 {
        self.neighbours[i]
    }

    /// The cells at distance exactly 2 from cell `i` (up to 12).
    #[inline(always)]
    pub fn jumps(&self, i: usize) -> u64 {
        self.jumps[i]
    }

    /// The cells at distance 1 or 2 from cell `i`.
    #[inline(always)]
    pub fn within_two(&self, i: usize) -> u64 {
        self.neighbours[i] | self.jumps[i]
    }

    /// The indices of row y's cells, left (smallest x) to right.
    pub fn row(&self, y: u8) -> std::ops::Range<usize> {
        self.row_start[y as usize] as usize..self.row_start[y as usize + 1] as usize
    }

    /// Number of rows, 2n − 1.
    pub const fn rows(&self) -> u8 {
        2 * self.n - 1
    }

    /// The union of `neighbours` over the cells of `set`.
    #[inline(always)]
    pub fn neighbours_of_set(&self, set: u64) -> u64 {
        bits(set).fold(0, |acc, i| acc | self.neighbours[i])
    }

    /// The six corners, counter-clockwise from `a1`: a1, (n−1, 0), (2n−2, n−1), (2n−2, 2n−2),
    /// (n−1, 2n−2), (0, n−1); for n = 5: a1, e1, i5, i9, e9, a5.
    pub fn corners(&self) -> [Cell; 6] {
        let (m, e) = (self.n - 1, 2 * self.n - 2);
        [(0, 0), (m, 0), (e, m), (e, e), (m, e), (0, m)]
            .map(|(x, y)| Cell::new(x, y).expect("a corner lies on the board"))
    }
}

/// The indices of the set bits of `set`, lowest first.
#[inline(always)]
pub(crate) fn bits(mut set: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let i = set.trailing_zeros() as usize;
        set &= set - 1;
        Some(i)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_have_the_hexagonal_cell_counts() {
        for (n, cells) in [(3, 19), (4, 37), (5, 61)] {
            let g = Geometry::of(n).unwrap();
            assert_eq!(g.len(), cells);
            assert_eq!(g.all().count_ones() as usize, cells);
            let rows: Vec<usize> = (0..g.rows()).map(|y| g.row(y).len()).collect();
            let n = n as usize;
            let expected: Vec<usize> = (0..2 * n - 1)
                .map(|y| 2 * n - 1 - y.abs_diff(n - 1))
                .collect();
            assert_eq!(rows, expected);
        }
    }

    #[test]
    fn rings_are_symmetric_and_sized() {
        let g = Geometry::of(5).unwrap();
        for i in 0..g.len() {
            for j in bits(g.neighbours(i)) {
                assert!(g.neighbours(j) & (1 << i) != 0);
            }
            for j in bits(g.jumps(i)) {
                assert!(g.jumps(j) & (1 << i) != 0);
            }
            assert_eq!(g.neighbours(i) & g.jumps(i), 0);
        }
        let e5 = g.index(Cell::new(4, 4).unwrap()).unwrap();
        assert_eq!(g.within_two(e5).count_ones(), 18);
        // A corner: 3 neighbours and 5 cells at distance 2 (b1's, c1's... inward half-ring).
        assert_eq!(g.neighbours(0).count_ones(), 3);
        assert_eq!(g.jumps(0).count_ones(), 5);
    }

    #[test]
    fn labels_read_and_write() {
        for text in ["a1", "e1", "i5", "i9", "e9", "a5", "e5"] {
            assert_eq!(text.parse::<Cell>().unwrap().to_string(), text);
        }
        for bad in ["a6", "f1", "j5", "e0", "e10", "E5", "", "e"] {
            assert!(bad.parse::<Cell>().is_err(), "{bad}");
        }
        let corners = Geometry::of(5).unwrap().corners().map(|c| c.to_string());
        assert_eq!(corners, ["a1", "e1", "i5", "i9", "e9", "a5"]);
        let corners = Geometry::of(3).unwrap().corners().map(|c| c.to_string());
        assert_eq!(corners, ["a1", "c1", "e3", "e5", "c5", "a3"]);
    }
}
