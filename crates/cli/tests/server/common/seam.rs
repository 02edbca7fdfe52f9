//! What the server tests of every game share: the test's own copy of a game through the
//! `games` seam, its seeded choice of moves, and the ratings it expects (computed with
//! skillratings, independently of the server).

use games::{AnyPosition, GameKind, Outcome, Seat};
use skillratings::glicko2::{glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

pub fn kind(name: &str) -> GameKind {
    name.parse()
        .unwrap_or_else(|_| panic!("this build has no game {name}"))
}

/// The test's move choice: a seeded pick among the legal moves.
pub fn pick(moves: &[String], seed: u64, ply: usize) -> String {
    let mut x = seed ^ (ply as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^= x >> 31;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 29;
    moves[(x % moves.len() as u64) as usize].clone()
}

/// Plays a chosen move on the test's copy and the automatic passes after it; returns the
/// texts of the plies in order (passes as `0000`).
pub fn play_and_pass(pos: &mut Box<dyn AnyPosition>, mv: &str) -> Vec<String> {
    let mut plies = vec![pos.play(mv).unwrap().text];
    while pos.outcome().is_none() && pos.legal_moves() == ["0000"] {
        plies.push(pos.play("0000").unwrap().text);
    }
    plies
}

/// Each seat's rating after `outcome` from initial ratings: one rating period of pairwise
/// games (variants.md 2.6).
pub fn expected_ratings(outcome: &Outcome) -> Vec<f64> {
    let seats = outcome.seats();
    (0..seats)
        .map(|me| {
            let results: Vec<(Glicko2Rating, Outcomes)> = (0..seats)
                .filter(|&other| other != me)
                .map(|other| {
                    let result = match outcome.pairwise(Seat(me as u8), Seat(other as u8)) {
                        s if s > 0.75 => Outcomes::WIN,
                        s if s < 0.25 => Outcomes::LOSS,
                        _ => Outcomes::DRAW,
                    };
                    (Glicko2Rating::new(), result)
                })
                .collect();
            glicko2_rating_period(&Glicko2Rating::new(), &results, &Glicko2Config::new()).rating
        })
        .collect()
}
