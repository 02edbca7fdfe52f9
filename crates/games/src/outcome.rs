//! Seats and how a finished game ranks them.

use std::fmt;

/// The most players a game seats.
pub const MAX_SEATS: usize = 4;

/// A player's place in the turn order: seat 0 moves first.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Seat(pub u8);

impl Seat {
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// The ranks of a finished game's seats: 1 is best, equal ranks are shared (two players level
/// on pieces are both rank 1; the next is rank 3).
///
/// ```
/// use games::{Outcome, Seat};
/// let out = Outcome::from_scores(&[5, 9, 9, 0]);
/// assert_eq!(out.rank(Seat(1)), 1);
/// assert_eq!(out.rank(Seat(0)), 3);
/// assert_eq!(out.winner(), None); // two leaders: drawn between them
/// assert_eq!(Outcome::from_scores(&[30, 19]).winner(), Some(Seat(0)));
/// assert_eq!(Outcome::from_scores(&[30, 19]).pairwise(Seat(1), Seat(0)), 0.0);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    ranks: [u8; MAX_SEATS],
    seats: u8,
}

impl Outcome {
    /// Ranks seats by score, higher first, equal scores sharing a rank.
    pub fn from_scores(scores: &[u32]) -> Outcome {
        assert!(
            (1..=MAX_SEATS).contains(&scores.len()),
            "1 to {MAX_SEATS} seats"
        );
        let mut ranks = [0; MAX_SEATS];
        for (i, score) in scores.iter().enumerate() {
            ranks[i] = 1 + scores.iter().filter(|s| *s > score).count() as u8;
        }
        Outcome {
            ranks,
            seats: scores.len() as u8,
        }
    }

    /// A win for `winner`, every other seat sharing the last rank (resignation, time forfeit).
    pub fn win(winner: Seat, seats: usize) -> Outcome {
        let mut scores = [0; MAX_SEATS];
        scores[winner.index()] = 1;
        Outcome::from_scores(&scores[..seats])
    }

    /// All seats level.
    pub fn draw(seats: usize) -> Outcome {
        Outcome::from_scores(&[0; MAX_SEATS][..seats])
    }

    pub fn seats(&self) -> usize {
        self.seats as usize
    }

    /// The seat's rank, 1 for the best.
    pub fn rank(&self, seat: Seat) -> u8 {
        self.ranks[seat.index()]
    }

    /// The seat that alone holds rank 1, if one does.
    pub fn winner(&self) -> Option<Seat> {
        let firsts: Vec<usize> = (0..self.seats()).filter(|&i| self.ranks[i] == 1).collect();
        match firsts[..] {
            [only] => Some(Seat(only as u8)),
            _ => None,
        }
    }

    /// `a`'s score against `b` as a rating system reads it: 1 if `a` ranks higher, ½ if level.
    pub fn pairwise(&self, a: Seat, b: Seat) -> f64 {
        match self.rank(a).cmp(&self.rank(b)) {
            std::cmp::Ordering::Less => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Greater => 0.0,
        }
    }
}
