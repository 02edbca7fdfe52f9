//! The spec's Hexxagon perft table (`variants.md` 1.4), every given depth. Tests build with
//! opt-level 3, so depth 5 (16,906,239 leaves) takes well under a second.

use games::hexxagon::{perft, Position};
use games::GameKind;

#[test]
fn spec_perft_table() {
    let table: [(&str, &[u64]); 3] = [
        (
            "x3o/6/7/8/o7x/8/7/6/x3o x 0 1",
            &[1, 24, 570, 16824, 492714, 16906239],
        ),
        (
            "x3o/6/7/4-3/o2-4x/4-3/7/6/x3o x 0 1",
            &[1, 24, 570, 16548, 476406],
        ),
        ("x3o/6/7/8/o7x/8/7/6/x3o x 99 1", &[1, 24, 216, 6714]),
    ];
    for (fen, counts) in table {
        let pos: Position = fen.parse().unwrap();
        let any = GameKind::Hexxagon.parse_position(fen).unwrap();
        for (depth, &expected) in counts.iter().enumerate() {
            assert_eq!(perft(&pos, depth as u32), expected, "{fen} depth {depth}");
            if depth <= 4 {
                assert_eq!(
                    any.perft(depth as u32),
                    expected,
                    "seam: {fen} depth {depth}"
                );
            }
        }
    }
}

#[test]
fn the_start_options_give_the_table_s_positions() {
    let classic = GameKind::Hexxagon
        .start(&games::StartOptions {
            size: None,
            blocks: Some("classic".into()),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(classic.perft(3), 16548);
    let divided = classic.divide(3);
    assert_eq!(divided.len(), 24);
    assert_eq!(divided.iter().map(|d| d.1).sum::<u64>(), 16548);
}
