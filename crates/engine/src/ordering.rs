//! Move ordering: the transposition-table move first, then moves by material gain, with killer
//! moves and history scores breaking ties among moves of equal gain.

use arrayvec::ArrayVec;
use ataxx::{Bitboard, Color, Move, MoveList, Position, MAX_MOVES};

use crate::score::MAX_PLY;

/// History scores stay within ±this (the "gravity" update pulls them back toward zero).
const MAX_HISTORY: i32 = 16_384;
/// One step of gain outweighs any history and killer bonus.
const GAIN_SCALE: i32 = 4 * MAX_HISTORY;
const KILLER_BONUS: i32 = 2 * MAX_HISTORY;

/// What a move wins at once, in half pieces of material difference: a single adds a piece
/// (+2) and each flip swings the count by 2 (+4); a jump adds nothing but its flips and loses
/// one half for each own piece left next to the hole it leaves behind.
#[inline]
pub fn gain(pos: &Position, mv: Move) -> i32 {
    let flips = pos.flips(mv).count() as i32;
    match mv {
        Move::Single(_) => 4 * flips + 2,
        Move::Jump { from, .. } => {
            4 * flips - (Bitboard::neighbours_of(from) & pos.pieces(pos.turn())).count() as i32
        }
        Move::Pass => 0,
    }
}

/// Killer moves per ply and butterfly history per side, learned during one search.
pub struct OrderingTables {
    killers: [[Option<Move>; 2]; MAX_PLY],
    history: Box<[[i32; 64 * 64]; 2]>,
}

impl Default for OrderingTables {
    fn default() -> Self {
        OrderingTables {
            killers: [[None; 2]; MAX_PLY],
            history: Box::new([[0; 64 * 64]; 2]),
        }
    }
}

fn side_index(side: Color) -> usize {
    match side {
        Color::X => 0,
        Color::O => 1,
    }
}

/// Singles index by destination twice; jumps by origin and destination.
#[inline]
fn history_index(mv: Move) -> usize {
    match mv {
        Move::Single(to) => to.index() as usize * 65,
        Move::Jump { from, to } => from.index() as usize * 64 + to.index() as usize,
        Move::Pass => 0,
    }
}

impl OrderingTables {
    /// Forget killers (they belong to one search's plies) and damp history.
    pub fn new_search(&mut self) {
        self.killers = [[None; 2]; MAX_PLY];
        for side in self.history.iter_mut() {
            for h in side.iter_mut() {
                *h /= 2;
            }
        }
    }

    pub fn history(&self, side: Color, mv: Move) -> i32 {
        self.history[side_index(side)][history_index(mv)]
    }

    /// Reward `best`, which caused a cut-off at `ply`, and punish the moves tried before it.
    pub fn record_cutoff(
        &mut self,
        side: Color,
        ply: usize,
        depth: i32,
        best: Move,
        tried: &[Move],
    ) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(best) {
            killers[1] = killers[0];
            killers[0] = Some(best);
        }
        let bonus = (depth * depth * 8).min(MAX_HISTORY / 4);
        let table = &mut self.history[side_index(side)];
        let mut update = |mv: Move, delta: i32| {
            let h = &mut table[history_index(mv)];
            *h += delta - *h * delta.abs() / MAX_HISTORY;
        };
        update(best, bonus);
        for &mv in tried {
            update(mv, -bonus);
        }
    }

    fn is_killer(&self, ply: usize, mv: Move) -> bool {
        self.killers[ply].contains(&Some(mv))
    }
}

/// Hands out the legal moves of a position best-first (selection sort: a cut-off usually comes
/// early, so most of the list is never sorted).
pub struct MovePicker {
    moves: MoveList,
    scores: ArrayVec<i32, MAX_MOVES>,
    gains: ArrayVec<i32, MAX_MOVES>,
    next: usize,
}

/// A move with its immediate gain (see [`gain`]).
#[derive(Copy, Clone, Debug)]
pub struct Picked {
    pub mv: Move,
    pub gain: i32,
}

impl MovePicker {
    pub fn new(
        pos: &Position,
        tt_move: Option<Move>,
        tables: &OrderingTables,
        ply: usize,
    ) -> MovePicker {
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        let side = pos.turn();
        let mut scores = ArrayVec::new();
        let mut gains = ArrayVec::new();
        for &mv in &moves {
            let g = gain(pos, mv);
            gains.push(g);
            scores.push(if Some(mv) == tt_move {
                i32::MAX
            } else {
                let killer = if tables.is_killer(ply, mv) {
                    KILLER_BONUS
                } else {
                    0
                };
                g * GAIN_SCALE + killer + tables.history(side, mv)
            });
        }
        MovePicker {
            moves,
            scores,
            gains,
            next: 0,
        }
    }

    /// Number of legal moves.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

impl Iterator for MovePicker {
    type Item = Picked;

    fn next(&mut self) -> Option<Picked> {
        let start = self.next;
        if start >= self.moves.len() {
            return None;
        }
        let mut best = start;
        for i in start + 1..self.moves.len() {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(start, best);
        self.scores.swap(start, best);
        self.gains.swap(start, best);
        self.next += 1;
        Some(Picked {
            mv: self.moves[start],
            gain: self.gains[start],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gains_count_new_pieces_flips_and_left_holes() {
        // x on c3, b2, a1; o on c5, d5, e5.
        let pos: Position = "7/7/2ooo2/7/2x4/1x5/x6 x 0 1".parse().unwrap();
        let gain_of = |text: &str| gain(&pos, text.parse().unwrap());
        // d4 touches c5, d5, e5: three flips plus the new piece.
        assert_eq!(gain_of("d4"), 14);
        // c3-e4 flips d5 and e5 and leaves b2 next to the hole on c3.
        assert_eq!(gain_of("c3e4"), 7);
        // a1-a3 flips nothing and leaves b2 exposed.
        assert_eq!(gain_of("a1a3"), -1);
        assert_eq!(gain_of("b1"), 2);
    }

    #[test]
    fn picker_yields_the_tt_move_first_then_by_gain() {
        let pos: Position = "7/7/2ooo2/7/2x4/1x5/x6 x 0 1".parse().unwrap();
        let tables = OrderingTables::default();
        let tt_move: Move = "a1a3".parse().unwrap();
        let order: Vec<Picked> = MovePicker::new(&pos, Some(tt_move), &tables, 0).collect();
        assert_eq!(order.len(), pos.legal_moves().len());
        assert_eq!(order[0].mv, tt_move);
        assert_eq!(order[1].mv.to_string(), "d4");
        assert!(order[2..].windows(2).all(|w| w[0].gain >= w[1].gain));
    }

    #[test]
    fn cutoff_moves_gain_history_and_tried_moves_lose_it() {
        let mut tables = OrderingTables::default();
        let (good, bad): (Move, Move) = ("c3".parse().unwrap(), "a1c3".parse().unwrap());
        tables.record_cutoff(Color::X, 3, 5, good, &[bad]);
        assert!(tables.history(Color::X, good) > 0);
        assert!(tables.history(Color::X, bad) < 0);
        assert_eq!(tables.history(Color::O, good), 0);
        assert!(tables.is_killer(3, good) && !tables.is_killer(2, good));
    }
}
