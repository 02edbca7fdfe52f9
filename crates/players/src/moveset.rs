//! The move lists that seed 003's players search, with its two reductions.

use ataxx::{Bitboard, Move, MoveList, Position};

/// Which moves a player considers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum MoveSet {
    /// What a naive generator lists: a single once per own piece next to the destination, and
    /// every jump. Several singles give the same board.
    #[default]
    Raw,
    /// Singles merged by destination (the rules' own move list).
    Merged,
    /// Merged singles, and no jump to a cell that a single reaches: a single to the same cell
    /// keeps the origin piece as well.
    Reduced,
}

impl MoveSet {
    /// The moves of `pos` in this set; a forced pass when stuck, nothing once the game is over.
    pub fn moves(self, pos: &Position) -> MoveList {
        let mut moves = MoveList::new();
        match self {
            MoveSet::Merged => pos.generate_moves(&mut moves),
            MoveSet::Raw => {
                for mv in pos.legal_moves() {
                    let copies = match mv {
                        Move::Single(to) => {
                            (Bitboard::neighbours_of(to) & pos.pieces(pos.turn())).count()
                        }
                        _ => 1,
                    };
                    for _ in 0..copies {
                        moves.push(mv);
                    }
                }
            }
            MoveSet::Reduced => {
                let singles = pos.single_targets();
                moves.extend(pos.legal_moves().into_iter().filter(|mv| {
                    !(mv.is_jump() && mv.to().is_some_and(|to| singles.contains(to)))
                }));
            }
        }
        moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_in_the_start_position() {
        let pos = Position::startpos();
        // Each corner piece touches 3 cells and jumps to 5.
        assert_eq!(MoveSet::Raw.moves(&pos).len(), 16);
        assert_eq!(MoveSet::Merged.moves(&pos).len(), 16);
        assert_eq!(MoveSet::Reduced.moves(&pos).len(), 16);
        let pos: Position = "6o/7/7/7/7/1xx4/7 x 0 1".parse().unwrap();
        // Next to b2: a1 b1 c1 a2 a3 b3 c3 (+c2 occupied) = 7; next to c2: b1 c1 d1 d2 b3 c3 d3 = 7.
        // Merged singles: a1 b1 c1 d1 a2 d2 a3 b3 c3 d3 = 10; raw singles: 7 + 7 = 14.
        let singles = |set: MoveSet| set.moves(&pos).iter().filter(|m| !m.is_jump()).count();
        assert_eq!(singles(MoveSet::Raw), 14);
        assert_eq!(singles(MoveSet::Merged), 10);
        // a1 is a single target (next to b2), so Reduced drops the jump c2a1 but keeps b2d4.
        let reduced_jumps: Vec<String> = MoveSet::Reduced
            .moves(&pos)
            .iter()
            .filter(|m| m.is_jump())
            .map(|m| m.to_string())
            .collect();
        assert!(reduced_jumps
            .iter()
            .all(|m| !pos.single_targets().contains(m[2..].parse().unwrap())));
        assert!(reduced_jumps.contains(&"b2d4".to_string()));
        assert!(!reduced_jumps.contains(&"c2a1".to_string()));
    }
}
