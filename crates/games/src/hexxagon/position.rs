//! Hexxagon positions: pieces as bit sets over the board's cells, legal moves, making moves,
//! passes, game over and the result. The rules are the square game's (`ataxx.md` section 1)
//! with six neighbours and twelve jump targets per cell.

use ataxx::{Color, Counters, Outcome};

use super::geometry::{bits, Cell, Geometry, MAX_SIZE};
use super::moves::Move;

/// What a cell holds.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CellState {
    Empty,
    Blocked,
    Piece(Color),
}

/// A Hexxagon position: the board size, pieces, blocked cells, side to move and the counters.
///
/// Positions are small `Copy` values; searching copies them rather than undoing moves.
///
/// ```
/// use games::hexxagon::{Move, Position};
/// let mut pos = Position::startpos();
/// assert_eq!(pos.legal_moves().len(), 24);
/// assert_eq!(pos.play("b1".parse().unwrap()).unwrap(), 0); // a single next to a1, no flips
/// assert_eq!(pos.to_string(), "x3o/6/7/8/o7x/8/7/6/xx2o o 0 1");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    n: u8,
    pieces: [u64; 2],
    blocked: u64,
    turn: Color,
    counters: Counters,
}

/// A move the position does not allow.
pub type IllegalMoveError = ataxx::move_text::IllegalMoveError<Cell>;

/// Move text that does not read, or reads as a move the position does not allow.
pub type MoveError = ataxx::move_text::MoveError<Cell>;

const fn side(color: Color) -> usize {
    match color {
        Color::X => 0,
        Color::O => 1,
    }
}

impl Position {
    /// The start on the board with `n` cells a side (3 to 5): x on three alternating corners
    /// (a1 and the two counter-clockwise from it at distance two corners), o on the other three;
    /// x to move. For n = 5: x on a1, i5, e9 and o on e1, i9, a5.
    pub fn start(n: u8) -> Option<Position> {
        let g = Geometry::of(n)?;
        let mut pieces = [0u64; 2];
        for (k, corner) in g.corners().into_iter().enumerate() {
            pieces[k % 2] |= 1 << g.index(corner).expect("corners lie on the board");
        }
        Some(Position {
            n,
            pieces,
            blocked: 0,
            turn: Color::X,
            counters: Counters::START,
        })
    }

    /// The standard start: n = 5, no blocks: `x3o/6/7/8/o7x/8/7/6/x3o x 0 1`.
    pub fn startpos() -> Position {
        Position::start(MAX_SIZE).expect("the default size is supported")
    }

    /// The DOS game's three blocked cells, the centre's neighbours on the rays toward o's
    /// corners: `e4`, `f6`, `d5` (n = 5 only).
    pub fn classic_blocks() -> [Cell; 3] {
        ["e4", "f6", "d5"].map(|label| label.parse().expect("a cell label"))
    }

    /// The n = 5 start with [`Position::classic_blocks`] blocked:
    /// `x3o/6/7/4-3/o2-4x/4-3/7/6/x3o x 0 1`.
    pub fn classic() -> Position {
        Position::startpos()
            .with_blocked(&Position::classic_blocks())
            .expect("the classic cells are empty on the n = 5 board")
    }

    /// This position with `cells` blocked as well; `None` if one is off the board or holds a
    /// piece.
    pub fn with_blocked(mut self, cells: &[Cell]) -> Option<Position> {
        for &cell in cells {
            let i = self.geometry().index(cell)?;
            if (self.pieces[0] | self.pieces[1]) & (1 << i) != 0 {
                return None;
            }
            self.blocked |= 1 << i;
        }
        Some(self)
    }

    /// A position from its parts (bit `i` = cell `i` of the size-`n` [`Geometry`]). Bits off
    /// the board are dropped; a cell in more than one set is blocked if blocked, else x's.
    pub fn from_parts(
        n: u8,
        x: u64,
        o: u64,
        blocked: u64,
        turn: Color,
        counters: Counters,
    ) -> Option<Position> {
        let all = Geometry::of(n)?.all();
        let blocked = blocked & all;
        let x = x & all & !blocked;
        let o = o & all & !blocked & !x;
        Some(Position {
            n,
            pieces: [x, o],
            blocked,
            turn,
            counters,
        })
    }

    /// The board's tables.
    #[inline(always)]
    pub fn geometry(&self) -> &'static Geometry {
        Geometry::of(self.n).expect("positions hold a supported size")
    }

    /// Cells a side (3 to 5).
    pub fn size(&self) -> u8 {
        self.n
    }

    /// The cells of `color`'s pieces.
    #[inline(always)]
    pub fn pieces(&self, color: Color) -> u64 {
        self.pieces[side(color)]
    }

    /// The blocked cells.
    pub fn blocked(&self) -> u64 {
        self.blocked
    }

    /// The empty cells.
    #[inline(always)]
    pub fn empty(&self) -> u64 {
        self.geometry().all() & !(self.pieces[0] | self.pieces[1] | self.blocked)
    }

    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The halfmove clock (plies since the last single; passes and jumps count) and the
    /// fullmove number (from 1, +1 after each of o's plies).
    pub fn counters(&self) -> Counters {
        self.counters
    }

    /// What `cell` holds; `None` if it is not on this board.
    pub fn cell_state(&self, cell: Cell) -> Option<CellState> {
        let bit = 1u64 << self.geometry().index(cell)?;
        Some(if self.blocked & bit != 0 {
            CellState::Blocked
        } else if self.pieces[0] & bit != 0 {
            CellState::Piece(Color::X)
        } else if self.pieces[1] & bit != 0 {
            CellState::Piece(Color::O)
        } else {
            CellState::Empty
        })
    }

    /// Whether some cell of `set` has an empty cell within distance 2, i.e. the owner of `set`
    /// has a move. Walks the empty cells, which stops early in the usual, open position.
    #[inline]
    fn can_reach(&self, set: u64) -> bool {
        let g = self.geometry();
        bits(self.empty()).any(|e| g.within_two(e) & set != 0)
    }

    /// Whether the game has ended: a side without pieces, the halfmove clock at 100, or no empty
    /// cell within distance 2 of any piece.
    pub fn is_game_over(&self) -> bool {
        self.pieces[0] == 0
            || self.pieces[1] == 0
            || self.counters.clock_ran_out()
            || !self.can_reach(self.pieces[0] | self.pieces[1])
    }

    /// The result, once the game is over: more pieces wins; a count result takes priority over
    /// the 100-ply draw, which applies only when both sides could still move.
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.is_game_over() {
            return None;
        }
        let counted = self.pieces[0] == 0
            || self.pieces[1] == 0
            || !self.can_reach(self.pieces[0] | self.pieces[1]);
        if !counted {
            return Some(Outcome::Draw);
        }
        let [x, o] = self.pieces.map(u64::count_ones);
        Some(Outcome::by_count(x, o))
    }

    /// Whether the only legal move is a pass.
    pub fn must_pass(&self) -> bool {
        !self.is_game_over() && !self.can_reach(self.pieces[side(self.turn)])
    }

    /// Every legal move: singles by destination, then jumps by origin (cell order, `a1` first);
    /// a lone pass when the side to move is stuck; nothing once the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.is_game_over() {
            return Vec::new();
        }
        let g = self.geometry();
        let empty = self.empty();
        let us = self.pieces[side(self.turn)];
        let mut moves = Vec::with_capacity(64);
        moves.extend(bits(g.neighbours_of_set(us) & empty).map(|to| Move::Single(g.cell(to))));
        for from in bits(us) {
            moves.extend(bits(g.jumps(from) & empty).map(|to| Move::Jump {
                from: g.cell(from),
                to: g.cell(to),
            }));
        }
        if moves.is_empty() {
            moves.push(Move::Pass);
        }
        moves
    }

    /// The number of legal moves, counted without listing them (perft's bulk counting).
    #[inline]
    pub fn count_moves(&self) -> u64 {
        let (us, them) = (self.pieces[side(self.turn)], self.pieces[side(!self.turn)]);
        if self.counters.clock_ran_out() || us == 0 || them == 0 {
            return 0;
        }
        let g = self.geometry();
        let empty = self.empty();
        let singles = (g.neighbours_of_set(us) & empty).count_ones();
        let jumps: u32 = bits(us).map(|i| (g.jumps(i) & empty).count_ones()).sum();
        ataxx::count_with_pass(singles + jumps, || self.can_reach(them))
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check_legal(mv).is_ok()
    }

    fn check_legal(&self, mv: Move) -> Result<(), &'static str> {
        if self.is_game_over() {
            return Err("the game is over");
        }
        let us = self.pieces[side(self.turn)];
        let empty = self.empty();
        let g = self.geometry();
        let on_board = |cell: Cell| g.index(cell).ok_or("the cell is not on this board");
        match mv {
            Move::Pass if self.must_pass() => Ok(()),
            Move::Pass => Err("a pass is legal only when no other move exists"),
            Move::Single(to) => {
                let to = on_board(to)?;
                if empty & (1 << to) == 0 {
                    Err("the destination is not an empty cell")
                } else if g.neighbours(to) & us == 0 {
                    Err("no own piece is next to the destination")
                } else {
                    Ok(())
                }
            }
            Move::Jump { from, to } => {
                let (from_i, to_i) = (on_board(from)?, on_board(to)?);
                if empty & (1 << to_i) == 0 {
                    Err("the destination is not an empty cell")
                } else if us & (1 << from_i) == 0 {
                    Err("no own piece on the origin")
                } else if from.distance(to) != 2 {
                    Err("a jump goes exactly 2 cells")
                } else {
                    Ok(())
                }
            }
        }
    }

    /// Plays `mv` after checking that it is legal; returns the number of pieces it flipped.
    pub fn play(&mut self, mv: Move) -> Result<u32, IllegalMoveError> {
        IllegalMoveError::check(mv, self, self.check_legal(mv))?;
        Ok(self.play_unchecked(mv))
    }

    /// Reads move text with the tolerant reader and checks it against this position. A text
    /// that names the origin of a single (`a1b2`) need not name an own piece, as on the square
    /// board.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let mv = Move::parse_tolerant(text)?;
        Ok(IllegalMoveError::check(mv, self, self.check_legal(mv))?)
    }

    /// The enemy pieces `mv` would flip (as a cell mask).
    pub fn flips(&self, mv: Move) -> u64 {
        let g = self.geometry();
        match mv.to().and_then(|to| g.index(to)) {
            Some(to) => g.neighbours(to) & self.pieces[side(!self.turn)],
            None => 0,
        }
    }

    /// Plays a move known to be legal (from [`Position::legal_moves`]) and returns the number
    /// of pieces it flipped; an illegal one leaves the position inconsistent.
    pub fn play_unchecked(&mut self, mv: Move) -> u32 {
        let g = self.geometry();
        let index = |cell: Cell| {
            g.index(cell)
                .expect("a legal move's cells are on the board")
        };
        match mv {
            Move::Single(to) => self.apply(None, Some(index(to))),
            Move::Jump { from, to } => self.apply(Some(index(from)), Some(index(to))),
            Move::Pass => self.apply(None, None),
        }
    }

    /// Makes a move given by cell indices: a single (`to` only), a jump (both) or a pass
    /// (neither). Returns the number of pieces flipped.
    #[inline]
    pub(crate) fn apply(&mut self, from: Option<usize>, to: Option<usize>) -> u32 {
        let us = side(self.turn);
        let mut flipped = 0;
        self.counters.after_jump_or_pass();
        if let Some(to) = to {
            let flips = self.geometry().neighbours(to) & self.pieces[us ^ 1];
            flipped = flips.count_ones();
            self.pieces[us ^ 1] ^= flips;
            self.pieces[us] |= flips | 1 << to;
            match from {
                // Only a single resets the clock; a jump's captures do not.
                None => self.counters.after_single(),
                Some(from) => self.pieces[us] ^= 1 << from,
            }
        }
        if self.turn == Color::O {
            self.counters.after_round();
        }
        self.turn = !self.turn;
        flipped
    }

    /// The side-to-move's and the opponent's piece masks and the empty cells, for counting.
    #[inline(always)]
    pub(crate) fn sides(&self) -> (u64, u64, u64) {
        (
            self.pieces[side(self.turn)],
            self.pieces[side(!self.turn)],
            self.empty(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_positions_match_the_spec() {
        assert_eq!(
            Position::startpos().to_string(),
            "x3o/6/7/8/o7x/8/7/6/x3o x 0 1"
        );
        assert_eq!(
            Position::classic().to_string(),
            "x3o/6/7/4-3/o2-4x/4-3/7/6/x3o x 0 1"
        );
        assert_eq!(
            Position::start(3).unwrap().to_string(),
            "x1o/4/o3x/4/x1o x 0 1"
        );
        assert!(Position::start(6).is_none());
    }

    #[test]
    fn counters_follow_the_square_rules() {
        let mut p = Position::startpos();
        for (mv, after) in [
            ("b1", "x3o/6/7/8/o7x/8/7/6/xx2o o 0 1"),
            ("e1c1", "x3o/6/7/8/o7x/8/7/6/xoo2 x 1 2"), // flips b1
            ("a1a3", "x3o/6/7/8/o7x/8/x6/6/1oo2 o 2 2"),
        ] {
            p.play(mv.parse().unwrap()).unwrap();
            assert_eq!(p.to_string(), after, "after {mv}");
        }
    }

    #[test]
    fn forced_pass_and_game_over() {
        // x's lone piece on a1 is walled in by o pieces two deep; o can still move.
        let stuck: Position = "5/6/7/8/9/8/ooo4/ooo3/xoo2 x 0 1".parse().unwrap();
        assert!(stuck.must_pass());
        assert_eq!(stuck.legal_moves(), vec![Move::Pass]);
        assert_eq!(stuck.count_moves(), 1);
        assert!(stuck.is_legal(Move::Pass));
        assert!(!stuck.is_game_over());
        let err = Position::startpos().play(Move::Pass).unwrap_err();
        assert_eq!(err.reason, "a pass is legal only when no other move exists");
        // A full board is over and counted.
        let done: Position = "xxx/xxxx/xxooo/oooo/ooo x 0 1".parse().unwrap();
        assert!(done.is_game_over());
        assert_eq!(done.outcome(), Some(Outcome::Win(Color::O)));
        assert!(done.legal_moves().is_empty());
        // The clock ends it as a draw while both can move.
        let clock: Position = "x3o/6/7/8/o7x/8/7/6/x3o x 100 1".parse().unwrap();
        assert_eq!(clock.outcome(), Some(Outcome::Draw));
        assert_eq!(clock.count_moves(), 0);
    }

    #[test]
    fn illegal_moves_are_explained() {
        let p = Position::startpos();
        let reason = |text: &str| match p.parse_move(text) {
            Err(MoveError::Illegal(e)) => e.reason,
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(reason("e5"), "no own piece is next to the destination");
        assert_eq!(reason("a1"), "the destination is not an empty cell");
        assert_eq!(reason("e1e3"), "no own piece on the origin");
        let small = Position::start(3).unwrap();
        assert!(
            matches!(small.parse_move("e9"), Err(MoveError::Illegal(e)) if e.reason == "the cell is not on this board")
        );
    }
}
