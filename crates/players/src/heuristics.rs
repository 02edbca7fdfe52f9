//! Seed 003's board heuristics and its two move-scoring players' formulas.
//!
//! Scores are integers in hundredths of a piece, so that ties are exact.

use ataxx::{Bitboard, Color, Move, Position};

/// Score of a won game: above any count of pieces.
pub const WIN: i32 = 1_000_000;

/// A board heuristic, from the point of view of `me`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Heuristic {
    /// `count(own pieces)`.
    Own,
    /// `count(own) - count(opponent)`.
    Difference,
    /// `count(own) + a·(own pieces with a full ring of own neighbours) + b·(with two full rings)`,
    /// `a` and `b` in hundredths.
    Rings { a: i32, b: i32 },
}

impl Heuristic {
    /// The value of `pos` for `me`; finished games score ±[`WIN`] (0 for a draw), so that a
    /// search takes a win and avoids a loss whatever the piece counts say.
    pub fn score(self, pos: &Position, me: Color) -> i32 {
        if let Some(outcome) = pos.outcome() {
            return match outcome.winner() {
                Some(c) if c == me => WIN,
                Some(_) => -WIN,
                None => 0,
            };
        }
        let own = pos.pieces(me);
        let count = 100 * own.count() as i32;
        match self {
            Heuristic::Own => count,
            Heuristic::Difference => count - 100 * pos.pieces(!me).count() as i32,
            Heuristic::Rings { a, b } => {
                let (one, two) = ringed_pieces(pos, me);
                count + a * one as i32 + b * two as i32
            }
        }
    }
}

/// Own pieces whose every neighbour cell on the board is own or blocked (one ring), and whose
/// every cell within distance 2 is (two rings). A piece on the edge has fewer cells to cover.
pub fn ringed_pieces(pos: &Position, me: Color) -> (u32, u32) {
    let own = pos.pieces(me);
    let open = pos.cells() & !pos.blocked() & !own;
    let (mut one, mut two) = (0, 0);
    for sq in own {
        let near = Bitboard::neighbours_of(sq);
        if (near & open).is_empty() {
            one += 1;
            if (Bitboard::jump_targets_of(sq) & open).is_empty() {
                two += 1;
            }
        }
    }
    (one, two)
}

/// AtaxxPaul's move score (Paul Buchheit's Java applet), in hundredths:
/// `enemyGoNear + 0.2·selfGoNear`, then `- 0.2·selfGoAway` for a jump or `+ 1` for a single, and
/// `+ 0.05` when the destination touches the board's edge.
pub fn applet_score(pos: &Position, mv: Move) -> i32 {
    let Some(to) = mv.to() else { return 0 };
    let me = pos.turn();
    let near = Bitboard::neighbours_of(to);
    let enemy_near = (near & pos.pieces(!me)).count() as i32;
    let self_near = (near & pos.pieces(me)).count() as i32;
    let mut score = 100 * enemy_near + 20 * self_near;
    score += match mv.from() {
        Some(from) => -20 * (Bitboard::neighbours_of(from) & pos.pieces(me)).count() as i32,
        None => 100,
    };
    let last = pos.size() - 1;
    if to.file() == 0 || to.rank() == 0 || to.file() == last || to.rank() == last {
        score += 5;
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        fen.parse().unwrap()
    }

    #[test]
    fn board_heuristics_by_hand() {
        // x: a7 b7 a6 b6 (a 2x2 block in the corner), o: g1 f1.
        let p = pos("xx5/xx5/7/7/7/7/5oo x 0 1");
        assert_eq!(Heuristic::Own.score(&p, Color::X), 400);
        assert_eq!(Heuristic::Difference.score(&p, Color::X), 200);
        assert_eq!(Heuristic::Difference.score(&p, Color::O), -200);
        // a7's neighbours a6 b7 b6 are all own: one ring. Its distance-2 cells a5 b5 c5 c6 c7
        // are empty: not two rings. No other x piece has a full ring.
        assert_eq!(ringed_pieces(&p, Color::X), (1, 0));
        assert_eq!(Heuristic::Rings { a: 50, b: 100 }.score(&p, Color::X), 450);
        // A full 3x3 block around a1 with the rest of 2 rings: a1 needs a1..c3 all own.
        let p = pos("6o/7/7/7/xxx4/xxx4/xxx4 x 0 1");
        // a1: ring 1 (a2 b1 b2) own, ring 2 (a3 b3 c3 c2 c1) own -> both. b1, a2, b2: ring 1 own?
        // b2's neighbours a1..c3 all own -> one ring; its distance-2 cells a4.. d4 d1.. not own.
        // b1: a1 a2 b2 c1 c2 own -> ring; a2: a1 a3 b1 b2 b3 own -> ring. c1, a3 etc. touch open cells.
        assert_eq!(ringed_pieces(&p, Color::X), (4, 1));
        assert_eq!(
            Heuristic::Rings { a: 30, b: 70 }.score(&p, Color::X),
            900 + 4 * 30 + 70
        );
    }

    #[test]
    fn finished_games_score_as_wins_and_losses() {
        let p = pos("x6/7/7/7/7/7/7 o 0 1");
        assert_eq!(Heuristic::Own.score(&p, Color::X), WIN);
        assert_eq!(Heuristic::Difference.score(&p, Color::O), -WIN);
    }

    #[test]
    fn applet_formula_by_hand() {
        // x to move; x on c3 and e3, o on b5 and d5.
        let p = pos("7/7/1o1o3/7/2x1x2/7/6o x 0 1");
        // Single c4: enemies b5, d5 = 2; own c3 = 1 (e3 is 2 away) -> 2 + 0.2 + 1 = 3.20.
        assert_eq!(applet_score(&p, "c4".parse().unwrap()), 320);
        // Jump e3c5: enemies b5? no (c5's neighbours b4 b5 b6 c4 c6 d4 d5 d6): b5, d5 = 2;
        // own near c5: none; own near e3: none -> 2.00.
        assert_eq!(applet_score(&p, "e3c5".parse().unwrap()), 200);
        // Jump c3a5: enemy b5 = 1 (a5's neighbours a4 a6 b4 b5 b6); edge +0.05 -> 1.05.
        assert_eq!(applet_score(&p, "c3a5".parse().unwrap()), 105);
        // Single d3 next to c3 and e3: 0 enemies, 2 own -> 0.4 + 1 = 1.40.
        assert_eq!(applet_score(&p, "d3".parse().unwrap()), 140);
    }
}
