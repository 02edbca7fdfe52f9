//! Ankor's computer players: a connection-aware evaluation and the named levels.
//!
//! Ankor is won by a path, not by material, so the piece counts the Ataxx levels look at say
//! nothing here. The evaluation reads the board the way Hex and Y players do: how many cubes
//! each player still lacks for a tree joining the three sides
//! ([`games::ankor::Position::connection_distance`]), with small terms for cubes free to move
//! and cubes still in reserve, and a tempo bonus for the side to move.

use games::ankor::{Colour, Position};
use games::Seat;

use super::eval::Evaluate;

/// What one cube of connection distance is worth.
const PER_CUBE: i32 = 100;
/// The distance charged to a player whose every tree is cut: worse than any real distance.
const CUT_OFF: i32 = 40;
/// Per movable cube: a cube that may move can still bridge a gap later.
const PER_MOVABLE: i32 = 6;
/// Per cube in reserve: placements are the flexible moves.
const PER_RESERVE: i32 = 3;
/// For the side to move: it is one cube nearer than the distance says.
const TEMPO: i32 = 40;

impl Evaluate for Position {
    fn heuristic(&self, seat: Seat) -> i32 {
        let me = Colour::ALL[seat.index()];
        let them = me.opponent();
        let distance = |c: Colour| self.connection_distance(c).map_or(CUT_OFF, |d| d as i32);
        let movable = |c: Colour| self.movable_cubes(c) as i32;
        let reserve = |c: Colour| i32::from(self.reserves(c));
        let tempo = if self.side_to_move() == me {
            TEMPO
        } else {
            -TEMPO
        };
        PER_CUBE * (distance(them) - distance(me))
            + PER_MOVABLE * (movable(me) - movable(them))
            + PER_RESERVE * (reserve(me) - reserve(them))
            + tempo
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use games::Rules;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::generic::any::choose_generic;
    use crate::generic::levels::{GenericStrength, ANKOR_LEVELS};

    const O: Seat = Seat(0);

    /// The board with the colours of cubes and reserves exchanged, the same side to move.
    fn mirror(pos: &Position) -> Position {
        let text = pos.to_string();
        let f: Vec<&str> = text.split(' ').collect();
        let cells: String = f[3]
            .chars()
            .map(|c| match c {
                'o' => 'x',
                'x' => 'o',
                c => c,
            })
            .collect();
        let swapped = [f[0], f[1], f[2], &cells, f[4], f[6], f[5], f[7]].join(" ");
        swapped.parse().unwrap()
    }

    /// Whether the side to move has a move that wins at once, tried move by move.
    fn wins_in_one(pos: &Position) -> bool {
        Rules::legal_moves(pos).into_iter().any(|mv| {
            let mut child = pos.clone();
            Rules::play(&mut child, mv);
            child.winner() == Some(pos.side_to_move())
        })
    }

    /// Positions of random games (size 4, past the swap), O to move, none of them over.
    fn random_positions(seed: u64, count: usize) -> Vec<Position> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let mut pos = Position::new(4, 1).unwrap();
            for _ in 0..rng.random_range(4..40) {
                let moves = Rules::legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                Rules::play(&mut pos, moves[rng.random_range(0..moves.len())]);
            }
            if pos.outcome().is_none() && pos.side_to_move() == Colour::O {
                out.push(pos);
            }
        }
        out
    }

    #[test]
    fn one_move_from_a_win_scores_above_its_mirror() {
        let mut checked = 0;
        for pos in random_positions(12, 4000) {
            let mirrored = mirror(&pos);
            if wins_in_one(&pos) && mirrored.outcome().is_none() && !wins_in_one(&mirrored) {
                assert!(pos.heuristic(O) > mirrored.heuristic(O), "{pos}");
                checked += 1;
            }
        }
        assert!(checked >= 5, "only {checked} positions one move from a win");
    }

    #[test]
    fn the_evaluation_is_zero_sum_and_symmetric() {
        for pos in random_positions(5, 100) {
            let x = Seat(1);
            assert_eq!(pos.heuristic(O), -pos.heuristic(x), "{pos}");
            // Exchanging the colours exchanges the scores, but for the tempo of the mover.
            assert_eq!(mirror(&pos).heuristic(x) - pos.heuristic(O), -2 * TEMPO);
        }
    }

    #[test]
    fn every_level_takes_a_win_in_one_when_it_has_one() {
        let pos = random_positions(12, 400)
            .into_iter()
            .find(wins_in_one)
            .expect("a position with a win in one");
        for level in ["easy", "medium", "hard"] {
            let mv = choose_generic(level, &pos, 3).unwrap();
            let mut child = pos.clone();
            let mv = child.parse_move(&mv).unwrap();
            Rules::play(&mut child, mv);
            assert_eq!(
                child.winner(),
                Some(Colour::O),
                "{level} played {mv} in {pos}"
            );
        }
    }

    #[test]
    fn hard_answers_within_its_time_on_a_crowded_board() {
        let GenericStrength::Search { millis, .. } = ANKOR_LEVELS[3].strength else {
            panic!("hard searches");
        };
        // A size-8 board (120 cells) after 70 random plies: many cubes, many moves each.
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let mut pos = Position::new(8, 1).unwrap();
        while pos.ply() < 70 || pos.outcome().is_some() {
            if pos.outcome().is_some() {
                pos = Position::new(8, 1).unwrap();
            }
            let moves = Rules::legal_moves(&pos);
            Rules::play(&mut pos, moves[rng.random_range(0..moves.len())]);
        }
        assert!(Rules::legal_moves(&pos).len() > 40, "{pos}");
        let started = Instant::now();
        choose_generic("hard", &pos, 1).unwrap();
        // Generous: the limit plus room for a loaded machine; a search that ignored its clock
        // would take minutes here.
        assert!(started.elapsed() < Duration::from_millis(millis) + Duration::from_secs(5));
    }
}
