//! Four-player Ataxx's evaluation: the margin over the strongest rival, and the capture the
//! seat to move has in hand.
//!
//! A fixed-depth paranoid search stops after a different seat's move at every depth, so its
//! leaves are judged with one seat about to strike: at depth 4 the searching seat, at depth 3
//! the last rival. Counting pieces alone ignores that strike (the horizon effect that made
//! depth 4 little better than depth 3). The evaluation therefore credits the seat to move with
//! its best immediate capture: pieces of the searching seat's rivals it could take if it is the
//! searching seat, the searching seat's own pieces it could take if it is a rival.

use ataxx::{Bitboard, Square};
use games::ataxx4::{Color, Position};
use games::Seat;

use super::eval::{Evaluate, WIN};

/// Quarter pieces per piece: room for the capture term's weight.
const PER_PIECE: i32 = 4;
/// Quarter pieces per piece the seat to move can take at once (half its value: the capture
/// is not yet made, and the other seats move before the evaluation would come true).
const PER_THREATENED: i32 = 2;

impl Evaluate for Position {
    fn heuristic(&self, seat: Seat) -> i32 {
        judge(self, seat, Opponents::Strongest)
    }

    fn heuristic_against_all(&self, seat: Seat) -> i32 {
        judge(self, seat, Opponents::All)
    }
}

/// Whom a seat's evaluation measures it against.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Opponents {
    /// The strongest rival (paranoid search): 4 × (own pieces − the strongest rival's) + 2 ×
    /// the capture in hand of the seat to move: rivals' pieces if it is the judged seat, the
    /// judged seat's pieces if it is a rival.
    Strongest,
    /// Every rival (`hard`): 4 × (3 × own pieces − all rivals' pieces), so that taking a piece
    /// from any rival counts, not only from the leader (every rival's rank against the seat
    /// counts the same), and so that a rival minimising it in paranoid search grows its own
    /// pieces too; and 6 × the capture in hand, the judged seat's if it is to move, else the
    /// strongest of any rival against it.
    All,
}

/// `seat`'s evaluation against `opponents`.
fn judge(pos: &Position, seat: Seat, opponents: Opponents) -> i32 {
    let me = Color::from_index(seat.index());
    let own = pos.pieces(me);
    if own.is_empty() {
        return -WIN;
    }
    let rivals = Color::ALL
        .into_iter()
        .filter(|&c| c != me)
        .map(|c| pos.pieces(c));
    let empty = pos.empty();
    let mover = pos.turn();
    let capture_in_hand = if mover == me {
        let prey = rivals.clone().fold(Bitboard::EMPTY, |all, b| all | b);
        best_capture(own, prey, empty) as i32
    } else {
        let strongest_strike = match opponents {
            Opponents::Strongest => best_capture(pos.pieces(mover), own, empty),
            Opponents::All => rivals
                .clone()
                .map(|r| best_capture(r, own, empty))
                .max()
                .unwrap_or(0),
        };
        -(strongest_strike as i32)
    };
    let own = own.count() as i32;
    match opponents {
        Opponents::Strongest => {
            let strongest = rivals.map(|b| b.count() as i32).max().unwrap_or(0);
            PER_PIECE * (own - strongest) + PER_THREATENED * capture_in_hand
        }
        Opponents::All => {
            let field: i32 = rivals.map(|b| b.count() as i32).sum();
            PER_PIECE * (3 * own - field) + 3 * PER_THREATENED * capture_in_hand
        }
    }
}

/// The most `prey` pieces one move of `hunter` takes: the most `prey` neighbours of an empty
/// cell that `hunter` reaches in one or two steps.
fn best_capture(hunter: Bitboard, prey: Bitboard, empty: Bitboard) -> u32 {
    let targets = hunter.within_two() & empty & prey.neighbours();
    targets
        .map(|sq: Square| (Bitboard::neighbours_of(sq) & prey).count())
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::Rules;

    #[test]
    fn a_capture_in_hand_counts_for_the_seat_to_move() {
        // Red's c4 beside blue's d4 and e4; green and yellow in the corners.
        let board = "7/7/7/2rbb2/7/7/g5y";
        let red_to_move = Position::from_fen(&format!("{board} r 0 1")).unwrap();
        let blue_to_move = Position::from_fen(&format!("{board} b 0 1")).unwrap();
        let red = Seat(0);
        let margin = PER_PIECE * (1 - 2);
        // Red to move takes both blue pieces (a single to d5 or d3).
        assert_eq!(red_to_move.heuristic(red), margin + PER_THREATENED * 2);
        // Blue to move takes red's only piece.
        assert_eq!(blue_to_move.heuristic(red), margin - PER_THREATENED);
        // Yellow, out of everyone's reach, sees only its margin.
        assert_eq!(red_to_move.heuristic(Seat(3)), PER_PIECE * (1 - 2));
    }

    #[test]
    fn only_against_all_rivals_does_a_trailing_rival_growing_count() {
        // Red a7 alone; blue leads with three pieces; green grows from one piece to two, far
        // from red, so that no capture is in hand either way.
        let before = Position::from_fen("r5g/7/7/7/7/7/y3bbb r 0 1").unwrap();
        let after = Position::from_fen("r5g/6g/7/7/7/7/y3bbb r 0 1").unwrap();
        let red = Seat(0);
        assert_eq!(before.heuristic(red), PER_PIECE * (1 - 3));
        assert_eq!(after.heuristic(red), before.heuristic(red));
        assert_eq!(before.heuristic_against_all(red), PER_PIECE * (3 - 5));
        assert_eq!(after.heuristic_against_all(red), PER_PIECE * (3 - 6));
    }

    #[test]
    fn against_all_rivals_every_piece_and_every_strike_counts() {
        // Red a7; blue b7 and g7 (three pieces in all with green and yellow's corners).
        let board = "rb4b/7/7/7/7/7/y5g";
        let red_to_move = Position::from_fen(&format!("{board} r 0 1")).unwrap();
        let green_to_move = Position::from_fen(&format!("{board} g 0 1")).unwrap();
        let red = Seat(0);
        // 3 × 1 own − (2 + 1 + 1) rivals' pieces.
        let margin = PER_PIECE * (3 - 4);
        // Red to move takes b7 (a single to a6 or b6).
        assert_eq!(red_to_move.heuristic_against_all(red), margin + 6);
        // Green to move, far away: blue could still take a7 (from b7 to b6 or a6).
        assert_eq!(green_to_move.heuristic_against_all(red), margin - 6);
        // The leader-only heuristic sees green's own (empty) threat only.
        assert_eq!(green_to_move.heuristic(red), PER_PIECE * (1 - 2));
    }
}
