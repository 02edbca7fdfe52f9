//! The seats of the games played by the square game's two sides, x and o (square Ataxx,
//! Hexxagon): x is seat 0, o seat 1.

use ataxx::Color;

use crate::{Outcome, Seat};

/// The side that plays `seat`.
pub(crate) fn color(seat: Seat) -> Color {
    Color::ALL[seat.index()]
}

/// The seat `color` plays.
pub(crate) fn seat(color: Color) -> Seat {
    match color {
        Color::X => Seat(0),
        Color::O => Seat(1),
    }
}

/// A two-sided result as the seam's ranking.
pub(crate) fn outcome(outcome: Option<ataxx::Outcome>) -> Option<Outcome> {
    outcome.map(|outcome| match outcome.winner() {
        Some(winner) => Outcome::win(seat(winner), 2),
        None => Outcome::draw(2),
    })
}
