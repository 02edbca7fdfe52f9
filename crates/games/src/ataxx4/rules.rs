//! Four-player Ataxx behind the seam.

use ataxx::{Bitboard, Move};

use super::position::{DEFAULT_SIZE, MAX_SIZE, MIN_SIZE};
use super::{Color, MoveError, Position};
use crate::{GameError, GameKind, Outcome, Rules, Seat, StartOptions};

const GAME: GameKind = GameKind::Ataxx4;

impl Rules for Position {
    type Move = Move;
    const KIND: GameKind = GAME;

    /// One piece per colour in its corner; blocks (a Blocks-Config code or `0x` mask) need the
    /// 7×7 board, and every colour must have a move at the start.
    fn start(options: &StartOptions) -> Result<Self, GameError> {
        let refuse = |reason: String| GameError::Option { game: GAME, reason };
        let size = options.size.unwrap_or(DEFAULT_SIZE);
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(refuse(format!(
                "-size={size}: four-player boards are {MIN_SIZE} to {MAX_SIZE} cells a side"
            )));
        }
        let blocked = options
            .square_layout(GAME, size)?
            .map_or(Bitboard::EMPTY, |layout| layout.blocked());
        let pos = Position::start(size, blocked).map_err(|e| refuse(e.to_string()))?;
        // The corners are at least 4 apart, so no colour's first move changes another's
        // options: checking each colour in the start position is enough.
        if let Some(stuck) = Color::ALL
            .into_iter()
            .find(|c| (pos.pieces(*c).within_two() & pos.empty()).is_empty())
        {
            return Err(refuse(format!(
                "-blocks={}: {} has no legal move at the start",
                options.blocks_text(),
                stuck.name()
            )));
        }
        Ok(pos)
    }

    fn from_fen(text: &str) -> Result<Self, GameError> {
        text.parse()
            .map_err(|e: super::FenError| GameError::position(GAME, text, e))
    }

    fn seats(&self) -> usize {
        4
    }

    fn seat_letter(&self, seat: Seat) -> char {
        Color::from_index(seat.index()).char()
    }

    fn turn(&self) -> Seat {
        Seat(Position::turn(self).index() as u8)
    }

    fn legal_moves(&self) -> Vec<Move> {
        Position::legal_moves(self).to_vec()
    }

    fn parse_move_text(text: &str) -> Result<Move, GameError> {
        Move::parse_tolerant(text).map_err(|e| GameError::move_text(GAME, text, e))
    }

    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        Position::parse_move(self, text).map_err(|err| match err {
            MoveError::Parse(e) => GameError::move_text(GAME, text, e),
            MoveError::Illegal(e) => GameError::illegal(e.mv, e.reason),
        })
    }

    fn play(&mut self, mv: Move) -> u32 {
        self.play_unchecked(mv).count()
    }

    fn count_moves(&self) -> u64 {
        Position::count_moves(self)
    }

    fn perft(&self, depth: u32) -> u64 {
        super::perft(self, depth)
    }

    fn outcome(&self) -> Option<Outcome> {
        Position::outcome(self)
    }

    fn piece_counts(&self) -> Vec<u32> {
        Position::piece_counts(self).to_vec()
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
    fn start_options() {
        let start = |o| <Position as Rules>::start(&o).map(|p| p.to_string());
        assert_eq!(start(opts(None, None)).unwrap(), "r5b/7/7/7/7/7/y5g r 0 1");
        assert_eq!(
            start(opts(Some(5), Some("0"))).unwrap(),
            "r3b/5/5/5/y3g r 0 1"
        );
        assert_eq!(
            start(opts(None, Some("h"))).unwrap(),
            "r5b/7/2-1-2/7/2-1-2/7/y5g r 0 1"
        );
        assert_eq!(
            start(opts(None, Some("0x0400"))).unwrap(),
            "r5b/7/2-1-2/7/2-1-2/7/y5g r 0 1"
        );
        let err = |o| <Position as Rules>::start(&o).unwrap_err().to_string();
        assert!(err(opts(Some(4), None)).contains("-size=4: four-player boards are 5 to 8"));
        assert!(err(opts(Some(6), Some("h"))).contains("needs the 7x7 board"));
        assert!(err(opts(None, Some("abcdefgh"))).contains("red has no legal move"));
        assert!(err(opts(None, Some("hq"))).contains("-blocks=hq"));
    }

    #[test]
    fn through_the_seam() {
        let mut pos = GameKind::Ataxx4.start(&StartOptions::default()).unwrap();
        assert_eq!(pos.kind(), GameKind::Ataxx4);
        assert_eq!(pos.seats(), 4);
        assert_eq!(
            (0..4).map(|s| pos.seat_letter(Seat(s))).collect::<String>(),
            "rbgy"
        );
        assert_eq!(pos.perft(3), 512);
        assert_eq!(pos.divide(2).len(), 8);
        let err = pos.play("d4").unwrap_err();
        assert_eq!(
            err.to_string(),
            "illegal move d4: no red piece is next to d4"
        );
        let err = pos.play("a8").unwrap_err();
        assert_eq!(err.to_string(), "illegal move a8: a8 is off the 7x7 board");
        let err = pos.play("zz").unwrap_err();
        assert!(
            err.to_string().starts_with("bad ataxx4 move \"zz\""),
            "{err}"
        );
        for mv in ["b6", "f6", "f2", "b2"] {
            pos.play(mv).unwrap();
        }
        assert_eq!(pos.fen(), "r5b/1r3b1/7/7/7/1y3g1/y5g r 0 2");
        let played = pos.play("b6d4").unwrap();
        assert_eq!((played.seat, played.flips), (Seat(0), 0));
        assert_eq!(pos.turn(), Seat(1));
        assert!(pos.outcome().is_none());
        assert_eq!(pos.piece_counts(), vec![2, 2, 2, 2]);
        assert!(pos.svg(Some("b6d4")).contains("#8e44ad"));
    }

    #[test]
    fn outcome_ranks_with_shared_ranks() {
        let pos = GameKind::Ataxx4
            .parse_position("rrrbb/bgggg/ggyyy/rrrrr/----- b 0 9")
            .unwrap();
        let outcome = pos.outcome().unwrap();
        // r 8, b 3, g 6, y 3: red wins, green second, blue and yellow share third.
        assert_eq!(
            (0..4).map(|s| outcome.rank(Seat(s))).collect::<Vec<_>>(),
            vec![1, 3, 2, 3]
        );
        assert_eq!(outcome.winner(), Some(Seat(0)));
    }
}
