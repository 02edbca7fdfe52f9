//! Ankor behind the seam.

use super::moves::Move;
use super::position::{Colour, Position};
use crate::{GameError, GameKind, Outcome, Rules, Seat, StartOptions};

const GAME: GameKind = GameKind::Ankor;

fn seat(colour: Colour) -> Seat {
    Seat(colour.index() as u8)
}

impl Rules for Position {
    type Move = Move;
    const KIND: GameKind = GAME;

    /// The empty board: `size` 3 to 8 (default 6), `win_height` 0, 1 or −1 (default 1); Ankor
    /// has no blocked cells.
    fn start(options: &StartOptions) -> Result<Self, GameError> {
        let refuse = |reason: String| GameError::Option { game: GAME, reason };
        if let Some(blocks) = options.blocks.as_deref().filter(|b| *b != "0") {
            return Err(refuse(format!(
                "-blocks={blocks}: Ankor has no blocked cells"
            )));
        }
        let size = options.size.unwrap_or(6);
        let height = options.win_height.unwrap_or(1);
        Position::new(size, height).map_err(|e| {
            refuse(if (3..=8).contains(&size) {
                format!("-win_height={height}: it is 0, 1 or -1")
            } else {
                format!("-size={size}: {e}")
            })
        })
    }

    fn from_fen(text: &str) -> Result<Self, GameError> {
        text.parse()
            .map_err(|reason: String| GameError::position(GAME, text, reason))
    }

    fn seats(&self) -> usize {
        2
    }

    fn seat_letter(&self, seat: Seat) -> char {
        Colour::ALL[seat.index()].char()
    }

    fn turn(&self) -> Seat {
        seat(self.side_to_move())
    }

    fn legal_moves(&self) -> Vec<Move> {
        Position::legal_moves(self)
    }

    fn parse_move_text(text: &str) -> Result<Move, GameError> {
        text.parse()
            .map_err(|reason: String| GameError::move_text(GAME, text, reason))
    }

    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        let mv = Self::parse_move_text(text)?;
        match self.illegal_reason(mv) {
            None => Ok(mv),
            Some(reason) => Err(GameError::Illegal {
                text: mv.to_string(),
                reason,
            }),
        }
    }

    /// Plays the move; Ankor captures nothing, so no cube changes owner (0).
    fn play(&mut self, mv: Move) -> u32 {
        Position::play(self, mv);
        0
    }

    fn swaps_seats(mv: Move) -> bool {
        mv == Move::Swap
    }

    fn count_moves(&self) -> u64 {
        Position::count_moves(self)
    }

    /// A winning path wins; the third repetition and two passes in a row draw.
    fn outcome(&self) -> Option<Outcome> {
        if let Some(winner) = self.winner() {
            Some(Outcome::win(seat(winner), 2))
        } else if self.is_over() {
            Some(Outcome::draw(2))
        } else {
            None
        }
    }

    fn piece_counts(&self) -> Vec<u32> {
        Colour::ALL.map(|c| self.cube_count(c)).to_vec()
    }

    fn diagram(&self) -> String {
        Position::diagram(self)
    }

    fn diagram_after(&self, last: Option<Move>) -> String {
        match self.marked(last) {
            Some(marked) => Position::diagram(&marked),
            None => Position::diagram(self),
        }
    }

    /// The winner's group that touches the three sides.
    fn winning_cells(&self) -> Vec<String> {
        self.winner()
            .map(|colour| {
                self.winning_path(colour)
                    .iter()
                    .map(ToString::to_string)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The drawing marks the cube placed or moved last as the position knows it; `last` (a
    /// move's text, which names the destination) marks that cell instead when it holds a cube.
    fn svg(&self, last: Option<Move>) -> String {
        match self.marked(last) {
            Some(marked) => Position::svg(&marked),
            None => Position::svg(self),
        }
    }
}

impl Position {
    /// The position with the destination of `last` marked as the cube moved last, when the
    /// move names one and a cube stands there (a position read from its text knows no last
    /// cube; the move that led to it does).
    fn marked(&self, last: Option<Move>) -> Option<Position> {
        let cell = match last? {
            Move::Place(cell) | Move::Step { to: cell, .. } => cell,
            Move::Swap | Move::Pass => return None,
        };
        self.clone().with_last_moved(Some(cell)).ok()
    }
}
