//! The seam every game implements.

use std::fmt;
use std::hash::Hash;

use thiserror::Error;

use crate::{GameKind, Outcome, Seat, StartOptions};

/// Why a position, a move or a start option was refused. Each variant names the game and says
/// what was wrong, in words a player can act on.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GameError {
    /// A position text that does not describe a position of this game.
    #[error("bad {game} position {text:?}: {reason}")]
    Position {
        game: GameKind,
        text: String,
        reason: String,
    },
    /// Move text that is not a move of this game.
    #[error("bad {game} move {text:?}: {reason}")]
    MoveText {
        game: GameKind,
        text: String,
        reason: String,
    },
    /// A well-formed move the position does not allow.
    #[error("illegal move {text}: {reason}")]
    Illegal { text: String, reason: String },
    /// A start option the game cannot honour.
    #[error("{game}: {reason}")]
    Option { game: GameKind, reason: String },
}

impl GameError {
    /// A position text of `game` refused for `reason`.
    pub fn position(game: GameKind, text: &str, reason: impl fmt::Display) -> GameError {
        GameError::Position {
            game,
            text: text.to_string(),
            reason: reason.to_string(),
        }
    }

    /// Move text that is not a move of `game`, for `reason`.
    pub fn move_text(game: GameKind, text: &str, reason: impl fmt::Display) -> GameError {
        GameError::MoveText {
            game,
            text: text.to_string(),
            reason: reason.to_string(),
        }
    }

    /// A move the position does not allow, for `reason`.
    pub fn illegal(mv: impl fmt::Display, reason: impl fmt::Display) -> GameError {
        GameError::Illegal {
            text: mv.to_string(),
            reason: reason.to_string(),
        }
    }
}

/// A move as it was played: its text and what it did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move in the game's canonical notation (`f6`, `a1c3`, `0000`).
    pub text: String,
    /// Cells that changed owner by the move (flips), for records such as `b6#1`.
    pub flips: u32,
    /// The seat that made it.
    pub seat: Seat,
    /// Whether the players exchanged seats by it (Ankor's `swap`).
    pub swaps_seats: bool,
}

/// A game's rules, implemented by its position type.
///
/// Positions are values: [`Rules::play`] changes one in place, and searching clones it.
/// A position whose game is over has no legal moves; one whose seat to move is stuck (and the
/// game not over) has exactly one, the pass.
pub trait Rules: Clone + Eq + Hash + fmt::Debug + fmt::Display + Send + Sync + 'static {
    /// A move, written by [`fmt::Display`] in the game's canonical notation.
    type Move: Copy + Eq + Hash + fmt::Debug + fmt::Display + Send + Sync + 'static;

    /// Which game this is.
    const KIND: GameKind;

    /// The start position with these options.
    fn start(options: &StartOptions) -> Result<Self, GameError>;

    /// Reads a position from its FEN (or the game's position text).
    fn from_fen(text: &str) -> Result<Self, GameError>;

    /// How many seats the game has (whether or not all are still in play).
    fn seats(&self) -> usize;

    /// The letter of each seat's pieces in FEN and diagrams (`x`, `o`; `r`, `b`, `g`, `y`).
    fn seat_letter(&self, seat: Seat) -> char;

    /// The seat to move.
    fn turn(&self) -> Seat;

    /// Every legal move; empty once the game is over.
    fn legal_moves(&self) -> Vec<Self::Move>;

    /// Reads move text (tolerantly, as a person types it) without looking at a position.
    fn parse_move_text(text: &str) -> Result<Self::Move, GameError>;

    /// Reads move text (tolerantly, as a person types it) and checks it is legal here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, GameError>;

    /// Plays a move [`Rules::legal_moves`] listed, returning how many cells changed owner.
    fn play(&mut self, mv: Self::Move) -> u32;

    /// Whether a move exchanges the players' seats (Ankor's `swap`): who plays which seat
    /// changes, the board does not.
    fn swaps_seats(_mv: Self::Move) -> bool {
        false
    }

    /// How many legal moves there are; games that count without listing override it.
    fn count_moves(&self) -> u64 {
        Rules::legal_moves(self).len() as u64
    }

    /// Leaf nodes of the move tree `depth` plies deep, a pass counting as a move, the last ply
    /// counted by [`Rules::count_moves`] without playing it. Games with a faster counter
    /// override this recursion.
    fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => Rules::count_moves(self),
            _ => Rules::legal_moves(self)
                .into_iter()
                .map(|mv| {
                    let mut child = self.clone();
                    Rules::play(&mut child, mv);
                    child.perft(depth - 1)
                })
                .sum(),
        }
    }

    /// The ranking once the game is over by its rules (not by resignation or time).
    fn outcome(&self) -> Option<Outcome>;

    /// Pieces on the board per seat, in seat order.
    fn piece_counts(&self) -> Vec<u32>;

    /// A text diagram of the board, as board mails and `show` print it.
    fn diagram(&self) -> String;

    /// The diagram with the last move marked where the game's drawing marks it (Ankor draws
    /// the cube moved last in upper case); the plain diagram for games that mark nothing.
    fn diagram_after(&self, _last: Option<Self::Move>) -> String {
        self.diagram()
    }

    /// An SVG drawing of the board, the last move marked.
    fn svg(&self, last: Option<Self::Move>) -> String;

    /// The cells that decided a finished game, for a board to highlight (Ankor's winning
    /// path); empty for games decided by counting.
    fn winning_cells(&self) -> Vec<String> {
        Vec::new()
    }
}
