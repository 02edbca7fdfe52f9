//! Board pictures in the square game's SVG style, with four piece colours.

use ataxx::Move;

use super::{Color, Position};
use crate::square::{grid_svg, GridPicture};

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
        grid_svg(
            GridPicture {
                grid: self.grid(),
                outline: LAST_MOVE,
                pieces: &PIECE_COLOURS
                    .map(|(color, fill, stroke)| (self.pieces(color), fill, stroke)),
            },
            last,
        )
    }
}
