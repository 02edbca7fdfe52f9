//! Properties of four-player FEN, move text and the 19-byte encoding: round trips, and no
//! panic on any input.

use games::ataxx4::{FenError, PackedBoard, Position, PACKED_BYTES};
use games::{GameKind, Rules};
use proptest::prelude::*;

/// A FEN written cell by cell, every empty cell as its own `1`, so the reader must merge runs.
fn fen_text(size: usize, cells: &[u8], side: usize, half: u32, full: u32) -> String {
    let rows: Vec<String> = cells
        .chunks(size)
        .map(|row| {
            row.iter()
                .map(|c| match c {
                    0 | 6 | 7 => '1',
                    1 => '-',
                    p => ['r', 'b', 'g', 'y'][usize::from(p - 2)],
                })
                .collect()
        })
        .collect();
    format!(
        "{} {} {half} {full}",
        rows.join("/"),
        ['r', 'b', 'g', 'y'][side]
    )
}

fn board(size: usize) -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(0u8..8, size * size)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn fen_round_trips(
        (size, cells) in (5usize..=8).prop_flat_map(|n| (Just(n), board(n))),
        side in 0usize..4,
        half in 0u32..300,
        full in 1u32..5000,
    ) {
        let text = fen_text(size, &cells, side, half, full);
        match text.parse::<Position>() {
            Ok(pos) => {
                let written = pos.to_string();
                prop_assert_eq!(written.parse::<Position>().unwrap(), pos);
                prop_assert_eq!(written.parse::<Position>().unwrap().to_string(), written.clone());
                prop_assert_eq!(written.split(' ').nth(2).unwrap(), half.to_string());
            }
            // Every generated board is well-formed; only the side to move may be refused.
            Err(e) => prop_assert!(matches!(e, FenError::SideOut { .. }), "{}: {}", text, e),
        }
    }

    #[test]
    fn encoding_round_trips(cells in board(7), side in 0usize..4) {
        let text = fen_text(7, &cells, side, 0, 1);
        if let Ok(pos) = text.parse::<Position>() {
            let packed = PackedBoard::from_position(&pos).unwrap();
            let back = packed.to_string().parse::<PackedBoard>().unwrap();
            prop_assert_eq!(back, packed);
            prop_assert_eq!(PackedBoard::from_bytes(&packed.bytes()).unwrap(), packed);
            prop_assert_eq!(back.to_position().board_fen(), pos.board_fen());
        }
    }

    #[test]
    fn decoding_any_bytes_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..24)) {
        if let Ok(packed) = PackedBoard::from_bytes(&bytes) {
            prop_assert_eq!(bytes.len(), PACKED_BYTES);
            let pos = packed.to_position();
            // A decoded board is a position like any other: its FEN reads back.
            prop_assert_eq!(pos.to_string().parse::<Position>().unwrap(), pos);
            prop_assert_eq!(PackedBoard::from_position(&pos).unwrap(), packed);
        }
    }

    #[test]
    fn readers_never_panic(text in ".{0,60}") {
        let _ = text.parse::<Position>();
        let _ = text.parse::<PackedBoard>();
        let _ = Position::startpos().parse_move(&text);
        let _ = <Position as Rules>::parse_move_text(&text);
        let _ = GameKind::Ataxx4.parse_position(&text);
    }

    #[test]
    fn fen_like_text_never_panics(text in "[rbgyRBGYxo0-9/ -]{0,90}") {
        if let Ok(pos) = text.parse::<Position>() {
            prop_assert_eq!(pos.to_string().parse::<Position>().unwrap(), pos);
            let _ = pos.legal_moves();
            let _ = pos.outcome();
            let _ = pos.diagram();
        }
    }

    #[test]
    fn move_text_never_panics_and_legal_moves_read_back(
        text in "[a-i0-9 ^@xp-]{0,7}",
        cells in board(5),
        side in 0usize..4,
    ) {
        let fen = fen_text(5, &cells, side, 0, 1);
        if let Ok(pos) = fen.parse::<Position>() {
            let _ = pos.parse_move(&text);
            for mv in pos.legal_moves() {
                prop_assert_eq!(pos.parse_move(&mv.to_string()).unwrap(), mv);
            }
        }
    }
}
