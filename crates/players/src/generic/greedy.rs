//! The greedy player for any game.

use games::Rules;
use rand::Rng;

use crate::choice::BestPicker;

/// With two seats the move that leaves the mover the most pieces; with more, the most own
/// pieces less the strongest opponent's. Ties broken uniformly at random. `None` once the game is over.
pub fn greedy_move<R: Rules>(pos: &R, rng: &mut impl Rng) -> Option<R::Move> {
    let seat = pos.turn();
    let mut picker = BestPicker::new();
    for mv in pos.legal_moves() {
        let mut child = pos.clone();
        child.play(mv);
        let counts = child.piece_counts();
        let own = counts[seat.index()] as i64;
        let rival = counts
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != seat.index())
            .map(|(_, &c)| c as i64)
            .max()
            .unwrap_or(0);
        let score = if counts.len() == 2 { own } else { own - rival };
        picker.offer(score, mv, rng);
    }
    picker.into_best().map(|(_, mv)| mv)
}
