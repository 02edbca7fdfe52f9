//! The random player for any game.

use games::Rules;
use rand::Rng;

use super::eval::single_or_jump;

/// A random legal move; when singles and jumps both exist, a single three times in four, as
/// the classic random player does (seed 003's suggestion for learners). `None` once the game
/// is over.
pub fn random_move<R: Rules>(pos: &R, rng: &mut impl Rng) -> Option<R::Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let (singles, jumps): (Vec<R::Move>, Vec<R::Move>) = moves
        .iter()
        .partition(|&&mv| single_or_jump(pos, mv) != Some(false));
    let pool = if singles.is_empty() {
        &jumps
    } else if jumps.is_empty() || rng.random_range(0..4) < 3 {
        &singles
    } else {
        &jumps
    };
    Some(pool[rng.random_range(0..pool.len())])
}
