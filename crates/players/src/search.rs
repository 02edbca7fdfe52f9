//! Minimax and alpha-beta at a fixed depth over seed 003's heuristics, on the crate's one
//! alpha-beta ([`crate::alpha_beta`]).

use ataxx::{Color, Move, MoveList, Position};
use rand::Rng;

use crate::alpha_beta::{alpha_beta, Tree};
use crate::choice::BestPicker;
use crate::heuristics::Heuristic;
use crate::moveset::MoveSet;

/// A fixed-depth search: what to search and how.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchSpec {
    pub depth: u32,
    pub heuristic: Heuristic,
    pub moves: MoveSet,
    /// Alpha-beta pruning; without it, plain minimax visits every board.
    pub pruning: bool,
}

/// The chosen move, its score and how many boards the search examined (positions made).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub score: i32,
    pub boards: u64,
}

/// Searches `pos` and picks uniformly among the root moves with the best score.
///
/// With pruning, each root move after the first is searched with a window just below the best
/// score so far, so a move that ties the best is recognised exactly and joins the draw.
pub fn search(pos: &Position, spec: SearchSpec, rng: &mut impl Rng) -> SearchResult {
    let me = pos.turn();
    let mut tree = FixedDepth {
        spec,
        me,
        boards: 0,
    };
    let mut picker = BestPicker::new();
    for mv in spec.moves.moves(pos) {
        let alpha = match picker.best_score() {
            Some(&best) if spec.pruning => best - 1,
            _ => i32::MIN + 1,
        };
        let score = tree.child_value(pos, &mv, spec.depth.saturating_sub(1), 1, alpha, i32::MAX);
        picker.offer(score, mv, rng);
    }
    match picker.into_best() {
        Some((score, mv)) => SearchResult {
            best: Some(mv),
            score,
            boards: tree.boards,
        },
        None => SearchResult {
            best: None,
            score: spec.heuristic.score(pos, me),
            boards: tree.boards,
        },
    }
}

/// Seed 003's tree: the spec's moves in generation order, its heuristic at the leaves and at
/// boards without moves (game over included), every board made counted.
struct FixedDepth {
    spec: SearchSpec,
    me: Color,
    boards: u64,
}

impl Tree<Position> for FixedDepth {
    type Child = Move;
    type Children = MoveList;

    fn leaf(&mut self, pos: &Position, depth: u32, _ply: i32) -> Option<i32> {
        self.boards += 1;
        (depth == 0).then(|| self.spec.heuristic.score(pos, self.me))
    }

    fn children(&mut self, pos: &Position, _depth: u32) -> MoveList {
        self.spec.moves.moves(pos)
    }

    fn childless(&mut self, pos: &Position, _ply: i32) -> i32 {
        self.spec.heuristic.score(pos, self.me)
    }

    fn maximising(&self, pos: &Position) -> bool {
        pos.turn() == self.me
    }

    fn prunes(&self) -> bool {
        self.spec.pruning
    }

    fn child_value(
        &mut self,
        pos: &Position,
        mv: &Move,
        depth: u32,
        ply: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut child = *pos;
        child.play_unchecked(*mv);
        alpha_beta(self, &child, depth, ply, alpha, beta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn spec(depth: u32, pruning: bool, moves: MoveSet) -> SearchSpec {
        SearchSpec {
            depth,
            heuristic: Heuristic::Difference,
            moves,
            pruning,
        }
    }

    #[test]
    fn alpha_beta_agrees_with_minimax_and_examines_fewer_boards() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let pos: Position = "x5o/7/2x4/3o3/7/7/o5x x 0 1".parse().unwrap();
        for depth in 1..=3 {
            let plain = search(&pos, spec(depth, false, MoveSet::Merged), &mut rng);
            let pruned = search(&pos, spec(depth, true, MoveSet::Merged), &mut rng);
            assert_eq!(plain.score, pruned.score, "depth {depth}");
            assert!(pruned.boards <= plain.boards);
        }
        // Minimax examines every board: the sum of perft over depths 1..=3.
        let plain = search(
            &Position::startpos(),
            spec(3, false, MoveSet::Merged),
            &mut rng,
        );
        assert_eq!(plain.boards, 16 + 256 + 6460);
    }

    #[test]
    fn takes_a_winning_capture() {
        // x to move can take the last o piece: d4 flips e5.
        let pos: Position = "7/7/4o2/7/2x4/7/7 x 0 1".parse().unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let result = search(&pos, spec(2, true, MoveSet::Reduced), &mut rng);
        let after = {
            let mut p = pos;
            p.play(result.best.unwrap()).unwrap();
            p
        };
        assert!(
            after.pieces(Color::O).is_empty(),
            "played {:?}",
            result.best
        );
        assert_eq!(result.score, crate::heuristics::WIN);
    }
}
