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

    #[inline(always)]
    fn is_killer(&self, ply: usize, mv: Move) -> bool {
        self.killers[ply].contains(&Some(mv))
    }
}

/// A move with its immediate gain (see [`gain`]).
#[derive(Copy, Clone, Debug)]
pub struct Picked {
    pub mv: Move,
    pub gain: i32,
}

/// Hands out the legal moves of a position best-first, in stages: the transposition-table move
/// before any move is generated (a cut-off by it saves generating and scoring the rest), then
/// the other moves by score.
///
/// Each move is scored once into a 64-bit key, score above a tie-break by generation order
/// above the move's index, so keys are unique and the order does not depend on how they are
/// picked: the first few by a linear scan for the largest (a cut-off usually comes early), the
/// rest by one sort when the node turns out to need them.
pub struct MovePicker {
    tt_move: Option<Move>,
    stage: Stage,
    moves: MoveList,
    keys: ArrayVec<u64, MAX_MOVES>,
    next: usize,
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Stage {
    TtMove,
    Generate,
    Scan,
    Sorted,
}

/// Picks by linear scan before the rest is sorted at once.
const SCANNED_PICKS: usize = 3;

const KEY_SCORE_SHIFT: u32 = 32;
/// Gains lie within -8..=34; biased, they fit the bits between the index and the score.
const GAIN_BIAS: i32 = 1 << 10;
const KEY_INDEX_BITS: u32 = 10;
const KEY_INDEX_MASK: u64 = (1 << KEY_INDEX_BITS) - 1;
const _: () = assert!(MAX_MOVES <= 1 << KEY_INDEX_BITS);

/// Whether `mv` (from the transposition table, so possibly another position's) is legal in
/// `pos`, a position whose game is not over and that is not a forced pass.
#[inline]
fn is_pseudo_legal(pos: &Position, mv: Move) -> bool {
    let empty = pos.empty();
    let us = pos.pieces(pos.turn());
    match mv {
        Move::Single(to) => empty.contains(to) && !(Bitboard::neighbours_of(to) & us).is_empty(),
        Move::Jump { from, to } => {
            us.contains(from) && empty.contains(to) && Bitboard::jump_targets_of(from).contains(to)
        }
        Move::Pass => false,
    }
}

impl MovePicker {
    /// A picker for `pos`, which must be a position whose game is not over; `must_pass` says
    /// whether its only move is a pass (see [`Position::must_pass`]).
    #[inline]
    pub fn new(pos: &Position, tt_move: Option<Move>, must_pass: bool) -> MovePicker {
        debug_assert!(!pos.is_game_over() && must_pass == pos.must_pass());
        let mut picker = MovePicker {
            tt_move: None,
            stage: Stage::TtMove,
            moves: MoveList::new(),
            keys: ArrayVec::new(),
            next: 0,
        };
        if must_pass {
            // The only move: nothing to generate or order.
            picker.moves.push(Move::Pass);
            picker
                .keys
                .push((GAIN_BIAS as u64) << KEY_INDEX_BITS | KEY_INDEX_MASK);
            picker.stage = Stage::Sorted;
        } else {
            picker.tt_move = tt_move.filter(|&mv| is_pseudo_legal(pos, mv));
        }
        picker
    }

    /// The next move, best first; `None` when every legal move has been handed out.
    #[inline]
    pub fn next(&mut self, pos: &Position, tables: &OrderingTables, ply: usize) -> Option<Picked> {
        if self.stage == Stage::TtMove {
            self.stage = Stage::Generate;
            if let Some(mv) = self.tt_move {
                return Some(Picked {
                    mv,
                    gain: gain(pos, mv),
                });
            }
        }
        if self.stage == Stage::Generate {
            self.generate(pos, tables, ply);
            self.stage = Stage::Scan;
        }
        let start = self.next;
        if start >= self.keys.len() {
            return None;
        }
        if self.stage == Stage::Scan {
            if start < SCANNED_PICKS {
                let mut best = start;
                let mut best_key = self.keys[start];
                for (i, &key) in self.keys.iter().enumerate().skip(start + 1) {
                    if key > best_key {
                        best = i;
                        best_key = key;
                    }
                }
                self.keys.swap(start, best);
            } else {
                self.keys[start..].sort_unstable_by(|a, b| b.cmp(a));
                self.stage = Stage::Sorted;
            }
        }
        self.next += 1;
        let key = self.keys[start];
        let index = KEY_INDEX_MASK - (key & KEY_INDEX_MASK);
        Some(Picked {
            mv: self.moves[index as usize],
            gain: i32::from((key >> KEY_INDEX_BITS) as u16) - GAIN_BIAS,
        })
    }

    fn generate(&mut self, pos: &Position, tables: &OrderingTables, ply: usize) {
        let side = pos.turn();
        let us = pos.pieces(side);
        let them = pos.pieces(!side);
        let empty = pos.empty();
        let history = &tables.history[side_index(side)];
        let moves = &mut self.moves;
        let keys = &mut self.keys;
        let tt_move = self.tt_move;
        let mut push = |mv: Move, gain: i32| {
            if Some(mv) == tt_move {
                return;
            }
            let killer = if tables.is_killer(ply, mv) {
                KILLER_BONUS
            } else {
                0
            };
            let score = gain * GAIN_SCALE + killer + history[history_index(mv)];
            let index = moves.len() as u64;
            moves.push(mv);
            keys.push(
                u64::from((score as u32) ^ 0x8000_0000) << KEY_SCORE_SHIFT
                    | ((gain + GAIN_BIAS) as u64) << KEY_INDEX_BITS
                    | (KEY_INDEX_MASK - index),
            );
        };
        for to in us.neighbours() & empty {
            let flips = (Bitboard::neighbours_of(to) & them).count() as i32;
            push(Move::Single(to), 4 * flips + 2);
        }
        for from in us {
            let left = (Bitboard::neighbours_of(from) & us).count() as i32;
            for to in Bitboard::jump_targets_of(from) & empty {
                let flips = (Bitboard::neighbours_of(to) & them).count() as i32;
                push(Move::Jump { from, to }, 4 * flips - left);
            }
        }
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
        let mut picker = MovePicker::new(&pos, Some(tt_move), false);
        let order: Vec<Picked> = std::iter::from_fn(|| picker.next(&pos, &tables, 0)).collect();
        assert_eq!(order.len(), pos.legal_moves().len());
        assert_eq!(order[0].mv, tt_move);
        assert_eq!(order[1].mv.to_string(), "d4");
        assert!(order[2..].windows(2).all(|w| w[0].gain >= w[1].gain));
    }

    /// Every move the picker hands out, in order.
    fn picked(pos: &Position, tt_move: Option<Move>, tables: &OrderingTables) -> Vec<Picked> {
        let mut picker = MovePicker::new(pos, tt_move, pos.must_pass());
        std::iter::from_fn(|| picker.next(pos, tables, 2)).collect()
    }

    #[test]
    fn picker_order_is_tt_move_then_score_then_gain_then_generation_order() {
        let mut tables = OrderingTables::default();
        // Some history and killers, so that scores differ beyond gains.
        let learned = ["c3", "a1c3", "b2d4", "e5", "g1e3", "d4"];
        for (i, text) in learned.iter().enumerate() {
            let mv: Move = text.parse().unwrap();
            tables.record_cutoff(Color::X, 2, 3 + i as i32, mv, &[]);
            tables.record_cutoff(Color::O, 2, 3 + i as i32, mv, &[]);
        }
        for fen in [
            "x5o/7/7/7/7/7/o5x x 0 1",
            "7/7/2ooo2/7/2x4/1x5/x6 x 0 1",
            "xxx2oo/xx3oo/x1x1o2/7/2o1x2/oo3xx/oo2xxx x 0 10",
            "7/1xx1oo1/1xxooo1/2xo3/1ooxx2/1o1xx2/7 o 2 14",
            "-xxoo--/x-xoo-o/xxx-ooo/7/ooo-xxx/o-oxx-x/--ooxx- o 0 12",
            "7/7/7/7/4ooo/4ooo/4oox x 0 1",
        ] {
            let pos: Position = fen.parse().unwrap();
            let legal = pos.legal_moves();
            let side = pos.turn();
            let mut reference: Vec<(usize, Move)> = legal.iter().copied().enumerate().collect();
            reference.sort_by_key(|&(i, mv)| {
                let g = gain(&pos, mv);
                let killer = if tables.is_killer(2, mv) {
                    KILLER_BONUS
                } else {
                    0
                };
                let score = g * GAIN_SCALE + killer + tables.history(side, mv);
                (std::cmp::Reverse(score), std::cmp::Reverse(g), i)
            });
            let reference: Vec<Move> = reference.into_iter().map(|(_, mv)| mv).collect();
            let order: Vec<Move> = picked(&pos, None, &tables).iter().map(|p| p.mv).collect();
            assert_eq!(order, reference, "{fen}");
            // A table move goes first and is not repeated; an illegal one is ignored.
            let tt_move = *reference.last().unwrap();
            let with_tt: Vec<Move> = picked(&pos, Some(tt_move), &tables)
                .iter()
                .map(|p| p.mv)
                .collect();
            assert_eq!(with_tt[0], tt_move, "{fen}");
            assert_eq!(&with_tt[1..], &reference[..reference.len() - 1], "{fen}");
            let theirs = pos.pieces(!side).first().unwrap();
            let to = Bitboard::jump_targets_of(theirs).first().unwrap();
            for foreign in [Move::Pass, Move::Jump { from: theirs, to }] {
                if !pos.must_pass() {
                    assert_eq!(
                        picked(&pos, Some(foreign), &tables).len(),
                        legal.len(),
                        "{fen}"
                    );
                }
            }
            for p in picked(&pos, None, &tables) {
                assert_eq!(p.gain, gain(&pos, p.mv), "{fen} {}", p.mv);
            }
        }
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
