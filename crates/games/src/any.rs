//! Positions whose game is known only at run time: what the server and the CLI hold.

use std::fmt;

use crate::{GameError, GameKind, Outcome, PlayedMove, Rules, Seat};

/// A position of any game, moves as text. Every [`Rules`] type is one.
pub trait AnyPosition: fmt::Debug + Send + Sync {
    fn kind(&self) -> GameKind;
    fn fen(&self) -> String;
    fn seats(&self) -> usize;
    fn seat_letter(&self, seat: Seat) -> char;
    fn turn(&self) -> Seat;
    /// The legal moves in canonical notation.
    fn legal_moves(&self) -> Vec<String>;
    /// Reads move text, checks it and plays it.
    fn play(&mut self, text: &str) -> Result<PlayedMove, GameError>;
    fn outcome(&self) -> Option<Outcome>;
    fn piece_counts(&self) -> Vec<u32>;
    fn diagram(&self) -> String;
    /// The diagram with the last move marked; `last` is its text, if any and if it reads.
    fn diagram_after(&self, last: Option<&str>) -> String;
    /// The board as SVG; `last` is the last move's text, if any and if it reads.
    fn svg(&self, last: Option<&str>) -> String;
    /// The cells that decided the game ([`Rules::winning_cells`]).
    fn winning_cells(&self) -> Vec<String>;
    /// Leaf nodes `depth` plies deep ([`Rules::perft`]).
    fn perft(&self, depth: u32) -> u64;
    /// Each legal move with the leaf count `depth − 1` plies below it.
    fn divide(&self, depth: u32) -> Vec<(String, u64)>;
    fn clone_box(&self) -> Box<dyn AnyPosition>;
    /// The position as its game's own type, for callers that dispatch on [`Self::kind`]
    /// (`downcast_ref::<games::ankor::Position>()`) and need what the text leaves out.
    fn as_any(&self) -> &dyn std::any::Any;
}

impl<R: Rules> AnyPosition for R {
    fn kind(&self) -> GameKind {
        R::KIND
    }

    fn fen(&self) -> String {
        self.to_string()
    }

    fn seats(&self) -> usize {
        Rules::seats(self)
    }

    fn seat_letter(&self, seat: Seat) -> char {
        Rules::seat_letter(self, seat)
    }

    fn turn(&self) -> Seat {
        Rules::turn(self)
    }

    fn legal_moves(&self) -> Vec<String> {
        Rules::legal_moves(self)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn play(&mut self, text: &str) -> Result<PlayedMove, GameError> {
        let mv = self.parse_move(text)?;
        let seat = Rules::turn(self);
        let flips = Rules::play(self, mv);
        Ok(PlayedMove {
            text: mv.to_string(),
            flips,
            seat,
            swaps_seats: R::swaps_seats(mv),
        })
    }

    fn outcome(&self) -> Option<Outcome> {
        Rules::outcome(self)
    }

    fn piece_counts(&self) -> Vec<u32> {
        Rules::piece_counts(self)
    }

    fn diagram(&self) -> String {
        Rules::diagram(self)
    }

    fn diagram_after(&self, last: Option<&str>) -> String {
        let last = last.and_then(|text| R::parse_move_text(text).ok());
        Rules::diagram_after(self, last)
    }

    fn svg(&self, last: Option<&str>) -> String {
        // The last move was legal in the position before this one, not in this one: read it
        // as text only.
        let last = last.and_then(|text| R::parse_move_text(text).ok());
        Rules::svg(self, last)
    }

    fn winning_cells(&self) -> Vec<String> {
        Rules::winning_cells(self)
    }

    fn perft(&self, depth: u32) -> u64 {
        Rules::perft(self, depth)
    }

    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        Rules::legal_moves(self)
            .into_iter()
            .map(|mv| {
                let mut child = self.clone();
                Rules::play(&mut child, mv);
                (
                    mv.to_string(),
                    Rules::perft(&child, depth.saturating_sub(1)),
                )
            })
            .collect()
    }

    fn clone_box(&self) -> Box<dyn AnyPosition> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

impl Clone for Box<dyn AnyPosition> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}
