//! Square Ataxx (the `ataxx` crate) behind the seam.

use std::fmt::Write;

use ataxx::{Bitboard, Color, DiagramStyle, Grid, Move, Position, Square};

use crate::{two_sides, GameError, GameKind, Outcome, Rules, Seat, StartOptions};

const GAME: GameKind = GameKind::Ataxx;

impl Rules for Position {
    type Move = Move;
    const KIND: GameKind = GAME;

    /// The conventional start; blocks (a Blocks-Config code or `0x` mask) need the 7×7 board.
    fn start(options: &StartOptions) -> Result<Self, GameError> {
        let refuse = |reason: String| GameError::Option { game: GAME, reason };
        let size = options.size.unwrap_or(7);
        let pos = match options.square_layout(GAME, size)? {
            None => Position::start(size, Bitboard::EMPTY)
                .ok_or_else(|| refuse(format!("-size={size}: the board is 3 to 8 cells a side")))?,
            Some(layout) => layout.start_position(),
        };
        let mut after_x = pos;
        after_x.play_unchecked(Move::Pass);
        if pos.must_pass() || after_x.must_pass() || pos.is_game_over() {
            return Err(refuse(format!(
                "-blocks={}: a side has no legal move at the start",
                options.blocks_text()
            )));
        }
        Ok(pos)
    }

    fn from_fen(text: &str) -> Result<Self, GameError> {
        text.parse()
            .map_err(|e: ataxx::FenError| GameError::position(GAME, text, e))
    }

    fn seats(&self) -> usize {
        2
    }

    fn seat_letter(&self, seat: Seat) -> char {
        two_sides::color(seat).char()
    }

    fn turn(&self) -> Seat {
        two_sides::seat(Position::turn(self))
    }

    fn legal_moves(&self) -> Vec<Move> {
        Position::legal_moves(self).to_vec()
    }

    fn parse_move_text(text: &str) -> Result<Move, GameError> {
        Move::parse_tolerant(text).map_err(|e| GameError::move_text(GAME, text, e))
    }

    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        Position::parse_move(self, text).map_err(|err| match err {
            ataxx::MoveError::Parse(e) => GameError::move_text(GAME, text, e),
            ataxx::MoveError::Illegal(e) => GameError::illegal(e.mv, e.reason),
        })
    }

    fn play(&mut self, mv: Move) -> u32 {
        let flips = self.flips(mv).count();
        self.play_unchecked(mv);
        flips
    }

    /// The `ataxx` crate's counter, which counts the last two plies without playing them.
    fn perft(&self, depth: u32) -> u64 {
        ataxx::perft(self, depth)
    }

    fn outcome(&self) -> Option<Outcome> {
        two_sides::outcome(Position::outcome(self))
    }

    fn piece_counts(&self) -> Vec<u32> {
        Color::ALL.map(|c| self.pieces(c).count()).to_vec()
    }

    fn diagram(&self) -> String {
        Position::diagram(self, DiagramStyle::FEN)
    }

    fn svg(&self, last: Option<Move>) -> String {
        board_svg(self, last)
    }
}

/// Pixels per square in board images.
const CELL: u32 = 60;

/// The last move's outline on two-player boards.
const LAST_MOVE: &str = "#f2b134";

/// An SVG picture of a position in the pages' default style, the last move outlined.
fn board_svg(pos: &Position, last: Option<Move>) -> String {
    grid_svg(
        GridPicture {
            grid: pos.grid(),
            outline: LAST_MOVE,
            pieces: &[
                (pos.pieces(Color::X), "#d1343e", "#7d1a21"),
                (pos.pieces(Color::O), "#2f6fd6", "#173d7a"),
            ],
        },
        last,
    )
}

/// What a picture of a square grid shows: the board's cells and blocks, the last move's
/// outline colour, and each set of pieces with its fill and outline.
pub(crate) struct GridPicture<'a> {
    pub grid: Grid,
    pub outline: &'a str,
    pub pieces: &'a [(Bitboard, &'a str, &'a str)],
}

/// An SVG picture of a square grid (square Ataxx, four-player Ataxx), the last move's cells
/// (origin and destination of a jump, destination of a single) outlined.
pub(crate) fn grid_svg(picture: GridPicture<'_>, last: Option<Move>) -> String {
    let n = u32::from(picture.grid.size());
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
    for sq in picture.grid.cells() {
        let (x, y) = origin(sq);
        let fill = match () {
            _ if picture.grid.blocked().contains(sq) => "#5b4636",
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
        .filter(|sq| picture.grid.cells().contains(*sq))
    {
        let (x, y) = origin(sq);
        let _ = write!(
            svg,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"4\" fill=\"none\" stroke=\"{}\" stroke-width=\"4\"/>",
            x + 3,
            y + 3,
            CELL - 6,
            CELL - 6,
            picture.outline
        );
    }
    for &(pieces, fill, stroke) in picture.pieces {
        for sq in pieces {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_need_seven_by_seven_and_a_playable_start() {
        let opts = |size, blocks: &str| StartOptions {
            size,
            blocks: Some(blocks.to_string()),
            ..Default::default()
        };
        assert!(<Position as Rules>::start(&opts(None, "6bch")).is_ok());
        let err = <Position as Rules>::start(&opts(Some(5), "6bch")).unwrap_err();
        assert!(err.to_string().contains("needs the 7x7 board"), "{err}");
        let err = <Position as Rules>::start(&opts(None, "abcdefgh")).unwrap_err();
        assert!(
            err.to_string().contains("no legal move at the start"),
            "{err}"
        );
        let err = <Position as Rules>::start(&opts(Some(9), "0")).unwrap_err();
        assert!(err.to_string().contains("-size=9"), "{err}");
    }

    #[test]
    fn illegal_moves_are_explained_in_words() {
        let mut pos = GameKind::Ataxx.start(&StartOptions::default()).unwrap();
        let err = pos.play("d4").unwrap_err();
        assert_eq!(
            err.to_string(),
            "illegal move d4: no own piece is next to the destination"
        );
        let played = pos.play("a7c5").unwrap();
        assert_eq!(
            (played.text.as_str(), played.flips, played.seat),
            ("a7c5", 0, Seat(0))
        );
        assert_eq!(pos.turn(), Seat(1));
    }

    #[test]
    fn perft_through_the_seam_is_the_crate_s() {
        let pos: Position = "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1".parse().unwrap();
        let any: Box<dyn crate::AnyPosition> = Box::new(pos);
        assert_eq!(any.perft(3), 4184);
        let divided = any.divide(3);
        assert_eq!(divided.len(), 14);
        assert_eq!(divided.iter().map(|(_, n)| n).sum::<u64>(), 4184);
    }

    #[test]
    fn outcome_ranks_the_seats() {
        let pos = GameKind::Ataxx.parse_position("xx1/3/3 o 0 1").unwrap();
        let outcome = pos.outcome().unwrap();
        assert_eq!(outcome.winner(), Some(Seat(0)));
        assert_eq!(pos.piece_counts(), vec![2, 0]);
    }
}
