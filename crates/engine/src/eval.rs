//! Static evaluation behind the [`Evaluator`] trait, and the hand-crafted linear evaluation.
//!
//! The hand-crafted evaluation is a weighted sum of integer [`Features`] counted from the side to
//! move's view (ours minus theirs), so the Texel tuner can fit its [`Weights`] by logistic
//! regression on the same features the search uses.

use ataxx::{Bitboard, Position, MAX_SIZE};

use crate::nnue::Network;
use crate::score::MAX_EVAL;

/// Anything that scores a position that is not over, in hundredths of a piece, for the side to
/// move. Results must lie within ±[`MAX_EVAL`].
pub trait Evaluator: Send + Sync {
    fn evaluate(&self, pos: &Position) -> i32;

    /// The network this evaluation runs on 7×7 boards, if any: the search then keeps its
    /// accumulators along the line and scores with them instead of calling [`Self::evaluate`].
    fn network(&self) -> Option<&Network> {
        None
    }

    /// `option name …` lines of the evaluation's UAI options.
    fn option_lines(&self) -> Vec<String> {
        Vec::new()
    }

    /// Applies a `setoption` (name lower-cased) if it is one of the evaluation's options.
    fn set_option(&mut self, _name: &str, _value: &str) -> Option<Result<(), String>> {
        None
    }
}

/// Square classes by symmetry: distances to the nearest file edge and rank edge, sorted and
/// capped at 3, give 10 classes from the corner `(0,0)` to the centre `(3,3)`.
pub const SQUARE_CLASSES: usize = 10;

/// Number of evaluation features.
pub const FEATURES: usize = SQUARE_CLASSES + 4;

/// Feature indices after the square classes.
pub const FRONTIER: usize = SQUARE_CLASSES;
pub const STABLE: usize = SQUARE_CLASSES + 1;
pub const HOLES: usize = SQUARE_CLASSES + 2;
pub const TEMPO: usize = SQUARE_CLASSES + 3;

/// What each feature counts, for people and for the tuner's output.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "pieces on class (0,0) corner",
    "pieces on class (0,1)",
    "pieces on class (0,2)",
    "pieces on class (0,3)",
    "pieces on class (1,1)",
    "pieces on class (1,2)",
    "pieces on class (1,3)",
    "pieces on class (2,2)",
    "pieces on class (2,3)",
    "pieces on class (3,3) centre",
    "frontier: empty cells next to own pieces",
    "stable pieces: no empty neighbour",
    "holes: empty cells next to own pieces that the opponent reaches",
    "tempo: side to move, unless it must pass",
];

const fn class_index(lo: u8, hi: u8) -> usize {
    let lo = lo as usize;
    lo * 4 - lo * lo.saturating_sub(1) / 2 + (hi as usize - lo)
}

/// Per board size, the cells of each square class.
const fn class_masks() -> [[u64; SQUARE_CLASSES]; MAX_SIZE as usize + 1] {
    let mut out = [[0u64; SQUARE_CLASSES]; MAX_SIZE as usize + 1];
    let mut n = 3;
    while n <= MAX_SIZE {
        let mut rank = 0;
        while rank < n {
            let mut file = 0;
            while file < n {
                let a = min3(file, n - 1 - file);
                let b = min3(rank, n - 1 - rank);
                let (lo, hi) = if a < b { (a, b) } else { (b, a) };
                out[n as usize][class_index(lo, hi)] |= 1u64 << (8 * rank + file);
                file += 1;
            }
            rank += 1;
        }
        n += 1;
    }
    out
}

const fn min3(a: u8, b: u8) -> u8 {
    let m = if a < b { a } else { b };
    if m > 3 {
        3
    } else {
        m
    }
}

static CLASS_MASKS: [[u64; SQUARE_CLASSES]; MAX_SIZE as usize + 1] = class_masks();

/// Feature counts of a position, ours minus theirs (the tempo feature is 1, or 0 when the side
/// to move must pass).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Features(pub [i32; FEATURES]);

impl Features {
    pub fn of(pos: &Position) -> Features {
        let us = pos.pieces(pos.turn());
        let them = pos.pieces(!pos.turn());
        let empty = pos.empty();
        let mut f = [0; FEATURES];
        for (class, &mask) in CLASS_MASKS[pos.size() as usize].iter().enumerate() {
            f[class] = diff(us & Bitboard(mask), them & Bitboard(mask));
        }
        let our_frontier = us.neighbours() & empty;
        let their_frontier = them.neighbours() & empty;
        f[FRONTIER] = diff(our_frontier, their_frontier);
        // A piece with no empty neighbour can never be flipped.
        let unstable = empty.neighbours();
        f[STABLE] = diff(us & !unstable, them & !unstable);
        let our_reach = us.within_two();
        f[HOLES] = diff(our_frontier & them.within_two(), their_frontier & our_reach);
        // The side to move owns the tempo only if it has a move other than a pass.
        f[TEMPO] = i32::from(!(our_reach & empty).is_empty());
        Features(f)
    }
}

#[inline(always)]
fn diff(ours: Bitboard, theirs: Bitboard) -> i32 {
    ours.count() as i32 - theirs.count() as i32
}

/// One weight per feature, in hundredths of a piece per unit of the feature.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Weights(pub [i32; FEATURES]);

impl Default for Weights {
    /// Texel-tuned (`ataxx tune`) on 55,885 positions of 692 engine games at 1+0.01, then
    /// scaled so that the average piece on a 7×7 board is worth 100. Edge pieces are worth
    /// more than central ones, stable pieces almost double, and the side to move (who can
    /// capture first) over three pieces.
    fn default() -> Self {
        Weights([
            153, 132, 143, 97, 98, 71, 47, 88, 41, 31,  // square classes
            7,   // frontier
            105, // stable
            -13, // holes
            342, // tempo
        ])
    }
}

impl Weights {
    /// The weighted sum of `features`.
    #[inline]
    pub fn apply(&self, features: &Features) -> i32 {
        self.0.iter().zip(features.0).map(|(w, f)| w * f).sum()
    }
}

/// The hand-crafted evaluation: [`Weights`] applied to [`Features`].
///
/// ```
/// use ataxx::Position;
/// use engine::eval::{Evaluator, HandCrafted, TEMPO};
/// let eval = HandCrafted::default();
/// // Symmetric start: only the side-to-move bonus remains.
/// assert_eq!(eval.evaluate(&Position::startpos()), eval.weights.0[TEMPO]);
/// // The same position scores higher for the side that is a piece up.
/// let x_up: Position = "x5o/7/7/7/7/6x/o5x x 0 1".parse().unwrap();
/// let o_down: Position = "x5o/7/7/7/7/6x/o5x o 0 1".parse().unwrap();
/// assert!(eval.evaluate(&x_up) - eval.evaluate(&o_down) > 100);
/// ```
#[derive(Copy, Clone, Debug, Default)]
pub struct HandCrafted {
    pub weights: Weights,
}

impl Evaluator for HandCrafted {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        self.weights
            .apply(&Features::of(pos))
            .clamp(-MAX_EVAL, MAX_EVAL)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_classes_partition_each_board_and_follow_its_symmetry() {
        for n in 3..=MAX_SIZE {
            let masks = CLASS_MASKS[n as usize];
            let union = masks.iter().fold(0, |acc, m| {
                assert_eq!(acc & m, 0, "classes overlap on {n}x{n}");
                acc | m
            });
            assert_eq!(union, Bitboard::board(n).0);
        }
        // On 7x7: four corners, eight (0,1) cells, one centre.
        let seven = CLASS_MASKS[7];
        assert_eq!(seven[0].count_ones(), 4);
        assert_eq!(seven[class_index(0, 1)].count_ones(), 8);
        assert_eq!(seven[class_index(3, 3)].count_ones(), 1);
        assert_eq!(seven[class_index(3, 3)], 1 << (8 * 3 + 3));
    }

    #[test]
    fn features_are_antisymmetric_between_the_two_sides() {
        let pos: Position = "xx3oo/x1o4/7/3-3/7/2x4/o5x x 4 9".parse().unwrap();
        let flipped: Position = "xx3oo/x1o4/7/3-3/7/2x4/o5x o 4 9".parse().unwrap();
        let (a, b) = (Features::of(&pos), Features::of(&flipped));
        for (i, name) in FEATURE_NAMES.iter().enumerate().take(TEMPO) {
            assert_eq!(a.0[i], -b.0[i], "{name}");
        }
        // x: 5 pieces, o: 4 pieces; the corner class holds a7, g1 for x and g7, a1 for o.
        assert_eq!(a.0[..SQUARE_CLASSES].iter().sum::<i32>(), 1);
        assert_eq!(a.0[0], 0);
    }

    #[test]
    fn a_side_that_must_pass_gets_no_tempo() {
        // x's only piece on g1 is walled in by o: x must pass, so o moves next.
        let stuck: Position = "7/7/7/7/4ooo/4ooo/4oox x 0 1".parse().unwrap();
        assert!(stuck.must_pass());
        assert_eq!(Features::of(&stuck).0[TEMPO], 0);
        assert_eq!(Features::of(&Position::startpos()).0[TEMPO], 1);
    }

    #[test]
    fn stable_pieces_are_those_without_empty_neighbours() {
        // x fills a corner block of 4; only a1... is surrounded: a1 touches a2, b1, b2 (all x).
        let pos: Position = "7/7/7/7/7/xx5/xx4o x 0 1".parse().unwrap();
        assert_eq!(Features::of(&pos).0[STABLE], 1);
    }
}
