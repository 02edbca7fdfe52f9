//! The ASCII drawing of the help page (spec section 6): holes as dotted hexagons, cubes as
//! their exposed faces, the cube moved last in upper case.

use super::position::Position;
use super::pyramid::{bits, NONE};

struct Grid {
    rows: Vec<Vec<u8>>,
}

impl Grid {
    fn put(&mut self, row: i32, col: i32, text: &[u8]) {
        let line = &mut self.rows[row as usize];
        for (k, &ch) in text.iter().enumerate() {
            line[col as usize + k] = ch;
        }
    }
}

impl Position {
    /// The board as the help page draws it: each cell (a, b, c) centred at row 2n + 2a − 2c,
    /// column 2n + 6 − 2a + 4b − 2c; empty holes dotted, cubes by their exposed faces in the
    /// owner's letter (upper case for the cube moved last), lower levels first. Lines end
    /// without spaces, each with a newline.
    pub fn diagram(&self) -> String {
        let pyr = self.pyr;
        let n = i32::from(pyr.n);
        let width = (6 * n + 8) as usize;
        let mut grid = Grid {
            rows: vec![vec![b' '; width]; (4 * n + 1) as usize],
        };
        let centre = |i: usize| {
            let [a, b, c] = pyr.abc[i].map(i32::from);
            (2 * n + 2 * a - 2 * c, 2 * n + 6 - 2 * a + 4 * b - 2 * c)
        };
        let occ = self.occupied();
        for i in bits(pyr.ground & !occ) {
            let (r, c) = centre(i);
            grid.put(r - 2, c - 2, b"+---+");
            grid.put(r + 2, c - 2, b"+---+");
            grid.put(r, c - 4, b"+");
            grid.put(r, c + 4, b"+");
            grid.put(r - 1, c - 3, b"/");
            grid.put(r - 1, c + 3, b"\\");
            grid.put(r + 1, c - 3, b"\\");
            grid.put(r + 1, c + 3, b"/");
            for (dr, dc) in [(-1, 1), (0, -2), (0, 0), (1, 1)] {
                grid.put(r + dr, c + dc, b".");
            }
        }
        // Cells are indexed level by level, so index order draws lower levels first.
        for i in bits(occ) {
            let (r, c) = centre(i);
            let mut ch = if self.cubes[0] >> i & 1 == 1 {
                b'o'
            } else {
                b'x'
            };
            if self.last == Some(i as u8) {
                ch = ch.to_ascii_uppercase();
            }
            let exposed = |k: usize| {
                let j = pyr.above[i][k];
                j == NONE || occ >> j & 1 == 0
            };
            if exposed(0) {
                grid.put(r, c, b"+---+");
                grid.put(r - 2, c - 2, b"+---+");
                grid.put(r - 1, c - 1, &[b'\\', ch, ch, ch, b'\\']);
            }
            if exposed(1) {
                grid.put(r - 1, c - 3, &[b'/', ch, b'\\']);
                grid.put(r, c - 4, &[b'+', ch, ch, ch, b'+']);
                grid.put(r + 1, c - 3, &[b'\\', ch, b'/']);
                grid.put(r - 2, c - 2, b"+");
                grid.put(r + 2, c - 2, b"+");
            }
            if exposed(2) {
                grid.put(r, c, b"+---+");
                grid.put(r + 2, c - 2, b"+---+");
                grid.put(r + 1, c - 1, &[b'/', ch, ch, ch, b'/']);
            }
        }
        let mut out = String::new();
        for row in &grid.rows {
            let line = String::from_utf8_lossy(row);
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}
