//! The position: cubes per colour, reserves, side to move, ply, the win-height option, and
//! what the game's end needs besides (passes in a row, positions since the last placement).

use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use super::cell::{Cell, MAX_SIZE, MIN_SIZE};
use super::pyramid::{bits, pyramid, tetrahedral, Cells, Pyramid};

/// A player's colour. O moves first (seat 0); X may `swap` on ply 2 (seat 1).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Colour {
    O,
    X,
}

impl Colour {
    pub const ALL: [Colour; 2] = [Colour::O, Colour::X];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn opponent(self) -> Colour {
        match self {
            Colour::O => Colour::X,
            Colour::X => Colour::O,
        }
    }

    /// `o` or `x`, as the position text and the drawing write it.
    pub const fn char(self) -> char {
        match self {
            Colour::O => 'o',
            Colour::X => 'x',
        }
    }
}

/// An Ankor position.
///
/// Equality and hashing cover everything the rules look at: the board size, the win height,
/// the cubes, the side to move, the reserves, the ply, the passes in a row and the positions
/// since the last placement (for the third-repetition draw). The cube moved last, kept only
/// for the drawing, is left out. The position text writes neither the passes nor the
/// repetition history: a position read from text starts them afresh.
#[derive(Clone, Debug)]
pub struct Position {
    pub(crate) pyr: &'static Pyramid,
    pub(crate) win_height: i8,
    /// Cubes of O and of X.
    pub(crate) cubes: [Cells; 2],
    pub(crate) side: Colour,
    pub(crate) reserves: [u8; 2],
    pub(crate) ply: u32,
    /// Passes in a row just played (two end the game drawn).
    pub(crate) passes: u8,
    /// The cell of the cube placed or moved last, for the drawing.
    pub(crate) last: Option<u8>,
    /// Hashes of the positions since the last placement or swap, this one last.
    pub(crate) history: Vec<u64>,
    /// A player with a winning path, decided after the last move.
    pub(crate) winner: Option<Colour>,
    /// Whether this position occurs for the third time.
    pub(crate) repeated: bool,
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.pyr.n == other.pyr.n
            && self.win_height == other.win_height
            && self.cubes == other.cubes
            && self.side == other.side
            && self.reserves == other.reserves
            && self.ply == other.ply
            && self.passes == other.passes
            && self.history == other.history
    }
}

impl Eq for Position {}

impl Hash for Position {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.pyr.n.hash(state);
        self.win_height.hash(state);
        self.cubes.hash(state);
        self.side.hash(state);
        self.reserves.hash(state);
        self.ply.hash(state);
        self.passes.hash(state);
        self.history.hash(state);
    }
}

/// Each player's cubes on a board of size `n`: 28 for n = 6, ⌈T(n)/2⌉ for the others.
pub const fn cubes_per_player(n: u8) -> u8 {
    tetrahedral(n).div_ceil(2) as u8
}

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn mix_cells(set: Cells, seed: u64) -> u64 {
    mix(mix(set as u64 ^ seed) ^ (set >> 64) as u64)
}

impl Position {
    /// The empty board of size `n` (3 to 8) with win height `win_height` (0, 1 or −1), O to
    /// move, each player holding `cubes_per_player` cubes.
    pub fn new(n: u8, win_height: i8) -> Result<Position, String> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&n) {
            return Err(format!(
                "size {n}: boards have {MIN_SIZE} to {MAX_SIZE} holes per side"
            ));
        }
        if !(-1..=1).contains(&win_height) {
            return Err(format!("win height {win_height}: it is 0, 1 or -1"));
        }
        let r = cubes_per_player(n);
        Ok(Position::assemble(
            pyramid(n),
            win_height,
            [0, 0],
            Colour::O,
            [r, r],
            0,
        ))
    }

    fn assemble(
        pyr: &'static Pyramid,
        win_height: i8,
        cubes: [Cells; 2],
        side: Colour,
        reserves: [u8; 2],
        ply: u32,
    ) -> Position {
        let mut pos = Position {
            pyr,
            win_height,
            cubes,
            side,
            reserves,
            ply,
            passes: 0,
            last: None,
            history: Vec::new(),
            winner: None,
            repeated: false,
        };
        pos.history.push(pos.key());
        pos.winner = pos.decide_winner(side.opponent());
        pos
    }

    /// The repetition key: cubes and side to move.
    pub(crate) fn key(&self) -> u64 {
        mix_cells(self.cubes[0], 0x6f)
            ^ mix_cells(self.cubes[1], 0x78).rotate_left(17)
            ^ self.side as u64
    }

    /// Holes per side.
    pub fn size(&self) -> u8 {
        self.pyr.n
    }

    /// The `-win_height` option: 1 (a tip of each side), 0 (the board's edges) or −1 (any level).
    pub fn win_height(&self) -> i8 {
        self.win_height
    }

    pub fn side_to_move(&self) -> Colour {
        self.side
    }

    /// Cubes a player still holds.
    pub fn reserves(&self, colour: Colour) -> u8 {
        self.reserves[colour.index()]
    }

    /// Plies played.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Every cell of this board, in position-text order.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        self.pyr.label.iter().copied()
    }

    /// Cubes of a colour on the board (covered ones included).
    pub fn cube_count(&self, colour: Colour) -> u32 {
        self.cubes[colour.index()].count_ones()
    }

    pub(crate) fn occupied(&self) -> Cells {
        self.cubes[0] | self.cubes[1]
    }

    fn owner(&self, i: usize) -> Option<Colour> {
        if self.cubes[0] >> i & 1 == 1 {
            Some(Colour::O)
        } else if self.cubes[1] >> i & 1 == 1 {
            Some(Colour::X)
        } else {
            None
        }
    }

    /// The cube on a cell, `None` for an empty cell or one off this board.
    pub fn cube_at(&self, cell: Cell) -> Option<Colour> {
        self.pyr.index_of(cell).and_then(|i| self.owner(i))
    }

    /// How many of a cube's three upper faces are exposed (the cell above it through that face
    /// empty or outside the pyramid); `None` for an empty cell.
    pub fn exposed_faces(&self, cell: Cell) -> Option<u32> {
        let i = self.pyr.index_of(cell)?;
        self.owner(i)?;
        Some(3 - (self.pyr.above_set[i] & self.occupied()).count_ones())
    }

    /// How many columns a cube supports: its occupied above-cells, each the foot of a column.
    pub fn columns_supported(&self, cell: Cell) -> Option<u32> {
        let i = self.pyr.index_of(cell)?;
        self.owner(i)?;
        let occ = self.occupied();
        Some(
            self.pyr.above[i]
                .iter()
                .filter(|&&j| j != super::pyramid::NONE && occ >> j & 1 == 1)
                .count() as u32,
        )
    }

    /// Whether the cube may move by the rules (≥ 2 exposed faces and ≤ 1 column above it), as
    /// the move generator decides it; `None` for an empty cell.
    pub fn is_movable(&self, cell: Cell) -> Option<bool> {
        let i = self.pyr.index_of(cell)?;
        self.owner(i)?;
        Some(self.movable(i))
    }

    pub(crate) fn movable(&self, i: usize) -> bool {
        let above = self.pyr.above_set[i] & self.occupied();
        above & above.wrapping_sub(1) == 0
    }

    /// The first cube resting on a missing support, if any (`None`: physically valid).
    pub fn unsupported_cube(&self) -> Option<(Cell, Cell)> {
        let occ = self.occupied();
        for i in bits(occ) {
            let missing = self.pyr.supports[i] & !occ;
            if missing != 0 {
                let support = missing.trailing_zeros() as usize;
                return Some((self.pyr.label[i], self.pyr.label[support]));
            }
        }
        None
    }

    /// Whether every cube above the board rests on three cubes.
    pub fn is_physically_valid(&self) -> bool {
        self.cubes[0] & self.cubes[1] == 0 && self.unsupported_cube().is_none()
    }

    /// The cube placed or moved last (drawn in upper case), if known.
    pub fn last_moved(&self) -> Option<Cell> {
        self.last.map(|i| self.pyr.label[usize::from(i)])
    }

    /// The same position with the cube on `cell` marked as moved last (for drawings of
    /// positions read from text); `None` clears the mark. Errors if no cube is there.
    pub fn with_last_moved(mut self, cell: Option<Cell>) -> Result<Position, String> {
        self.last = match cell {
            None => None,
            Some(cell) => match self.pyr.index_of(cell) {
                Some(i) if self.owner(i).is_some() => Some(i as u8),
                Some(_) => return Err(format!("{cell} holds no cube")),
                None => return Err(format!("{cell} is not on the size-{} board", self.size())),
            },
        };
        Ok(self)
    }
}

impl fmt::Display for Position {
    /// The position text: `ankor <n> <H> <cells> <side> <reserves O> <reserves X> <ply>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ankor {} {} ", self.pyr.n, self.win_height)?;
        for i in 0..self.pyr.len {
            if i > 0 && self.pyr.level[i] != self.pyr.level[i - 1] {
                f.write_str("/")?;
            }
            let c = self.owner(i).map_or('.', Colour::char);
            write!(f, "{c}")?;
        }
        write!(
            f,
            " {} {} {} {}",
            self.side.char(),
            self.reserves[0],
            self.reserves[1],
            self.ply
        )
    }
}

impl FromStr for Position {
    type Err = String;

    /// Reads the position text, checking it describes a position a game can reach in its
    /// counts: the reason names what is wrong.
    fn from_str(text: &str) -> Result<Position, String> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 8 {
            return Err(format!(
                "{} fields; expected 8: ankor <n> <H> <cells> <side> <reserves O> <reserves X> <ply>",
                fields.len()
            ));
        }
        if fields[0] != "ankor" {
            return Err(format!("starts with {:?}, not \"ankor\"", fields[0]));
        }
        let n: u8 = fields[1]
            .parse()
            .ok()
            .filter(|n| (MIN_SIZE..=MAX_SIZE).contains(n))
            .ok_or_else(|| {
                format!(
                    "size {:?}: boards have {MIN_SIZE} to {MAX_SIZE} holes per side",
                    fields[1]
                )
            })?;
        let win_height: i8 = match fields[2] {
            "0" => 0,
            "1" => 1,
            "-1" => -1,
            other => return Err(format!("win height {other:?}: it is 0, 1 or -1")),
        };
        let pyr = pyramid(n);
        let levels: Vec<&str> = fields[3].split('/').collect();
        if levels.len() != usize::from(n) {
            return Err(format!(
                "{} levels of cells; a size-{n} board has {n}, separated by '/'",
                levels.len()
            ));
        }
        let mut cubes = [0 as Cells, 0];
        let mut i = 0;
        for (l, row) in levels.iter().enumerate() {
            let want = (usize::from(n) - l) * (usize::from(n) - l + 1) / 2;
            if row.chars().count() != want {
                return Err(format!(
                    "level {l} has {} cells; a size-{n} board has {want} there",
                    row.chars().count()
                ));
            }
            for ch in row.chars() {
                match ch {
                    'o' => cubes[0] |= 1 << i,
                    'x' => cubes[1] |= 1 << i,
                    '.' => {}
                    other => {
                        return Err(format!(
                            "cell {} is {other:?}; cells are 'o', 'x' or '.'",
                            pyr.label[i]
                        ))
                    }
                }
                i += 1;
            }
        }
        let side = match fields[4] {
            "o" => Colour::O,
            "x" => Colour::X,
            other => return Err(format!("side to move {other:?}: it is 'o' or 'x'")),
        };
        let full = cubes_per_player(n);
        let mut reserves = [0u8; 2];
        for colour in Colour::ALL {
            let field = fields[5 + colour.index()];
            let name = colour.char().to_ascii_uppercase();
            let r: u8 = field.parse().map_err(|_| {
                format!("reserves of {name} {field:?}: a count of cubes from 0 to {full}")
            })?;
            let on_board = cubes[colour.index()].count_ones();
            if u32::from(r) + on_board != u32::from(full) {
                return Err(format!(
                    "{name} has {on_board} cubes on the board and {r} in reserve, {} in all; \
                     each player has {full} on a size-{n} board",
                    u32::from(r) + on_board
                ));
            }
            reserves[colour.index()] = r;
        }
        let ply: u32 = fields[7]
            .parse()
            .map_err(|_| format!("ply {:?}: the count of plies played", fields[7]))?;
        let pos = Position::assemble(pyr, win_height, cubes, side, reserves, ply);
        if let Some((cube, support)) = pos.unsupported_cube() {
            return Err(format!(
                "the cube on {cube} rests on {support}, which is empty"
            ));
        }
        let total = cubes[0].count_ones() + cubes[1].count_ones();
        match ply {
            0 if total != 0 || side != Colour::O => {
                return Err("ply 0 is the empty board with o to move".to_string())
            }
            1 if cubes[1] != 0 || total != 1 || side != Colour::X => {
                return Err(
                    "ply 1 is one o cube on the board (O's first placement) with x to move"
                        .to_string(),
                )
            }
            _ if total > ply => {
                return Err(format!(
                    "{total} cubes on the board after {ply} plies; each ply places at most one"
                ))
            }
            _ => {}
        }
        Ok(pos)
    }
}
