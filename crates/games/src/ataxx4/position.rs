//! A four-player position: the board, the colour to move and the counters, and the rules that
//! move from one position to the next.

use std::fmt;

pub use ataxx::HALFMOVE_LIMIT;
use ataxx::{Bitboard, Counters, Grid, Layout, Move, MoveList, ParseMoveError, Square};
use thiserror::Error;

use super::Color;

/// The smallest board side: on 4×4 the corners' pieces would touch at the start.
pub const MIN_SIZE: u8 = 5;
/// The largest board side the `ataxx` bitboard layout holds.
pub const MAX_SIZE: u8 = 8;
/// The usual board side.
pub const DEFAULT_SIZE: u8 = 7;

/// What a cell of the board holds.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Cell {
    Empty,
    Blocked,
    Piece(Color),
}

/// A four-player Ataxx position (spec `variants.md` section 2): pieces of red, blue, green and
/// yellow on an n×n board (n = 5…8), blocked cells, the colour to move and both counters.
///
/// Pieces are four [`Bitboard`]s in the `ataxx` crate's layout (bit `8·rank + file`), so the
/// neighbour and jump tables of square Ataxx serve unchanged.
///
/// ```
/// use games::ataxx4::{Color, Position};
/// let mut pos = Position::startpos();
/// assert_eq!(pos.to_string(), "r5b/7/7/7/7/7/y5g r 0 1");
/// assert_eq!(pos.legal_moves().len(), 8);
/// pos.play("b6".parse().unwrap()).unwrap();
/// assert_eq!(pos.turn(), Color::Blue);
/// assert_eq!(pos.to_string(), "r5b/1r5/7/7/7/7/y5g b 0 1");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    pieces: [Bitboard; 4],
    grid: Grid,
    turn: Color,
    counters: Counters,
}

/// A start position that cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StartError {
    #[error("board size {size}: four-player boards are {MIN_SIZE} to {MAX_SIZE} cells a side")]
    Size { size: u8 },
    #[error("blocked cell {square} is off the {size}x{size} board")]
    OffBoard { square: Square, size: u8 },
    #[error("blocked cell {square} is a corner where a colour starts")]
    Corner { square: Square },
}

/// Why a well-formed move is not legal in a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum Illegal {
    #[error("the game is over")]
    GameOver,
    #[error("a pass is legal only when the colour to move has no other move")]
    PassNotForced,
    #[error("{square} is off the {size}x{size} board")]
    OffBoard { square: Square, size: u8 },
    #[error("the destination {0} is not an empty cell")]
    Occupied(Square),
    #[error("no {} piece is next to {to}", .color.name())]
    NoNeighbour { to: Square, color: Color },
    #[error("{from} holds no {} piece", .color.name())]
    NotOwnPiece { from: Square, color: Color },
    #[error("a jump goes exactly 2 cells, {from} to {to} does not")]
    JumpDistance { from: Square, to: Square },
}

/// A move the position does not allow, and why.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("illegal move {mv} for {} in {fen}: {reason}", .color.name())]
pub struct IllegalMoveError {
    pub mv: Move,
    pub color: Color,
    pub fen: String,
    pub reason: Illegal,
}

/// Move text that could not be read, or names a move the position does not allow.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    #[error(transparent)]
    Parse(#[from] ParseMoveError),
    #[error(transparent)]
    Illegal(#[from] IllegalMoveError),
}

fn corner(file: u8, rank: u8) -> Square {
    Square::new(file, rank).expect("corners lie on the 8x8 grid")
}

/// Each colour's start corner on an n×n board, in turn order.
pub fn start_corners(size: u8) -> [Square; 4] {
    let n = size - 1;
    [corner(0, n), corner(n, n), corner(n, 0), corner(0, 0)]
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl Position {
    /// The 7×7 start: `r5b/7/7/7/7/7/y5g r 0 1`.
    pub fn startpos() -> Position {
        Position::start(DEFAULT_SIZE, Bitboard::EMPTY).expect("7x7 is a supported size")
    }

    /// One piece of each colour in its corner on an n×n board with the given blocked cells,
    /// red to move.
    ///
    /// ```
    /// use games::ataxx4::Position;
    /// use ataxx::Bitboard;
    /// assert_eq!(Position::start(5, Bitboard::EMPTY).unwrap().to_string(), "r3b/5/5/5/y3g r 0 1");
    /// assert!(Position::start(4, Bitboard::EMPTY).is_err());
    /// ```
    pub fn start(size: u8, blocked: Bitboard) -> Result<Position, StartError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(StartError::Size { size });
        }
        let grid = Grid::new(size, blocked);
        if let Some(square) = (blocked & !grid.cells()).first() {
            return Err(StartError::OffBoard { square, size });
        }
        let corners = start_corners(size);
        if let Some(&square) = corners.iter().find(|sq| blocked.contains(**sq)) {
            return Err(StartError::Corner { square });
        }
        Ok(Position {
            pieces: corners.map(Bitboard::from_square),
            grid,
            turn: Color::Red,
            counters: Counters::START,
        })
    }

    /// The 7×7 start with a Blocks-Config layout's blocked cells (layouts never block corners).
    ///
    /// ```
    /// use games::ataxx4::Position;
    /// let pos = Position::from_layout("h".parse().unwrap());
    /// assert_eq!(pos.to_string(), "r5b/7/2-1-2/7/2-1-2/7/y5g r 0 1");
    /// ```
    pub fn from_layout(layout: Layout) -> Position {
        Position::start(DEFAULT_SIZE, layout.blocked()).expect("a layout keeps the corners free")
    }

    /// A position from its parts, as the FEN and encoding readers build it after their checks:
    /// cells on the board, no cell twice, the colour to move in play unless the game is over.
    pub(crate) fn from_parts(
        grid: Grid,
        pieces: [Bitboard; 4],
        turn: Color,
        counters: Counters,
    ) -> Position {
        Position {
            pieces,
            grid,
            turn,
            counters,
        }
    }

    /// The board's side and blocked cells.
    pub fn grid(&self) -> Grid {
        self.grid
    }

    pub fn pieces(&self, color: Color) -> Bitboard {
        self.pieces[color.index()]
    }

    /// Every piece of every colour.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.pieces[0] | self.pieces[1] | self.pieces[2] | self.pieces[3]
    }

    /// Cells a move may fill.
    #[inline(always)]
    pub fn empty(&self) -> Bitboard {
        !(self.occupied() | self.grid.walls())
    }

    /// The colour to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The halfmove clock and the fullmove number, which counts rounds.
    pub fn counters(&self) -> Counters {
        self.counters
    }

    /// What `sq` holds, or `None` off the board.
    pub fn cell(&self, sq: Square) -> Option<Cell> {
        if !self.grid.cells().contains(sq) {
            return None;
        }
        if self.grid.walls().contains(sq) {
            return Some(Cell::Blocked);
        }
        Some(
            Color::ALL
                .into_iter()
                .find(|c| self.pieces(*c).contains(sq))
                .map_or(Cell::Empty, Cell::Piece),
        )
    }

    /// Whether `color` still has pieces; a colour without is out for the rest of the game.
    pub fn in_play(&self, color: Color) -> bool {
        !self.pieces(color).is_empty()
    }

    /// How many colours still have pieces.
    #[inline(always)]
    pub fn colors_in_play(&self) -> u32 {
        self.pieces.iter().filter(|p| p.0 != 0).count() as u32
    }

    /// Whether the game has ended (spec 2.2): at most one colour has pieces, no colour with
    /// pieces can move (no empty cell within distance 2 of any piece), or the halfmove clock
    /// has reached 100.
    #[inline]
    pub fn is_game_over(&self) -> bool {
        self.counters.clock_ran_out()
            || self.colors_in_play() <= 1
            || (self.occupied().within_two() & self.empty()).is_empty()
    }

    /// Pieces per colour, in turn order.
    pub fn piece_counts(&self) -> [u32; 4] {
        self.pieces.map(Bitboard::count)
    }

    /// The ranking once the game is over: colours by piece count, equal counts sharing a rank,
    /// whatever ended the game (the spec ranks every finished game by count, the 100-ply
    /// rule included).
    ///
    /// ```
    /// use games::ataxx4::Position;
    /// use games::Seat;
    /// let pos: Position = "rrbb1/5/5/5/5 r 100 1".parse().unwrap();
    /// let outcome = pos.outcome().unwrap();
    /// assert_eq!((outcome.rank(Seat(0)), outcome.rank(Seat(1)), outcome.rank(Seat(2))), (1, 1, 3));
    /// assert_eq!(outcome.winner(), None);
    /// ```
    pub fn outcome(&self) -> Option<crate::Outcome> {
        self.is_game_over()
            .then(|| crate::Outcome::from_scores(&self.piece_counts()))
    }

    /// Whether the colour to move has pieces but no move, so its only move is a pass.
    pub fn must_pass(&self) -> bool {
        !self.is_game_over() && (self.pieces(self.turn).within_two() & self.empty()).is_empty()
    }

    /// Appends every legal move: singles by destination, then jumps by origin; a lone pass when
    /// the colour to move is stuck; nothing once the game is over.
    pub fn generate_moves(&self, moves: &mut MoveList) {
        if self.is_game_over() {
            return;
        }
        ataxx::push_moves(self.pieces(self.turn), self.empty(), moves);
    }

    /// Every legal move (see [`Position::generate_moves`]).
    pub fn legal_moves(&self) -> MoveList {
        ataxx::MoveTree::legal_moves(self)
    }

    /// The number of legal moves, counted without listing them (perft's bulk counting).
    #[inline]
    pub fn count_moves(&self) -> u64 {
        if self.counters.clock_ran_out() || self.colors_in_play() <= 1 {
            return 0;
        }
        let us = self.pieces(self.turn);
        let empty = self.empty();
        let n = (us.neighbours() & empty).count() + us.count_jumps_to(empty);
        // Stuck: a pass, unless nobody can move (then the game is over).
        ataxx::count_with_pass(n, || !(self.occupied().within_two() & empty).is_empty())
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check_legal(mv).is_ok()
    }

    /// Why `mv` is illegal here, if it is.
    pub fn check_legal(&self, mv: Move) -> Result<(), Illegal> {
        if self.is_game_over() {
            return Err(Illegal::GameOver);
        }
        let color = self.turn;
        let us = self.pieces(color);
        let on_board = |square: Square| {
            if self.grid.cells().contains(square) {
                Ok(())
            } else {
                Err(Illegal::OffBoard {
                    square,
                    size: self.grid.size(),
                })
            }
        };
        match mv {
            Move::Pass if self.must_pass() => Ok(()),
            Move::Pass => Err(Illegal::PassNotForced),
            Move::Single(to) => {
                on_board(to)?;
                if !self.empty().contains(to) {
                    Err(Illegal::Occupied(to))
                } else if (Bitboard::neighbours_of(to) & us).is_empty() {
                    Err(Illegal::NoNeighbour { to, color })
                } else {
                    Ok(())
                }
            }
            Move::Jump { from, to } => {
                on_board(from)?;
                on_board(to)?;
                if !us.contains(from) {
                    Err(Illegal::NotOwnPiece { from, color })
                } else if from.distance(to) != 2 {
                    Err(Illegal::JumpDistance { from, to })
                } else if !self.empty().contains(to) {
                    Err(Illegal::Occupied(to))
                } else {
                    Ok(())
                }
            }
        }
    }

    /// Plays `mv` after checking that it is legal, returning the cells it flipped.
    pub fn play(&mut self, mv: Move) -> Result<Bitboard, IllegalMoveError> {
        self.check_legal(mv)
            .map_err(|reason| self.illegal(mv, reason))?;
        Ok(self.play_unchecked(mv))
    }

    fn illegal(&self, mv: Move, reason: Illegal) -> IllegalMoveError {
        IllegalMoveError {
            mv,
            color: self.turn,
            fen: self.to_string(),
            reason,
        }
    }

    /// Reads move text with the tolerant reader of square Ataxx and checks it against this
    /// position.
    ///
    /// ```
    /// use games::ataxx4::Position;
    /// let pos = Position::startpos();
    /// assert_eq!(pos.parse_move("A7-C5").unwrap().to_string(), "a7c5");
    /// let err = pos.parse_move("d4").unwrap_err().to_string();
    /// assert!(err.ends_with("no red piece is next to d4"), "{err}");
    /// ```
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let mv = Move::parse_tolerant(text)?;
        self.check_legal(mv)
            .map_err(|reason| self.illegal(mv, reason))?;
        Ok(mv)
    }

    /// The pieces of other colours that `mv` would flip: every one on the 8 neighbours of the
    /// destination, whatever its colour.
    #[inline(always)]
    pub fn flips(&self, mv: Move) -> Bitboard {
        match mv.to() {
            Some(to) => Bitboard::neighbours_of(to) & self.occupied() & !self.pieces(self.turn),
            None => Bitboard::EMPTY,
        }
    }

    /// Plays a move known to be legal (from [`Position::generate_moves`]) and returns the cells
    /// it flipped; an illegal one leaves the position inconsistent.
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) -> Bitboard {
        let us = self.turn.index();
        let flips = self.flips(mv);
        match mv {
            Move::Single(to) => {
                self.pieces[us] |= Bitboard::from_square(to);
                self.counters.after_single();
            }
            Move::Jump { from, to } => {
                self.pieces[us] ^= Bitboard::from_square(from) | Bitboard::from_square(to);
                self.counters.after_jump_or_pass();
            }
            Move::Pass => self.counters.after_jump_or_pass(),
        }
        if !flips.is_empty() {
            for pieces in &mut self.pieces {
                *pieces &= !flips;
            }
            self.pieces[us] |= flips;
        }
        self.pass_turn();
        flips
    }

    /// Gives the turn to the next colour in play after the mover, skipping colours that are
    /// out. The mover always has pieces after its move, so the search ends, at the mover
    /// itself when everyone else is out (the game is then over). The fullmove number counts
    /// rounds: it goes up whenever the turn does not move forward in the order, i.e. wraps.
    #[inline]
    fn pass_turn(&mut self) {
        let mover = self.turn;
        let mut next = mover.next();
        while next != mover && self.pieces(next).is_empty() {
            next = next.next();
        }
        if next.index() <= mover.index() {
            self.counters.after_round();
        }
        self.turn = next;
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = match self {
            Cell::Empty => '.',
            Cell::Blocked => '-',
            Cell::Piece(color) => color.char(),
        };
        write!(f, "{c}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn illegal_moves_say_why() {
        let pos = Position::startpos();
        let err = |pos: &Position, text: &str| pos.parse_move(text).unwrap_err().to_string();
        assert_eq!(
            err(&pos, "d4"),
            "illegal move d4 for red in r5b/7/7/7/7/7/y5g r 0 1: no red piece is next to d4"
        );
        assert!(err(&pos, "0000")
            .ends_with("a pass is legal only when the colour to move has no other move"));
        assert!(err(&pos, "g7e5").ends_with("g7 holds no red piece"));
        assert!(err(&pos, "g6h8").ends_with("h8 is off the 7x7 board"));
        assert!(err(&pos, "a7a9").contains("invalid move"));
        let full: Position = "rrrbb/bgggg/ggyyy/rrrrr/----- b 0 9".parse().unwrap();
        assert!(err(&full, "a1").ends_with("the game is over"));
        let mut pos = pos;
        pos.play("b6".parse().unwrap()).unwrap();
        assert_eq!(
            pos.check_legal(Move::Single("b6".parse().unwrap())),
            Err(Illegal::Occupied("b6".parse().unwrap()))
        );
        let far = Move::Jump {
            from: "g7".parse().unwrap(),
            to: "d4".parse().unwrap(),
        };
        assert_eq!(
            pos.check_legal(far).unwrap_err().to_string(),
            "a jump goes exactly 2 cells, g7 to d4 does not"
        );
        assert_eq!(
            Position::start(7, Bitboard::from_square("g1".parse().unwrap()))
                .unwrap_err()
                .to_string(),
            "blocked cell g1 is a corner where a colour starts"
        );
    }

    #[test]
    fn a_jump_flips_every_other_colour_and_keeps_the_clock_running() {
        let mut pos: Position = "5/rbg2/1y3/5/4b g 7 3".parse().unwrap();
        let flips = pos.play("c4a3".parse().unwrap()).unwrap();
        // a4 (red), b4 (blue) and b3 (yellow) turn green; a jump does not reset the clock;
        // red and yellow are out now, so the turn skips them and wraps to blue, ending the
        // round.
        assert_eq!(flips.count(), 3);
        assert_eq!(pos.to_string(), "5/gg3/gg3/5/4b b 8 4");
    }
}
