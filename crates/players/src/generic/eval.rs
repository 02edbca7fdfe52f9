//! Evaluations for any game, from one seat's point of view: the game's end decides, else the
//! game's own heuristic ([`Evaluate`]).

use games::{Rules, Seat};

/// The score of a won game (less the plies to reach it, so quicker wins score higher).
pub const WIN: i32 = 1_000_000;

/// A game the searches can judge: its heuristic for a position that is not over.
pub trait Evaluate: Rules {
    /// How good the position looks for `seat`, well inside ±[`WIN`]; 0 is even.
    fn heuristic(&self, seat: Seat) -> i32;

    /// How good the position looks for `seat` measured against every rival
    /// ([`super::Judge::AllRivals`]): by default [`Evaluate::heuristic`].
    fn heuristic_against_all(&self, seat: Seat) -> i32 {
        self.heuristic(seat)
    }
}

/// [`evaluate`] with [`Evaluate::heuristic_against_all`].
pub fn evaluate_against_all<R: Evaluate>(pos: &R, seat: Seat) -> i32 {
    if pos.outcome().is_some() {
        return evaluate(pos, seat);
    }
    pos.heuristic_against_all(seat)
}

/// The score of `pos` for `seat`: ±[`WIN`] once the game is over (0 when `seat` shares first
/// place), else the game's heuristic.
pub fn evaluate<R: Evaluate>(pos: &R, seat: Seat) -> i32 {
    if let Some(outcome) = pos.outcome() {
        return match (outcome.rank(seat), outcome.winner()) {
            (1, Some(_)) => WIN,
            (1, None) => 0,
            _ => -WIN,
        };
    }
    pos.heuristic(seat)
}

/// `seat`'s own pieces minus the strongest opponent's: with two seats the piece difference,
/// with more the gap to the leading rival; a seat without pieces has lost.
pub fn piece_margin<R: Rules>(pos: &R, seat: Seat) -> i32 {
    let counts = pos.piece_counts();
    let own = counts[seat.index()] as i32;
    if own == 0 {
        return -WIN;
    }
    let rival = counts
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != seat.index())
        .map(|(_, &c)| c as i32)
        .max()
        .unwrap_or(0);
    own - rival
}

impl Evaluate for ataxx::Position {
    fn heuristic(&self, seat: Seat) -> i32 {
        piece_margin(self, seat)
    }
}

impl Evaluate for games::hexxagon::Position {
    fn heuristic(&self, seat: Seat) -> i32 {
        piece_margin(self, seat)
    }
}

/// Whether playing `mv` adds a piece (a single, a clone) rather than moving one (a jump),
/// read from the piece counts alone so that it holds for every game. `None` for a pass.
pub fn single_or_jump<R: Rules>(pos: &R, mv: R::Move) -> Option<bool> {
    let seat = pos.turn();
    let before = pos.piece_counts()[seat.index()];
    let mut after = pos.clone();
    let flips = after.play(mv);
    let now = after.piece_counts()[seat.index()];
    if now == before + 1 + flips {
        Some(true)
    } else if now == before + flips && pos.piece_counts() != after.piece_counts() {
        Some(false)
    } else {
        None
    }
}
