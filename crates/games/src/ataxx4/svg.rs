//! Board pictures in the square game's SVG style, with four piece colours.

use std::fmt::Write;

use ataxx::{Move, Square};

use super::{Cell, Color, Position};

/// Pixels per square, as square Ataxx's pictures.
const CELL: u32 = 60;

/// Fill and outline of each colour's pieces. Red and blue are square Ataxx's x and o; yellow is
/// a darker amber so that it stands out on the light squares.
const PIECE_COLOURS: [(Color, &str, &str); 4] = [
    (Color::Red, "#d1343e", "#7d1a21"),
    (Color::Blue, "#2f6fd6", "#173d7a"),
    (Color::Green, "#2e9e57", "#16552c"),
    (Color::Yellow, "#e8a317", "#8a5a00"),
];

/// The last move's outline. Square Ataxx outlines in amber, which would hide beside yellow's
/// pieces, so four-player boards outline in purple, a colour no piece uses.
const LAST_MOVE: &str = "#8e44ad";

impl Position {
    /// An SVG picture of the board, the last move's cells (origin and destination of a jump,
    /// destination of a single) outlined.
    ///
    /// ```
    /// use games::ataxx4::Position;
    /// let svg = Position::startpos().svg(Some("b6".parse().unwrap()));
    /// assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
    /// assert_eq!(svg.matches("<circle").count(), 4);
    /// ```
    pub fn svg(&self, last: Option<Move>) -> String {
        let n = u32::from(self.size());
        let side = n * CELL;
        let mut svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {side} {side}\" width=\"{side}\" height=\"{side}\">\
             <rect width=\"{side}\" height=\"{side}\" fill=\"#2b3a42\"/>"
        );
        let origin = |sq: Square| {
            let x = u32::from(sq.file()) * CELL;
            let y = (n - 1 - u32::from(sq.rank())) * CELL;
            (x, y)
        };
        for sq in self.cells() {
            let (x, y) = origin(sq);
            let fill = match self.cell(sq) {
                Some(Cell::Blocked) => "#5b4636",
                _ if (sq.file() + sq.rank()) % 2 == 0 => "#c9d6c3",
                _ => "#dde6d6",
            };
            let _ = write!(
                svg,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"4\" fill=\"{fill}\"/>",
                x + 1,
                y + 1,
                CELL - 2,
                CELL - 2
            );
        }
        let marked = [last.and_then(Move::from), last.and_then(Move::to)];
        // A move read from text may name cells off this board; draw only those on it.
        for sq in marked
            .into_iter()
            .flatten()
            .filter(|sq| self.cells().contains(*sq))
        {
            let (x, y) = origin(sq);
            let _ = write!(
                svg,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"4\" fill=\"none\" stroke=\"{LAST_MOVE}\" stroke-width=\"4\"/>",
                x + 3,
                y + 3,
                CELL - 6,
                CELL - 6
            );
        }
        for (color, fill, stroke) in PIECE_COLOURS {
            for sq in self.pieces(color) {
                let (x, y) = origin(sq);
                let _ = write!(
                    svg,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"3\"/>",
                    x + CELL / 2,
                    y + CELL / 2,
                    CELL * 2 / 5
                );
            }
        }
        svg.push_str("</svg>");
        svg
    }
}
