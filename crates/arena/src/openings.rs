//! Random openings: a few random plies from a start position, kept when a shallow search finds
//! them near balance.
//!
//! The search is the players crate's alpha-beta over the piece difference: enough to throw out
//! openings that lose material by force within a few plies.

use std::collections::HashSet;

use ataxx::Position;
use ataxx_players::{search, Heuristic, MoveSet, SearchSpec};
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
    /// Plies of the search that judges balance.
    pub depth: u32,
    /// Keep an opening when the search's score is at most this many pieces either way.
    pub max_imbalance: i32,
    pub seed: u64,
}

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
        if balance(&pos, settings.depth, &mut rng).abs() <= 100 * settings.max_imbalance {
            openings.push(pos);
        }
    }
    openings
}

/// The piece difference the side to move can secure within `depth` plies, in hundredths of a
/// piece (a won game scores [`ataxx_players::WIN`]).
pub fn balance(pos: &Position, depth: u32, rng: &mut impl Rng) -> i32 {
    let spec = SearchSpec {
        depth,
        heuristic: Heuristic::Difference,
        moves: MoveSet::Merged,
        pruning: true,
    };
    search(pos, spec, rng).score
}

#[cfg(test)]
mod tests {
    use super::*;
    use ataxx::Color;

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
            let score = balance(pos, 2, &mut StdRng::seed_from_u64(0));
            assert!(score.abs() <= 100, "{pos}: {score}");
            assert_eq!(pos.turn(), Color::X, "4 plies from x to move: {pos}");
        }
    }
}
