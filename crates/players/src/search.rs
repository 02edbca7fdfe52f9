//! Minimax and alpha-beta at a fixed depth over seed 003's heuristics.

use ataxx::{Color, Move, Position};
use rand::Rng;

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
    let mut boards = 0;
    let mut picker = BestPicker::new();
    for mv in spec.moves.moves(pos) {
        let mut child = *pos;
        child.play_unchecked(mv);
        boards += 1;
        let alpha = match picker.best_score() {
            Some(&best) if spec.pruning => best - 1,
            _ => i32::MIN + 1,
        };
        let score = value(
            &child,
            spec,
            me,
            spec.depth.saturating_sub(1),
            alpha,
            i32::MAX,
            &mut boards,
        );
        picker.offer(score, mv, rng);
    }
    match picker.into_best() {
        Some((score, mv)) => SearchResult {
            best: Some(mv),
            score,
            boards,
        },
        None => SearchResult {
            best: None,
            score: spec.heuristic.score(pos, me),
            boards,
        },
    }
}

/// Minimax value of `pos` for `me` with `depth` plies to go; `alpha`/`beta` bound it when
/// pruning (fail-hard: the result is clamped to the window).
fn value(
    pos: &Position,
    spec: SearchSpec,
    me: Color,
    depth: u32,
    mut alpha: i32,
    mut beta: i32,
    boards: &mut u64,
) -> i32 {
    let moves = if depth == 0 {
        Default::default()
    } else {
        spec.moves.moves(pos)
    };
    if moves.is_empty() {
        return spec.heuristic.score(pos, me);
    }
    let maximising = pos.turn() == me;
    let mut best = if maximising { i32::MIN } else { i32::MAX };
    for mv in moves {
        let mut child = *pos;
        child.play_unchecked(mv);
        *boards += 1;
        let v = value(&child, spec, me, depth - 1, alpha, beta, boards);
        if maximising {
            best = best.max(v);
            alpha = alpha.max(v);
        } else {
            best = best.min(v);
            beta = beta.min(v);
        }
        if spec.pruning && alpha >= beta {
            break;
        }
    }
    best
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
