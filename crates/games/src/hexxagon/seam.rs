//! Hexxagon behind the seam: [`Rules`] for [`Position`].

use ataxx::Color;

use super::{perft, Move, MoveError, Position, MAX_SIZE, MIN_SIZE};
use crate::{two_sides, GameError, GameKind, Outcome, Rules, Seat, StartOptions};

const GAME: GameKind = GameKind::Hexxagon;

impl Rules for Position {
    type Move = Move;
    const KIND: GameKind = GAME;

    /// The start on a board of `size` cells a side (3 to 5, default 5); blocks `0` (none) or
    /// `classic` (the DOS game's e4, f6, d5; n = 5 only).
    fn start(options: &StartOptions) -> Result<Self, GameError> {
        let refuse = |reason: String| GameError::Option { game: GAME, reason };
        let size = options.size.unwrap_or(MAX_SIZE);
        let pos = Position::start(size).ok_or_else(|| {
            refuse(format!(
                "-size={size}: a Hexxagon board is {MIN_SIZE} to {MAX_SIZE} cells a side"
            ))
        })?;
        match options.blocks.as_deref().map(str::trim) {
            None | Some("0" | "") => Ok(pos),
            Some(text) if text.eq_ignore_ascii_case("classic") => {
                if size != MAX_SIZE {
                    return Err(refuse(format!(
                        "-blocks={text} needs the 5-cell board (-size=5); -size={size} has no classic layout"
                    )));
                }
                Ok(Position::classic())
            }
            Some(text) => Err(refuse(format!(
                "-blocks={text}: Hexxagon knows 0 (no blocks) and classic (e4, f6, d5)"
            ))),
        }
    }

    fn from_fen(text: &str) -> Result<Self, GameError> {
        text.parse()
            .map_err(|e: super::FenError| GameError::position(GAME, text, e))
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
        Position::legal_moves(self)
    }

    fn parse_move_text(text: &str) -> Result<Move, GameError> {
        Move::parse_tolerant(text).map_err(|e| GameError::move_text(GAME, text, e.explanation()))
    }

    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        Position::parse_move(self, text).map_err(|err| match err {
            MoveError::Parse(e) => GameError::move_text(GAME, text, e.explanation()),
            MoveError::Illegal(e) => GameError::illegal(e.mv, e.reason),
        })
    }

    fn play(&mut self, mv: Move) -> u32 {
        self.play_unchecked(mv)
    }

    /// The bulk counter of [`perft`], which makes moves from cell indices.
    fn perft(&self, depth: u32) -> u64 {
        perft(self, depth)
    }

    fn outcome(&self) -> Option<Outcome> {
        two_sides::outcome(Position::outcome(self))
    }

    fn piece_counts(&self) -> Vec<u32> {
        Color::ALL.map(|c| self.pieces(c).count_ones()).to_vec()
    }

    fn diagram(&self) -> String {
        Position::diagram(self)
    }

    fn svg(&self, last: Option<Move>) -> String {
        Position::svg(self, last)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(size: Option<u8>, blocks: Option<&str>) -> StartOptions {
        StartOptions {
            size,
            blocks: blocks.map(str::to_string),
            ..Default::default()
        }
    }

    #[test]
    fn start_options_sizes_and_blocks() {
        let fen = |o: StartOptions| GameKind::Hexxagon.start(&o).map(|p| p.fen());
        assert_eq!(
            fen(opts(None, None)).unwrap(),
            "x3o/6/7/8/o7x/8/7/6/x3o x 0 1"
        );
        assert_eq!(
            fen(opts(Some(5), Some("classic"))).unwrap(),
            "x3o/6/7/4-3/o2-4x/4-3/7/6/x3o x 0 1"
        );
        assert_eq!(
            fen(opts(Some(3), Some("0"))).unwrap(),
            "x1o/4/o3x/4/x1o x 0 1"
        );
        assert_eq!(
            fen(opts(Some(4), None)).unwrap(),
            "x2o/5/6/o5x/6/5/x2o x 0 1"
        );
        let err = fen(opts(Some(4), Some("classic"))).unwrap_err().to_string();
        assert!(err.contains("needs the 5-cell board"), "{err}");
        let err = fen(opts(Some(6), None)).unwrap_err().to_string();
        assert!(err.contains("-size=6") && err.contains("3 to 5"), "{err}");
        let err = fen(opts(None, Some("6bch"))).unwrap_err().to_string();
        assert!(
            err.contains("-blocks=6bch") && err.contains("classic"),
            "{err}"
        );
    }

    #[test]
    fn plays_through_the_seam() {
        let mut pos = GameKind::Hexxagon.start(&StartOptions::default()).unwrap();
        assert_eq!(pos.kind(), GameKind::Hexxagon);
        assert_eq!(pos.legal_moves().len(), 24);
        let err = pos.play("e5").unwrap_err().to_string();
        assert_eq!(
            err,
            "illegal move e5: no own piece is next to the destination"
        );
        let err = pos.play("a1e5").unwrap_err().to_string();
        assert!(err.contains("more than 2 apart"), "{err}");
        let played = pos.play("A1-B2").unwrap();
        assert_eq!(
            (played.text.as_str(), played.flips, played.seat),
            ("b2", 0, Seat(0))
        );
        assert_eq!(pos.turn(), Seat(1));
        assert_eq!(pos.perft(3), pos.divide(3).iter().map(|d| d.1).sum::<u64>());
        assert!(pos.svg(Some("b2")).contains("#f2b134"));
        assert!(pos.diagram().starts_with("9"));
    }

    #[test]
    fn outcome_ranks_the_seats() {
        let pos = GameKind::Hexxagon
            .parse_position("xxx/xxxx/xxooo/oooo/ooo x 0 1")
            .unwrap();
        assert_eq!(pos.outcome().unwrap().winner(), Some(Seat(1)));
        assert_eq!(pos.piece_counts(), vec![9, 10]);
        let pos = GameKind::Hexxagon
            .parse_position("x3o/6/7/8/o7x/8/7/6/x3o x 100 1")
            .unwrap();
        assert_eq!(pos.outcome().unwrap().winner(), None);
    }
}
