//! SVG pictures of Hexxagon boards: pointy-topped hexagonal cells in the colours of the square
//! board's pictures, the last move outlined.

use std::fmt::Write;

use ataxx::Color;

use super::geometry::Cell;
use super::moves::Move;
use super::position::{CellState, Position};

/// Centre-to-corner radius of a cell in pixels; a cell is √3·R wide and rows are 1.5·R apart.
const R: f64 = 34.0;
/// Space around the board.
const MARGIN: f64 = 8.0;

/// The six corners of a pointy-topped hexagon of radius `r` around (cx, cy), as SVG points.
fn hexagon(cx: f64, cy: f64, r: f64) -> String {
    (0..6)
        .map(|k| {
            let angle = std::f64::consts::PI / 180.0 * (60.0 * f64::from(k) - 90.0);
            format!("{:.1},{:.1}", cx + r * angle.cos(), cy + r * angle.sin())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

impl Position {
    /// The board as SVG: hexagonal cells (three shades so neighbours differ), blocked cells
    /// brown, x red, o blue, the last move's cells outlined in amber.
    ///
    /// ```
    /// use games::hexxagon::Position;
    /// let svg = Position::classic().svg(Some("e9e7".parse().unwrap()));
    /// assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
    /// assert_eq!(svg.matches("<polygon").count(), 61 + 2); // cells and two outlines
    /// assert_eq!(svg.matches("<circle").count(), 6);
    /// ```
    pub fn svg(&self, last: Option<Move>) -> String {
        let g = self.geometry();
        let n = f64::from(g.size());
        let w = 3f64.sqrt() * R;
        let width = (2.0 * n - 1.0) * w + 2.0 * MARGIN;
        let height = ((2.0 * n - 2.0) * 1.5 + 2.0) * R + 2.0 * MARGIN;
        // Cell (x, y) sits at 2x − y half-cells from the left edge of the middle row, which
        // spans 2n − 1 cells, so every cell sits between the two it touches in the next row.
        let centre = |cell: Cell| {
            let h = 2.0 * f64::from(cell.x()) - f64::from(cell.y()) + n - 1.0;
            let row = 2.0 * n - 2.0 - f64::from(cell.y());
            (MARGIN + w / 2.0 + h * w / 2.0, MARGIN + R + row * 1.5 * R)
        };
        let mut svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width:.0} {height:.0}\" width=\"{width:.0}\" height=\"{height:.0}\">\
             <rect width=\"{width:.0}\" height=\"{height:.0}\" fill=\"#2b3a42\"/>"
        );
        for i in 0..g.len() {
            let cell = g.cell(i);
            let (cx, cy) = centre(cell);
            let fill = match self.cell_state(cell) {
                Some(CellState::Blocked) => "#5b4636",
                // (x + y) mod 3 differs between any two neighbours: three shades tile the board.
                _ => ["#c9d6c3", "#dde6d6", "#d3dfcc"][usize::from((cell.x() + cell.y()) % 3)],
            };
            let _ = write!(
                svg,
                "<polygon points=\"{}\" fill=\"{fill}\"/>",
                hexagon(cx, cy, R - 1.5)
            );
        }
        let marked = [last.and_then(Move::from), last.and_then(Move::to)];
        for cell in marked.into_iter().flatten().filter(|c| g.contains(*c)) {
            let (cx, cy) = centre(cell);
            let _ = write!(
                svg,
                "<polygon points=\"{}\" fill=\"none\" stroke=\"#f2b134\" stroke-width=\"4\"/>",
                hexagon(cx, cy, R - 5.0)
            );
        }
        for (color, fill, stroke) in [
            (Color::X, "#d1343e", "#7d1a21"),
            (Color::O, "#2f6fd6", "#173d7a"),
        ] {
            for i in 0..g.len() {
                let cell = g.cell(i);
                if self.cell_state(cell) != Some(CellState::Piece(color)) {
                    continue;
                }
                let (cx, cy) = centre(cell);
                let _ = write!(
                    svg,
                    "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{:.1}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"3\"/>",
                    R * 0.6
                );
            }
        }
        svg.push_str("</svg>");
        svg
    }
}
