//! Positions, legal moves and making moves (spec section 1).

use std::fmt;

use crate::moves::{count_with_pass, push_moves};
use crate::{
    zobrist, Bitboard, Color, Counters, Grid, IllegalMoveError, Move, MoveList, MoveTree, Square,
    MAX_SIZE,
};

/// How a finished game ended.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// The side with more pieces (or the only side with pieces) won.
    Win(Color),
    /// Equal counts, or the 100-ply rule.
    Draw,
}

impl Outcome {
    /// The PGN result token: `1-0` when x won, `0-1` when o won, `1/2-1/2`.
    pub const fn pgn(self) -> &'static str {
        match self {
            Outcome::Win(Color::X) => "1-0",
            Outcome::Win(Color::O) => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }

    /// The result by piece count: the side with more pieces wins, equal counts draw.
    ///
    /// ```
    /// use ataxx::{Color, Outcome};
    /// assert_eq!(Outcome::by_count(3, 0), Outcome::Win(Color::X));
    /// assert_eq!(Outcome::by_count(4, 4), Outcome::Draw);
    /// ```
    pub fn by_count(x: u32, o: u32) -> Outcome {
        match x.cmp(&o) {
            std::cmp::Ordering::Greater => Outcome::Win(Color::X),
            std::cmp::Ordering::Less => Outcome::Win(Color::O),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }

    pub const fn winner(self) -> Option<Color> {
        match self {
            Outcome::Win(c) => Some(c),
            Outcome::Draw => None,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.pgn())
    }
}

/// A position: pieces, blocked cells, side to move and the two counters.
///
/// Positions are small `Copy` values; searching copies them rather than undoing moves.
///
/// ```
/// use ataxx::{Move, Position};
/// let mut pos = Position::startpos();
/// assert_eq!(pos.legal_moves().len(), 16);
/// pos.play("g2".parse().unwrap()).unwrap();
/// assert_eq!(pos.to_string(), "x5o/7/7/7/7/6x/o5x o 0 1");
/// assert!(pos.play("a1a1".parse().unwrap_or(Move::Pass)).is_err());
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    pieces: [Bitboard; 2],
    grid: Grid,
    turn: Color,
    pub(crate) counters: Counters,
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl Position {
    /// The standard 7×7 start: `x5o/7/7/7/7/7/o5x x 0 1`.
    pub fn startpos() -> Position {
        Position::start(7, Bitboard::EMPTY).expect("7x7 is a supported size")
    }

    /// The conventional start on an n×n board (x in the top-left and bottom-right corners, o in
    /// the other two) with the given blocked cells. `None` if `size` is not 3–8 or a block
    /// lies on a corner or off the board.
    pub fn start(size: u8, blocked: Bitboard) -> Option<Position> {
        if !(3..=MAX_SIZE).contains(&size) {
            return None;
        }
        let n = size - 1;
        let sq = |f, r| Bitboard::from_square(Square::new(f, r).expect("on the grid"));
        let x = sq(0, n) | sq(n, 0);
        let o = sq(n, n) | sq(0, 0);
        let grid = Grid::new(size, blocked);
        if !(blocked & !grid.cells()).is_empty() || !(blocked & (x | o)).is_empty() {
            return None;
        }
        Some(Position {
            pieces: [x, o],
            grid,
            turn: Color::X,
            counters: Counters::START,
        })
    }

    /// A position from its parts, as the FEN and encoding readers build it. Cells are given per
    /// colour and blocked; they must lie on the board and not overlap.
    pub(crate) fn from_parts(
        grid: Grid,
        [x, o]: [Bitboard; 2],
        turn: Color,
        counters: Counters,
    ) -> Position {
        debug_assert!((x & o | (x | o) & grid.walls()).is_empty());
        Position {
            pieces: [x, o],
            grid,
            turn,
            counters,
        }
    }

    /// The board's side and blocked cells.
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// Board side length (7 for standard Ataxx).
    pub fn size(&self) -> u8 {
        self.grid.size()
    }

    /// Every cell of the board, blocked ones included.
    pub fn cells(&self) -> Bitboard {
        self.grid.cells()
    }

    /// The pieces of one side.
    #[inline(always)]
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.pieces[color.index()]
    }

    /// Blocked cells of the board.
    pub fn blocked(&self) -> Bitboard {
        self.grid.blocked()
    }

    /// Cells a piece may move to.
    #[inline(always)]
    pub fn empty(&self) -> Bitboard {
        !(self.pieces[0] | self.pieces[1] | self.grid.walls())
    }

    #[inline(always)]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Plies since the last single move (spec 1.4).
    pub fn halfmove_clock(&self) -> u32 {
        self.counters.halfmove
    }

    /// Starts at 1 and grows after each o ply.
    pub fn fullmove_number(&self) -> u32 {
        self.counters.fullmove
    }

    /// What is on a square: `Some(Ok(color))` for a piece, `Some(Err(()))` for a blocked cell,
    /// `None` for an empty cell or a square off the board.
    pub fn piece_at(&self, sq: Square) -> Option<Result<Color, ()>> {
        if self.pieces[0].contains(sq) {
            Some(Ok(Color::X))
        } else if self.pieces[1].contains(sq) {
            Some(Ok(Color::O))
        } else if self.blocked().contains(sq) {
            Some(Err(()))
        } else {
            None
        }
    }

    /// Zobrist hash of pieces, walls and side to move.
    #[inline]
    pub fn hash(&self) -> u64 {
        zobrist::hash(self.pieces[0], self.pieces[1], self.grid.walls(), self.turn)
    }

    /// Whether the game has ended (spec 1.3): a side without pieces, the halfmove clock at 100,
    /// or no empty cell within distance 2 of any piece.
    #[inline]
    pub fn is_game_over(&self) -> bool {
        let all = self.pieces[0] | self.pieces[1];
        self.pieces[0].is_empty()
            || self.pieces[1].is_empty()
            || self.counters.clock_ran_out()
            || (all.within_two() & self.empty()).is_empty()
    }

    /// The result, once the game is over: a count result takes priority over the 100-ply draw.
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.is_game_over() {
            return None;
        }
        let all = self.pieces[0] | self.pieces[1];
        let counted = self.pieces[0].is_empty()
            || self.pieces[1].is_empty()
            || (all.within_two() & self.empty()).is_empty();
        if !counted {
            return Some(Outcome::Draw);
        }
        Some(Outcome::by_count(
            self.pieces[0].count(),
            self.pieces[1].count(),
        ))
    }

    /// Cells the side to move can fill with a single move.
    #[inline(always)]
    pub fn single_targets(&self) -> Bitboard {
        self.pieces(self.turn).neighbours() & self.empty()
    }

    /// Whether the only legal move is a pass.
    pub fn must_pass(&self) -> bool {
        let us = self.pieces(self.turn);
        !self.is_game_over() && (us.within_two() & self.empty()).is_empty()
    }

    /// Appends every legal move to `moves`: singles by destination, then jumps by origin; a lone
    /// pass when the side to move is stuck; nothing once the game is over.
    pub fn generate_moves(&self, moves: &mut MoveList) {
        if self.is_game_over() {
            return;
        }
        push_moves(self.pieces(self.turn), self.empty(), moves);
    }

    /// Every legal move (see [`Position::generate_moves`]).
    pub fn legal_moves(&self) -> MoveList {
        MoveTree::legal_moves(self)
    }

    /// The number of legal moves, counted without listing them (perft's bulk counting).
    #[inline]
    pub fn count_moves(&self) -> u64 {
        let them = self.pieces(!self.turn);
        if self.counters.clock_ran_out() || them.is_empty() {
            return 0;
        }
        let us = self.pieces(self.turn);
        let empty = self.empty();
        let singles = (us.neighbours() & empty).count();
        let jumps = us.count_jumps_to(empty);
        count_with_pass(singles + jumps, || {
            !us.is_empty() && !(them.within_two() & empty).is_empty()
        })
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check_legal(mv).is_ok()
    }

    fn check_legal(&self, mv: Move) -> Result<(), &'static str> {
        if self.is_game_over() {
            return Err("the game is over");
        }
        let empty = self.empty();
        let us = self.pieces(self.turn);
        match mv {
            Move::Pass if self.must_pass() => Ok(()),
            Move::Pass => Err("a pass is legal only when no other move exists"),
            Move::Single(to) if !empty.contains(to) => Err("the destination is not an empty cell"),
            Move::Single(to) if (Bitboard::neighbours_of(to) & us).is_empty() => {
                Err("no own piece is next to the destination")
            }
            Move::Jump { to, .. } if !empty.contains(to) => {
                Err("the destination is not an empty cell")
            }
            Move::Jump { from, .. } if !us.contains(from) => Err("no own piece on the origin"),
            Move::Jump { from, to } if from.distance(to) != 2 => Err("a jump goes exactly 2 cells"),
            _ => Ok(()),
        }
    }

    /// Plays `mv` after checking that it is legal.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMoveError> {
        IllegalMoveError::check(mv, self, self.check_legal(mv))?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Reads move text with the tolerant reader and checks it against this position. A text that
    /// names the origin of a single (`b2b3`) need not name an own piece, as cuteataxx allows.
    pub fn parse_move(&self, text: &str) -> Result<Move, crate::MoveError> {
        let mv = Move::parse_tolerant(text)?;
        Ok(IllegalMoveError::check(mv, self, self.check_legal(mv))?)
    }

    /// The enemy pieces `mv` would flip.
    #[inline(always)]
    pub fn flips(&self, mv: Move) -> Bitboard {
        match mv.to() {
            Some(to) => Bitboard::neighbours_of(to) & self.pieces(!self.turn),
            None => Bitboard::EMPTY,
        }
    }

    /// Plays a move known to be legal (from [`Position::generate_moves`]); an illegal one leaves
    /// the position inconsistent.
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) {
        let us = self.turn.index();
        let flips = self.flips(mv);
        match mv {
            Move::Single(to) => {
                self.pieces[us] |= Bitboard::from_square(to) | flips;
                self.counters.after_single();
            }
            Move::Jump { from, to } => {
                self.pieces[us] ^= Bitboard::from_square(from) | Bitboard::from_square(to) | flips;
                self.counters.after_jump_or_pass();
            }
            Move::Pass => self.counters.after_jump_or_pass(),
        }
        self.pieces[us ^ 1] ^= flips;
        if self.turn == Color::O {
            self.counters.after_round();
        }
        self.turn = !self.turn;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        fen.parse().unwrap()
    }

    #[test]
    fn counter_vectors_from_the_spec() {
        let runs: [(&str, &[(&str, &str)]); 2] = [
            (
                "x5o/7/7/7/7/7/o5x x 0 1",
                &[
                    ("g2", "x5o/7/7/7/7/6x/o5x o 0 1"),
                    ("a2", "x5o/7/7/7/7/o5x/o5x x 0 2"),
                    ("g3", "x5o/7/7/7/6x/o5x/o5x o 0 2"),
                    ("a2a4", "x5o/7/7/o6/6x/6x/o5x x 1 3"),
                    ("a7a5", "6o/7/x6/x6/6x/6x/o5x o 2 3"),
                    ("a1b3", "6o/7/x6/o6/1o4x/6x/6x x 3 4"),
                    ("b4", "6o/7/x6/xx5/1x4x/6x/6x o 0 4"),
                    ("f6", "6o/5o1/x6/xx5/1x4x/6x/6x x 0 5"),
                ],
            ),
            (
                "7/7/7/7/4ooo/4ooo/4oox x 0 1",
                &[
                    ("0000", "7/7/7/7/4ooo/4ooo/4oox o 1 1"),
                    ("d1", "7/7/7/7/4ooo/4ooo/3ooox x 0 2"),
                    ("0000", "7/7/7/7/4ooo/4ooo/3ooox o 1 2"),
                    ("d1b1", "7/7/7/7/4ooo/4ooo/1o2oox x 2 3"),
                    ("0000", "7/7/7/7/4ooo/4ooo/1o2oox o 3 3"),
                    ("a1", "7/7/7/7/4ooo/4ooo/oo2oox x 0 4"),
                ],
            ),
        ];
        for (start, steps) in runs {
            let mut p = pos(start);
            for (mv, after) in steps {
                p.play(mv.parse().unwrap()).unwrap();
                assert_eq!(p.to_string(), *after, "after {mv}");
            }
        }
    }

    #[test]
    fn forced_pass_is_the_only_move_and_voluntary_pass_is_illegal() {
        let stuck = pos("7/7/7/7/4ooo/4ooo/4oox x 0 1");
        assert!(stuck.must_pass());
        assert_eq!(stuck.legal_moves().as_slice(), &[Move::Pass]);
        assert_eq!(stuck.count_moves(), 1);
        let start = Position::startpos();
        assert!(!start.is_legal(Move::Pass));
    }

    #[test]
    fn end_conditions_and_results() {
        assert_eq!(
            pos("x5o/7/7/7/7/7/o5x x 100 1").outcome(),
            Some(Outcome::Draw)
        );
        assert_eq!(pos("7/7/7/7/7/7/7 x 0 1").outcome(), Some(Outcome::Draw));
        assert_eq!(
            pos("ooooooo/ooooooo/ooooooo/ooo-xxx/xxxxxxx/xxxxxxx/xxxxxxx x 0 1").outcome(),
            Some(Outcome::Draw)
        );
        // A count result beats the 100-ply draw.
        assert_eq!(
            pos("x6/7/7/7/7/7/7 o 150 9").outcome(),
            Some(Outcome::Win(Color::X))
        );
        assert_eq!(pos("x5o/7/7/7/7/7/o5x x 0 1").outcome(), None);
        // Only one side stuck: not over.
        assert_eq!(pos("7/7/7/7/4ooo/4ooo/4oox x 0 1").outcome(), None);
    }

    #[test]
    fn play_rejects_illegal_moves_with_a_reason() {
        let mut p = Position::startpos();
        let err = p.play("d4".parse().unwrap()).unwrap_err();
        assert_eq!(err.reason, "no own piece is next to the destination");
        assert!(p.play("g7e5".parse().unwrap()).is_err());
        assert!(p.play("a7a5".parse().unwrap()).is_ok());
    }
}
