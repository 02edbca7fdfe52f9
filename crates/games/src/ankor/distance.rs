//! Measures of a position for computer players: how far each colour is from a winning path,
//! and how many of its cubes may move.

use super::position::{Colour, Position};
use super::pyramid::{bits, Cells};

/// A cost too high to matter: a cell the colour cannot use.
const BLOCKED: u32 = u32::MAX / 4;

impl Position {
    /// An estimate of the cubes `colour` still has to add to hold a winning path: the cheapest
    /// tree joining the three sides through one meeting cell (the Y-distance of connection
    /// games), where an own cube costs 0, an empty cell 1 plus one per empty cell it would rest
    /// on, and an opponent's cube blocks. 0 once `colour` has a winning path; `None` when the
    /// opponent's cubes cut every tree. It ignores that cubes move: a guide for a search, not a rule.
    pub fn connection_distance(&self, colour: Colour) -> Option<u32> {
        let pyr = self.pyr;
        let mine = self.cubes[colour.index()];
        let theirs = self.cubes[colour.opponent().index()];
        let occ = mine | theirs;
        let cost: Vec<u32> = (0..pyr.len)
            .map(|i| {
                if mine >> i & 1 == 1 {
                    0
                } else if theirs >> i & 1 == 1 {
                    BLOCKED
                } else {
                    1 + (pyr.supports[i] & !occ).count_ones()
                }
            })
            .collect();
        let targets = self.side_targets();
        let from_side = |side: Cells| -> Vec<u32> {
            let mut dist = vec![BLOCKED; pyr.len];
            let mut queue: Vec<usize> = Vec::new();
            for i in bits(side) {
                if cost[i] < BLOCKED {
                    dist[i] = cost[i];
                    queue.push(i);
                }
            }
            // Relaxation to a fixed point: at most 120 cells with 6 neighbours each.
            while let Some(i) = queue.pop() {
                for j in bits(pyr.connected[i]) {
                    let through = dist[i] + cost[j];
                    if cost[j] < BLOCKED && through < dist[j] {
                        dist[j] = through;
                        queue.push(j);
                    }
                }
            }
            dist
        };
        let [a, b, c] = targets.map(from_side);
        (0..pyr.len)
            .filter(|&i| a[i] < BLOCKED && b[i] < BLOCKED && c[i] < BLOCKED)
            .map(|i| a[i] + b[i] + c[i] - 2 * cost[i])
            .min()
    }

    /// How many of `colour`'s cubes may move (at least two exposed faces).
    pub fn movable_cubes(&self, colour: Colour) -> u32 {
        bits(self.cubes[colour.index()])
            .filter(|&i| self.movable(i))
            .count() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays `plies` pseudo-random moves (a fixed linear congruential sequence) from the empty
    /// board of size `n`, handing every position on the way to `check`.
    fn random_game(n: u8, seed: u64, plies: usize, mut check: impl FnMut(&Position)) {
        let mut pos = Position::new(n, 1).unwrap();
        let mut state = seed;
        for _ in 0..plies {
            check(&pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            pos.play(moves[(state >> 33) as usize % moves.len()]);
        }
    }

    #[test]
    fn distance_is_zero_exactly_when_a_path_has_won() {
        let mut zeros = 0;
        for seed in 0..200 {
            random_game(3 + (seed % 4) as u8, seed, 200, |pos| {
                for colour in Colour::ALL {
                    let won = pos.has_winning_path(colour);
                    assert_eq!(pos.connection_distance(colour) == Some(0), won, "{pos}");
                    zeros += u32::from(won);
                }
            });
        }
        assert!(zeros > 0, "some random game reached a winning path");
    }

    #[test]
    fn placing_an_own_cube_never_lengthens_the_distance() {
        for seed in 0..100 {
            random_game(6, seed, 60, |pos| {
                let me = pos.side_to_move();
                let before = pos.connection_distance(me).unwrap_or(BLOCKED);
                for mv in pos.legal_moves() {
                    if let super::super::Move::Place(_) = mv {
                        let mut after = pos.clone();
                        after.play(mv);
                        assert!(after.connection_distance(me).unwrap_or(BLOCKED) <= before);
                    }
                }
            });
        }
    }

    #[test]
    fn empty_board_distances_are_equal_and_movable_cubes_count_free_ones() {
        let pos = Position::new(6, 1).unwrap();
        let o = pos.connection_distance(Colour::O);
        assert!(o.is_some_and(|d| d > 0));
        assert_eq!(o, pos.connection_distance(Colour::X));
        let mut pos = pos;
        pos.play("d3".parse().unwrap());
        assert_eq!(pos.movable_cubes(Colour::O), 1);
        assert_eq!(pos.movable_cubes(Colour::X), 0);
        assert!(pos.connection_distance(Colour::O) < o);
    }
}
