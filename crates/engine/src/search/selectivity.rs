//! The selective search: what settles a node before its moves (the table's cut-off, reverse
//! futility pruning), how much shallower a node without a table move is searched (internal
//! iterative reduction), which moves are skipped (quiet jumps, late-move and futility pruning),
//! shortened (late-move reductions) or lengthened (singular extension).
//!
//! Everything here runs at every node: the helpers are `#[inline]` and take the node's state
//! by reference, so that they cost what the same lines cost inside `negamax`.

use std::ops::ControlFlow;

use ataxx::{Bitboard, Move, Position};

use super::{fits_clock, Node, Searcher};
use crate::eval::Evaluator;
use crate::ordering::Picked;
use crate::score::{from_table, is_decisive, WIN_BOUND};
use crate::tt::Bound;

// Pruning parameters (scores in hundredths of a piece).
const RFP_DEPTH: i32 = 6;
const RFP_MARGIN: i32 = 60;
const FUTILITY_DEPTH: i32 = 6;
const FUTILITY_MARGIN: i32 = 60;
const LMP_DEPTH: i32 = 6;
const LMR_MIN_DEPTH: i32 = 3;
const LMR_MIN_MOVES: usize = 3;
const IIR_DEPTH: i32 = 6;
const SINGULAR_DEPTH: i32 = 6;
/// How far below the table's depth an entry may be and still be tested for singularity.
const SINGULAR_ENTRY_DEPTH: i32 = 3;
/// The singular search's bound lies this many hundredths of a piece per ply below the entry.
const SINGULAR_MARGIN: i32 = 2;
const SINGULAR_EXTENSION: i32 = 1;

/// Moves searched at a node (any but the root) before jumps that capture nothing are skipped.
const QUIET_JUMP_MOVES: usize = 2;

/// Whether a node searched to `depth` prunes by its static evaluation (only non-PV nodes do):
/// if not, it need not evaluate itself.
#[inline]
pub(super) fn uses_static_eval(pv_node: bool, depth: i32) -> bool {
    !pv_node && depth <= RFP_DEPTH.max(FUTILITY_DEPTH)
}

/// Whether `mv` is a jump that captures nothing.
#[inline]
fn is_quiet_jump(pos: &Position, mv: Move) -> bool {
    match mv {
        Move::Jump { to, .. } => (Bitboard::neighbours_of(to) & pos.pieces(!pos.turn())).is_empty(),
        _ => false,
    }
}

/// Moves searched at a non-PV node of depth `depth` before the rest are skipped.
fn late_move_count(depth: i32) -> usize {
    (2 + depth * depth) as usize
}

/// What the move loop does with a move before playing it.
pub(super) enum MovePruning {
    Search,
    Skip,
    /// This move and every one after it: they come by falling gain.
    SkipRest,
}

impl Node<'_> {
    /// The score that settles this node before its moves are searched, if any: the table's,
    /// when its entry is deep enough and its bound decides the window, or the static
    /// evaluation, when it stands far enough above beta (reverse futility pruning).
    #[inline]
    pub(super) fn cut_before_moves(&self, alpha: i32, beta: i32) -> Option<i32> {
        let Node {
            pos,
            depth,
            ply,
            pv_node,
            excluded,
            static_eval,
            entry,
            ..
        } = *self;
        if let Some(e) = entry.filter(|e| {
            !pv_node && excluded.is_none() && e.depth >= depth && fits_clock(pos, e.depth)
        }) {
            let s = from_table(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                return Some(s);
            }
        }
        let reverse_futile = !pv_node
            && !self.must_pass
            && excluded.is_none()
            && depth <= RFP_DEPTH
            && !is_decisive(beta)
            && static_eval - RFP_MARGIN * depth >= beta;
        reverse_futile.then_some(static_eval)
    }

    /// The depth this node's moves are searched to. Internal iterative reduction: with no move
    /// from the table this node's ordering is a guess, so search it shallower, by two plies to
    /// keep the score's parity; the next iteration finds the move this search stores.
    #[inline]
    pub(super) fn searched_depth(&self) -> i32 {
        if self.tt_move().is_none()
            && !self.must_pass
            && self.excluded.is_none()
            && self.depth >= IIR_DEPTH
        {
            self.depth - 2
        } else {
            self.depth
        }
    }

    /// Whether the `index`-th move searched here (from 0), `picked`, is worth searching, when
    /// the best score so far is `best_score` and the window's bottom `alpha`.
    #[inline]
    pub(super) fn move_pruning(
        &self,
        index: usize,
        picked: Picked,
        best_score: i32,
        alpha: i32,
    ) -> MovePruning {
        let Node {
            pos,
            depth,
            ply,
            pv_node,
            static_eval,
            ..
        } = *self;
        // Static margins say nothing once the window is about forced game ends.
        let margins_hold = best_score > -WIN_BOUND && !is_decisive(alpha);
        // A jump that captures nothing only moves a piece (and leaves a hole): after the
        // first two moves such jumps are skipped at every node but the root.
        if ply > 0 && index >= QUIET_JUMP_MOVES && margins_hold && is_quiet_jump(pos, picked.mv) {
            return MovePruning::Skip;
        }
        if !pv_node && index > 0 && margins_hold {
            // Moves come by falling gain: past the count, the rest rarely matter.
            if depth <= LMP_DEPTH && index >= late_move_count(depth) {
                return MovePruning::SkipRest;
            }
            if depth <= FUTILITY_DEPTH
                && static_eval + FUTILITY_MARGIN * depth + 50 * picked.gain <= alpha
            {
                return MovePruning::Skip;
            }
        }
        MovePruning::Search
    }
}

impl<E: Evaluator> Searcher<'_, E> {
    /// Singular extension: when every other move stays well below the table's score for the
    /// table's move, that move is searched a ply deeper; when another move also reaches this
    /// node's beta, the node is cut (multicut). `Continue` holds the extension of `mv`, the
    /// `index`-th move searched here, and `Break` the node's score (0 when the search aborted).
    #[inline]
    pub(super) fn singular_extension(
        &mut self,
        node: &Node,
        index: usize,
        mv: Move,
        beta: i32,
    ) -> ControlFlow<i32, i32> {
        let Node {
            pos,
            key,
            depth,
            ply,
            pv_node,
            excluded,
            entry,
            ..
        } = *node;
        let Some(e) = entry.filter(|e| {
            index == 0
                && Some(mv) == node.tt_move()
                && excluded.is_none()
                && !pv_node
                && ply > 0
                && depth >= SINGULAR_DEPTH
                && e.depth >= depth - SINGULAR_ENTRY_DEPTH
                && e.bound != Bound::Upper
                && !is_decisive(from_table(e.score, ply))
        }) else {
            return ControlFlow::Continue(0);
        };
        let singular_beta = from_table(e.score, ply) - SINGULAR_MARGIN * depth;
        // About half the depth, of the same parity.
        let singular_depth = depth - 2 * ((depth + 3) / 4);
        self.excluded[ply] = Some(mv);
        let score = self.negamax(
            pos,
            key,
            singular_depth,
            ply,
            singular_beta - 1,
            singular_beta,
        );
        self.excluded[ply] = None;
        self.pv_len[ply] = 0;
        if self.aborted {
            ControlFlow::Break(0)
        } else if score < singular_beta {
            ControlFlow::Continue(SINGULAR_EXTENSION)
        } else if singular_beta >= beta {
            ControlFlow::Break(singular_beta)
        } else {
            ControlFlow::Continue(0)
        }
    }
}

/// Late-move reductions by depth and move number: they grow with the log of both.
pub(super) struct Reductions([[u8; 64]; 64]);

impl Reductions {
    pub(super) fn new() -> Reductions {
        let mut table = [[0u8; 64]; 64];
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (moves, r) in row.iter_mut().enumerate().skip(1) {
                let raw = (0.5 + (depth as f64).ln() * (moves as f64).ln() / 2.5) as u8;
                // Even reductions only: the evaluation swings with the side to move, so a
                // search one ply shorter returns a score of the other parity.
                *r = (raw + 1) & !1;
            }
        }
        Reductions(table)
    }

    fn get(&self, depth: i32, move_number: usize) -> i32 {
        i32::from(self.0[(depth as usize).min(63)][move_number.min(63)])
    }

    /// The reduction of the `index`-th move (from 0) at a node of `depth`: even, and no deeper
    /// than the child's depth.
    pub(super) fn of(&self, depth: i32, index: usize, pv_node: bool) -> i32 {
        if depth < LMR_MIN_DEPTH || index < LMR_MIN_MOVES {
            return 0;
        }
        let new_depth = depth - 1;
        // The cap is even too: the old cap of `new_depth - 1` handed back odd reductions at low
        // depth. A reduced search may end at depth 0 (the static evaluation, of the same
        // parity as `new_depth` when that is even).
        let cap = new_depth.max(0) & !1;
        (self.get(depth, index) - 2 * i32::from(pv_node)).clamp(0, cap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_are_even_and_never_below_depth_zero() {
        let reductions = Reductions::new();
        for depth in 1..40 {
            for index in 0..100 {
                for pv_node in [false, true] {
                    let r = reductions.of(depth, index, pv_node);
                    assert_eq!(r % 2, 0, "depth {depth}, move {index}, pv {pv_node}: {r}");
                    assert!(r >= 0 && depth - 1 - r >= 0, "depth {depth}: {r}");
                }
            }
        }
        // Deep enough, late moves are reduced.
        assert!(reductions.of(12, 30, false) >= 2);
    }

    #[test]
    fn quiet_jumps_are_the_jumps_that_capture_nothing() {
        // x on c3, b2, a1; o on c5, d5, e5.
        let pos: Position = "7/7/2ooo2/7/2x4/1x5/x6 x 0 1".parse().unwrap();
        let quiet = |text: &str| is_quiet_jump(&pos, text.parse().unwrap());
        assert!(quiet("a1a3") && quiet("c3e1"));
        // c3-e4 lands beside d5 and e5; d4 is a single.
        assert!(!quiet("c3e4") && !quiet("d4") && !quiet("b1"));
    }
}
