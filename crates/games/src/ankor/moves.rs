//! Moves: their text, the legal ones in a position, explanations of illegal ones, and playing.

use std::fmt;
use std::str::FromStr;

use super::cell::Cell;
use super::position::{Colour, Position};
use super::pyramid::{bits, Cells, NONE};

/// An Ankor move.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// A cube from the reserve into an empty hole of the board: `d3`.
    Place(Cell),
    /// One of the mover's cubes to another cell: `d3-f4'`.
    Step { from: Cell, to: Cell },
    /// X's reply to the first move: the players exchange colours.
    Swap,
    /// No legal move: `0000`.
    Pass,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(cell) => write!(f, "{cell}"),
            Move::Step { from, to } => write!(f, "{from}-{to}"),
            Move::Swap => f.write_str("swap"),
            Move::Pass => f.write_str("0000"),
        }
    }
}

impl FromStr for Move {
    type Err = String;

    /// Reads `d3`, `d3-f4'` (the dash may be left out, levels as `'` or `^k`), `swap`, `0000`
    /// or `pass`, in either case, spaces around ignored.
    fn from_str(s: &str) -> Result<Move, String> {
        let text = s.trim();
        if text.eq_ignore_ascii_case("swap") {
            return Ok(Move::Swap);
        }
        if text == "0000" || text.eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        if text.is_empty() {
            return Err("no move: expected d3, d3-f4, swap or 0000".to_string());
        }
        let (from, rest) = Cell::read_prefix(text).map_err(|e| e.0)?;
        if rest.is_empty() {
            return Ok(Move::Place(from));
        }
        let rest = rest.strip_prefix('-').unwrap_or(rest);
        let (to, tail) = Cell::read_prefix(rest).map_err(|e| e.0)?;
        if !tail.is_empty() {
            return Err(format!("unexpected {tail:?} after {from}-{to}"));
        }
        Ok(Move::Step { from, to })
    }
}

impl Position {
    /// Whether the game is over (a winning path, the third repetition, two passes in a row).
    pub fn is_over(&self) -> bool {
        self.winner.is_some() || self.repeated || self.passes >= 2
    }

    /// The player whose path has won, if one has.
    pub fn winner(&self) -> Option<Colour> {
        self.winner
    }

    /// The column on `s` (empty, or the run of cubes resting on it) if the cube may move.
    fn column(&self, s: usize, occ: Cells) -> Option<Cells> {
        let pyr = self.pyr;
        let above = pyr.above_set[s] & occ;
        if above & above.wrapping_sub(1) != 0 {
            return None;
        }
        let mut col = 0;
        if above != 0 {
            let d = (0..3)
                .find(|&d| pyr.above[s][d] != NONE && occ >> pyr.above[s][d] & 1 == 1)
                .expect("an occupied above-cell");
            let mut cur = pyr.above[s][d];
            while cur != NONE && occ >> cur & 1 == 1 {
                col |= 1 << cur;
                cur = pyr.above[usize::from(cur)][d];
            }
        }
        Some(col)
    }

    /// The cells the cube on `s` may move to (given it may move, with column `col`).
    fn destinations(&self, s: usize, col: Cells, supported: Cells) -> Cells {
        let pyr = self.pyr;
        let friendly = self.cubes[self.side.index()] & !col;
        let mut reach: Cells = 1 << s;
        let mut frontier = reach;
        let mut touched: Cells = 0;
        while frontier != 0 {
            let mut next = 0;
            for f in bits(frontier) {
                touched |= pyr.steps[f];
            }
            next |= touched & friendly & !reach;
            reach |= next;
            frontier = next;
        }
        let leaving = col | 1 << s;
        let mut resting_on_leaving = 0;
        for r in bits(leaving) {
            resting_on_leaving |= pyr.above_set[r];
        }
        touched & supported & !resting_on_leaving
    }

    /// Empty cells a cube could rest in: holes, and cells over three cubes.
    fn supported_empty(&self) -> Cells {
        let pyr = self.pyr;
        let occ = self.occupied();
        let mut supported = pyr.ground & !occ;
        for i in bits(pyr.all & !pyr.ground & !occ) {
            if pyr.supports[i] & !occ == 0 {
                supported |= 1 << i;
            }
        }
        supported
    }

    /// Every legal move: placements, `swap`, cube moves; the pass alone when nothing else is
    /// legal; none once the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        if self.is_over() {
            return out;
        }
        let pyr = self.pyr;
        let me = self.side.index();
        let occ = self.occupied();
        if self.reserves[me] > 0 {
            out.extend(bits(pyr.ground & !occ).map(|i| Move::Place(pyr.label[i])));
        }
        if self.ply == 1 && self.side == Colour::X {
            out.push(Move::Swap);
        }
        let supported = self.supported_empty();
        for s in bits(self.cubes[me]) {
            if let Some(col) = self.column(s, occ) {
                for d in bits(self.destinations(s, col, supported)) {
                    out.push(Move::Step {
                        from: pyr.label[s],
                        to: pyr.label[d],
                    });
                }
            }
        }
        if out.is_empty() {
            out.push(Move::Pass);
        }
        out
    }

    /// How many moves [`Position::legal_moves`] lists, without listing them.
    pub fn count_moves(&self) -> u64 {
        if self.is_over() {
            return 0;
        }
        let pyr = self.pyr;
        let me = self.side.index();
        let occ = self.occupied();
        let mut count = 0;
        if self.reserves[me] > 0 {
            count += u64::from((pyr.ground & !occ).count_ones());
        }
        if self.ply == 1 && self.side == Colour::X {
            count += 1;
        }
        let supported = self.supported_empty();
        for s in bits(self.cubes[me]) {
            if let Some(col) = self.column(s, occ) {
                count += u64::from(self.destinations(s, col, supported).count_ones());
            }
        }
        count.max(1)
    }

    /// Why a move is not legal here, or `None` if it is.
    pub fn illegal_reason(&self, mv: Move) -> Option<String> {
        if self.is_over() {
            return Some("the game is over".to_string());
        }
        let pyr = self.pyr;
        let n = pyr.n;
        let index = |cell: Cell| {
            pyr.index_of(cell)
                .ok_or_else(|| format!("{cell} is not on the size-{n} board"))
        };
        let me = self.side.index();
        let occ = self.occupied();
        let reason = match mv {
            Move::Pass => {
                if self.legal_moves() == [Move::Pass] {
                    return None;
                }
                "a pass is only allowed when no other move is".to_string()
            }
            Move::Swap => {
                if self.ply == 1 && self.side == Colour::X {
                    return None;
                }
                "swap is only X's reply to the first move (ply 2)".to_string()
            }
            Move::Place(cell) => match index(cell) {
                Err(e) => e,
                Ok(_) if self.reserves[me] == 0 => {
                    format!("{} has no cubes left to place", self.side.char())
                }
                Ok(_) if cell.level() > 0 => {
                    format!("{cell} is not a hole of the board: cubes are placed at level 0")
                }
                Ok(i) if occ >> i & 1 == 1 => format!("{cell} is occupied"),
                Ok(_) => return None,
            },
            Move::Step { from, to } => {
                let (s, d) = match (index(from), index(to)) {
                    (Err(e), _) | (_, Err(e)) => return Some(e),
                    (Ok(s), Ok(d)) => (s, d),
                };
                if self.cubes[me] >> s & 1 == 0 {
                    return Some(format!("{from} holds no cube of {}", self.side.char()));
                }
                let Some(col) = self.column(s, occ) else {
                    return Some(format!(
                        "{from} supports two columns (it has fewer than two exposed faces)"
                    ));
                };
                if s == d {
                    return Some("a cube must move to another cell".to_string());
                }
                if occ >> d & 1 == 1 {
                    return Some(format!("{to} is occupied"));
                }
                let missing = pyr.supports[d] & !occ;
                if missing != 0 {
                    return Some(format!(
                        "{to} is not supported: {} is empty",
                        pyr.label[missing.trailing_zeros() as usize]
                    ));
                }
                if pyr.supports[d] >> s & 1 == 1 {
                    return Some(format!("{to} rests on {from}"));
                }
                let on_col = pyr.supports[d] & col;
                if on_col != 0 {
                    return Some(format!(
                        "{to} rests on {}, which drops when {from} leaves",
                        pyr.label[on_col.trailing_zeros() as usize]
                    ));
                }
                if self.destinations(s, col, self.supported_empty()) >> d & 1 == 0 {
                    return Some(format!(
                        "no path of {}'s cubes leads from {from} to {to}",
                        self.side.char()
                    ));
                }
                return None;
            }
        };
        Some(reason)
    }

    /// Plays a legal move (unchecked: [`Position::legal_moves`] must list it).
    pub fn play(&mut self, mv: Move) {
        let pyr = self.pyr;
        let me = self.side.index();
        self.ply = self.ply.saturating_add(1);
        match mv {
            Move::Swap => {
                // The players exchange colours; X (now the opener) is still to move.
                self.passes = 0;
                self.history.clear();
                self.history.push(self.key());
                return;
            }
            Move::Pass => {
                self.passes += 1;
            }
            Move::Place(cell) => {
                let i = pyr.index_of(cell).expect("a legal placement");
                self.cubes[me] |= 1 << i;
                self.reserves[me] -= 1;
                self.passes = 0;
                self.last = Some(i as u8);
                self.history.clear();
            }
            Move::Step { from, to } => {
                let s = pyr.index_of(from).expect("a legal move's source");
                let d = pyr.index_of(to).expect("a legal move's destination");
                let occ = self.occupied();
                self.cubes[me] &= !(1 << s);
                // The column above s slides one step down onto s.
                let above = pyr.above_set[s] & occ;
                if above != 0 {
                    let dir = (0..3)
                        .find(|&k| pyr.above[s][k] != NONE && occ >> pyr.above[s][k] & 1 == 1)
                        .expect("an occupied above-cell");
                    let mut below = s;
                    let mut cur = pyr.above[s][dir];
                    while cur != NONE && occ >> cur & 1 == 1 {
                        let c = usize::from(cur);
                        for cubes in &mut self.cubes {
                            if *cubes >> c & 1 == 1 {
                                *cubes &= !(1 << c);
                                *cubes |= 1 << below;
                            }
                        }
                        below = c;
                        cur = pyr.above[c][dir];
                    }
                }
                self.cubes[me] |= 1 << d;
                self.passes = 0;
                self.last = Some(d as u8);
            }
        }
        self.side = self.side.opponent();
        let key = self.key();
        self.history.push(key);
        self.repeated = self.history.iter().filter(|&&k| k == key).count() >= 3;
        if !matches!(mv, Move::Pass) {
            self.winner = self.decide_winner(self.side.opponent());
        }
    }
}
