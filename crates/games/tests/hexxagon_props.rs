//! Properties of the Hexxagon readers and writers: FEN round trips for reachable positions,
//! no panic on any text, and error messages that name the problem.

use games::hexxagon::{Move, Position};
use games::{GameKind, Rules, StartOptions};
use proptest::prelude::*;

/// The position after `plies` pseudo-random legal moves from a start of the given size and
/// blocks, moves picked by `choices`.
fn reachable(size: u8, classic: bool, halfmove: u32, choices: &[u16]) -> Position {
    let options = StartOptions {
        size: Some(size),
        blocks: classic.then(|| "classic".to_string()),
        ..Default::default()
    };
    let start = <Position as Rules>::start(&options).unwrap();
    let fen = start
        .to_string()
        .replace(" x 0 1", &format!(" x {halfmove} 1"));
    let mut pos: Position = fen.parse().unwrap();
    for &choice in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play(moves[choice as usize % moves.len()]).unwrap();
    }
    pos
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn fen_round_trips_for_reachable_positions(
        size in 3u8..=5,
        classic in any::<bool>(),
        halfmove in prop_oneof![Just(0u32), 0u32..100],
        choices in prop::collection::vec(any::<u16>(), 0..120),
    ) {
        let pos = reachable(size, classic && size == 5, halfmove, &choices);
        let fen = pos.to_string();
        let back: Position = fen.parse().unwrap();
        prop_assert_eq!(back, pos);
        prop_assert_eq!(back.to_string(), fen.clone());
        let through_seam = GameKind::Hexxagon.parse_position(&fen).unwrap();
        prop_assert_eq!(through_seam.fen(), fen);
        for mv in pos.legal_moves() {
            let text = mv.to_string();
            prop_assert_eq!(text.parse::<Move>().unwrap(), mv);
            prop_assert_eq!(Move::parse_tolerant(&text.to_uppercase()).unwrap(), mv);
        }
    }

    #[test]
    fn fen_reader_never_panics(text in ".{0,60}") {
        let _ = text.parse::<Position>();
        let _ = GameKind::Hexxagon.parse_position(&text);
    }

    #[test]
    fn fen_reader_never_panics_on_fen_like_text(
        text in "[xoXO0-9/ -]{0,50}( [xow])?( [0-9-]{1,4}){0,3}",
    ) {
        if let Ok(pos) = text.parse::<Position>() {
            prop_assert_eq!(pos.to_string().parse::<Position>().unwrap(), pos);
        }
    }

    #[test]
    fn move_readers_never_panic(text in ".{0,12}") {
        let _ = text.parse::<Move>();
        let _ = Move::parse_tolerant(&text);
        let pos = Position::start(3).unwrap();
        let _ = pos.parse_move(&text);
        let _ = <Position as Rules>::parse_move(&pos, &text);
    }

    #[test]
    fn move_readers_never_panic_on_move_like_text(text in "[a-jA-J0-9@^xp -]{0,7}") {
        if let Ok(mv) = Move::parse_tolerant(&text) {
            prop_assert_eq!(Move::parse_tolerant(&mv.to_string()).unwrap(), mv);
        }
        let mut pos = Position::startpos();
        if let Ok(mv) = pos.parse_move(&text) {
            prop_assert!(pos.legal_moves().contains(&mv));
            pos.play(mv).unwrap();
        }
    }
}

#[test]
fn errors_name_the_problem() {
    let err = |fen: &str| {
        GameKind::Hexxagon
            .parse_position(fen)
            .unwrap_err()
            .to_string()
    };
    let e = err("x3o/6/7/8/o7x/8/7/6 x 0 1");
    assert!(
        e.contains("bad hexxagon position") && e.contains("8 rows") && e.contains("5, 7 or 9"),
        "{e}"
    );
    let e = err("x3o/6/7/8/o7x/8/7/7/x3o x 0 1");
    assert!(
        e.contains("row 2 (FEN row 8 from the top) covers 7 cells; expected 6")
            && e.contains("5, 6, 7, 8, 9, 8, 7, 6, 5"),
        "{e}"
    );
    let e = err("x3o/6/7/8/o7z/8/7/6/x3o");
    assert!(e.contains("row 5 (FEN row 5 from the top) has 'z'"), "{e}");
    let e = err("x3o/6/7/8/o7x/8/7/6/x3o b");
    assert!(e.contains("side field is \"b\"; expected x or o"), "{e}");
    let e = err("x3o/6/7/8/o7x/8/7/6/x3o x 1.5");
    assert!(e.contains("halfmove clock field is \"1.5\""), "{e}");
    let e = err("x3o/6/7/8/o7x/8/7/6/x3o x 0 0");
    assert!(
        e.contains("fullmove number field is \"0\"; expected a whole number 1 or more"),
        "{e}"
    );
    // A square board's FEN is not a hexagon.
    let e = err("x5o/7/7/7/7/7/o5x x 0 1");
    assert!(e.contains("covers 7 cells; expected 4"), "{e}");

    let mv = |text: &str| {
        <Position as Rules>::parse_move_text(text)
            .unwrap_err()
            .to_string()
    };
    assert!(mv("a1e5").contains("more than 2 apart"), "{}", mv("a1e5"));
    assert!(mv("a9").contains("inside the hexagon"), "{}", mv("a9"));
    assert!(mv("a1b2c3").contains("expected a cell"), "{}", mv("a1b2c3"));
}
