//! Property tests: FEN round trips, parsers never panic, bulk counting agrees with the move list.

use ataxx::{perft, Move, Position, Square};
use proptest::prelude::*;

/// A random position of size 3–8: each cell empty, x, o or blocked; random side and counters.
fn any_position() -> impl Strategy<Value = Position> {
    (
        3u8..=8,
        prop::collection::vec(0u8..4, 64),
        any::<bool>(),
        0u32..120,
        1u32..300,
    )
        .prop_map(|(size, cells, o_to_move, halfmove, fullmove)| {
            let mut fen = String::new();
            for rank in (0..size).rev() {
                let mut run = 0;
                for file in 0..size {
                    let c = match cells[(rank * 8 + file) as usize] {
                        0 => {
                            run += 1;
                            continue;
                        }
                        1 => 'x',
                        2 => 'o',
                        _ => '-',
                    };
                    if run > 0 {
                        fen.push_str(&run.to_string());
                        run = 0;
                    }
                    fen.push(c);
                }
                if run > 0 {
                    fen.push_str(&run.to_string());
                }
                if rank > 0 {
                    fen.push('/');
                }
            }
            let side = if o_to_move { 'o' } else { 'x' };
            format!("{fen} {side} {halfmove} {fullmove}")
                .parse()
                .unwrap()
        })
}

proptest! {
    #[test]
    fn fen_round_trips(pos in any_position()) {
        let text = pos.to_string();
        let back: Position = text.parse().unwrap();
        prop_assert_eq!(back, pos);
        prop_assert_eq!(back.to_string(), text);
    }

    #[test]
    fn count_moves_equals_the_length_of_the_move_list(pos in any_position()) {
        prop_assert_eq!(pos.count_moves(), pos.legal_moves().len() as u64);
        prop_assert_eq!(perft(&pos, 1), pos.legal_moves().len() as u64);
    }

    #[test]
    fn perft_two_equals_the_sum_of_child_move_counts(pos in any_position()) {
        let plain: u64 = pos.legal_moves().iter().map(|&mv| {
            let mut child = pos;
            child.play_unchecked(mv);
            child.count_moves()
        }).sum();
        prop_assert_eq!(perft(&pos, 2), plain);
    }

    #[test]
    fn every_generated_move_is_legal_and_its_text_round_trips(pos in any_position()) {
        for mv in pos.legal_moves() {
            prop_assert!(pos.is_legal(mv));
            prop_assert_eq!(mv.to_string().parse::<Move>().unwrap(), mv);
            prop_assert_eq!(pos.parse_move(&mv.to_string()).unwrap(), mv);
            let mut child = pos;
            child.play(mv).unwrap();
            let total = child.pieces(ataxx::Color::X).count() + child.pieces(ataxx::Color::O).count();
            let before = pos.pieces(ataxx::Color::X).count() + pos.pieces(ataxx::Color::O).count();
            prop_assert_eq!(total, before + u32::from(matches!(mv, Move::Single(_))));
        }
    }

    #[test]
    fn parsers_never_panic(text in "\\PC{0,40}") {
        let _ = text.parse::<Position>();
        let _ = text.parse::<Move>();
        let _ = Move::parse_tolerant(&text);
        let _ = text.parse::<Square>();
        let _ = Position::startpos().parse_move(&text);
    }

    #[test]
    fn fen_like_garbage_never_panics(text in "[xoXO1-9/ -]{0,60}") {
        if let Ok(pos) = text.parse::<Position>() {
            prop_assert_eq!(pos.to_string().parse::<Position>().unwrap(), pos);
        }
    }
}
