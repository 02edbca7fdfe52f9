//! Ankor properties: random play keeps positions physically valid, the two movability
//! conditions are one, the position text round-trips, and no text makes a reader panic.

use games::ankor::{Colour, Position};
use games::{GameKind, Rules};
use proptest::prelude::*;

/// Plays `plies` random moves (chosen by `seed`) from the empty board, checking every
/// position on the way.
fn random_play(n: u8, h: i8, seed: u64, plies: usize) {
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut pos = Position::new(n, h).unwrap();
    for _ in 0..plies {
        check(&pos);
        let moves = Rules::legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        let mv = moves[(next() % moves.len() as u64) as usize];
        Rules::play(&mut pos, mv);
    }
    check(&pos);
}

fn check(pos: &Position) {
    assert!(pos.is_physically_valid(), "{pos}");
    for cell in pos.cells() {
        if pos.cube_at(cell).is_none() {
            assert_eq!(pos.is_movable(cell), None);
            continue;
        }
        let movable = pos.is_movable(cell).unwrap();
        let two_faces = pos.exposed_faces(cell).unwrap() >= 2;
        let one_column = pos.columns_supported(cell).unwrap() <= 1;
        assert_eq!(movable, two_faces, "{cell} in {pos}");
        assert_eq!(movable, one_column, "{cell} in {pos}");
    }
    let on_board: u32 = Colour::ALL.iter().map(|&c| pos.cube_count(c)).sum();
    let reserves: u32 = Colour::ALL
        .iter()
        .map(|&c| u32::from(pos.reserves(c)))
        .sum();
    assert_eq!(
        on_board + reserves,
        2 * u32::from(games::ankor::tetrahedral(pos.size()).div_ceil(2) as u8)
    );
    // The text round-trips, and the read position plays the same (history aside).
    let text = pos.to_string();
    let read: Position = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(read.to_string(), text);
    assert_eq!(read.winner(), pos.winner());
    if !pos.is_over() {
        assert_eq!(Rules::legal_moves(&read), Rules::legal_moves(pos), "{text}");
    }
    // Every legal move reads back from its text as itself.
    for mv in Rules::legal_moves(pos) {
        assert_eq!(pos.parse_move(&mv.to_string()), Ok(mv));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_play_keeps_positions_valid(n in 3u8..=8, h in -1i8..=1, seed: u64, plies in 0usize..200) {
        random_play(n, h, seed, plies);
    }

    #[test]
    fn position_reader_never_panics(text in ".{0,80}") {
        let _ = GameKind::Ankor.parse_position(&text);
    }

    #[test]
    fn position_reader_never_panics_on_near_misses(
        n in "[0-9]",
        h in "-?[0-2]",
        cells in "[ox./]{0,60}",
        side in "[oxy]",
        r in "[0-9]{1,3} [0-9]{1,3} [0-9]{1,4}",
    ) {
        let _ = GameKind::Ankor.parse_position(&format!("ankor {n} {h} {cells} {side} {r}"));
    }

    #[test]
    fn move_reader_never_panics(text in "\\PC{0,12}|[a-iA-I][0-9]['^0-9]{0,4}(-?[a-i][0-9]['^0-9]{0,4})?") {
        let pos = Position::new(6, 1).unwrap();
        let _ = pos.parse_move(&text);
        let _ = <Position as Rules>::parse_move_text(&text);
    }
}
