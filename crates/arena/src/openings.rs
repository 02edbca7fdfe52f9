//! Random openings: a few random plies from a start position, kept when a shallow search finds
//! them near balance.
//!
//! The search is a plain material minimax (pieces of the side to move minus the opponent's):
//! enough to throw out openings that lose material by force within `depth` plies.

use std::collections::HashSet;

use ataxx::{Outcome, Position};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningSettings {
    /// Positions to start from (the standard start, blocked layouts…), picked at random.
    pub starts: Vec<Position>,
    /// Random plies played from the start.
    pub plies: u32,
    /// How many openings to keep.
    pub count: usize,
    /// Plies of the material search that judges balance.
    pub depth: u32,
    /// Keep an opening when the search's material score is at most this, in pieces.
    pub max_imbalance: i32,
    pub seed: u64,
}

/// Score of a finished game, beyond any material difference.
const WIN: i32 = 1000;

/// Distinct, unfinished, near-balanced openings; fewer than asked for if a thousand tries per
/// opening do not find enough.
pub fn generate(settings: &OpeningSettings) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(settings.seed);
    let mut seen = HashSet::new();
    let mut openings = Vec::new();
    let tries = settings.count.saturating_mul(1000);
    for _ in 0..tries {
        if openings.len() >= settings.count {
            break;
        }
        let Some(start) = settings.starts.choose(&mut rng) else {
            break;
        };
        let mut pos = *start;
        for _ in 0..settings.plies {
            let moves = pos.legal_moves();
            let Some(&mv) = moves.get(rng.random_range(0..moves.len().max(1))) else {
                break;
            };
            pos.play_unchecked(mv);
        }
        if pos.is_game_over() || !seen.insert(pos) {
            continue;
        }
        if material_search(&pos, settings.depth).abs() <= settings.max_imbalance {
            openings.push(pos);
        }
    }
    openings
}

/// Negamax over piece difference, from the side to move's view.
pub fn material_search(pos: &Position, depth: u32) -> i32 {
    if let Some(outcome) = pos.outcome() {
        return match outcome {
            Outcome::Draw => 0,
            Outcome::Win(c) if c == pos.turn() => WIN,
            Outcome::Win(_) => -WIN,
        };
    }
    if depth == 0 {
        let us = pos.pieces(pos.turn()).count() as i32;
        let them = pos.pieces(!pos.turn()).count() as i32;
        return us - them;
    }
    pos.legal_moves()
        .iter()
        .map(|&mv| {
            let mut next = *pos;
            next.play_unchecked(mv);
            -material_search(&next, depth - 1)
        })
        .max()
        .expect("an unfinished game has a move")
}

#[cfg(test)]
mod tests {
    use super::*;
    use ataxx::Color;

    #[test]
    fn material_search_sees_captures() {
        let pos: Position = "7/7/7/7/7/1x5/o6 x 0 1".parse().unwrap();
        assert_eq!(material_search(&pos, 0), 0);
        // Any single next to a1 flips it and wins the game outright (o has no pieces left).
        assert_eq!(material_search(&pos, 1), WIN);
        assert_eq!(material_search(&Position::startpos(), 2), 0);
    }

    #[test]
    fn generated_openings_are_distinct_balanced_and_seeded() {
        let settings = OpeningSettings {
            starts: vec![Position::startpos()],
            plies: 4,
            count: 20,
            depth: 2,
            max_imbalance: 1,
            seed: 3,
        };
        let book = generate(&settings);
        assert_eq!(book.len(), 20);
        assert_eq!(book, generate(&settings));
        let distinct: HashSet<_> = book.iter().collect();
        assert_eq!(distinct.len(), 20);
        for pos in &book {
            assert!(!pos.is_game_over());
            assert!(material_search(pos, 2).abs() <= 1, "{pos}");
            assert_eq!(pos.turn(), Color::X, "4 plies from x to move: {pos}");
        }
    }
}
