//! Ankor: the spec's test vectors (section 7), the help page's figure, perft, the seam.

mod common;

use games::ankor::{Cell, Colour, Move, Position};
use games::{GameKind, Rules, Seat, StartOptions};

/// A size-`n` position with these cubes, `side` to move, reserves by the counts, at `ply`.
fn position(n: u8, h: i8, o: &[&str], x: &[&str], side: char, ply: u32) -> Position {
    let empty = Position::new(n, h).unwrap();
    let cells: Vec<Cell> = empty.cells().collect();
    let parse = |list: &[&str]| -> Vec<Cell> { list.iter().map(|s| s.parse().unwrap()).collect() };
    let (o, x) = (parse(o), parse(x));
    let mut text = String::new();
    for (i, cell) in cells.iter().enumerate() {
        if i > 0 && cells[i - 1].level() != cell.level() {
            text.push('/');
        }
        text.push(if o.contains(cell) {
            'o'
        } else if x.contains(cell) {
            'x'
        } else {
            '.'
        });
    }
    let r = empty.reserves(Colour::O) as usize;
    format!(
        "ankor {n} {h} {text} {side} {} {} {ply}",
        r - o.len(),
        r - x.len()
    )
    .parse()
    .unwrap()
}

const EXAMPLE_O: [&str; 11] = [
    "c3", "d2", "d2'", "d3", "e1", "e2", "e4", "e5", "e5'", "f3", "f4",
];
const EXAMPLE_X: [&str; 11] = [
    "c1", "d1", "d4", "d4'", "e2'", "e3", "e3'", "e3''", "e4'", "e5''", "f4'",
];

#[test]
fn the_help_page_example_is_won_by_x_at_heights_1_and_minus_1() {
    for (h, x_wins) in [(1, true), (-1, true), (0, false)] {
        let pos = position(6, h, &EXAMPLE_O, &EXAMPLE_X, 'o', 30);
        assert_eq!(pos.has_winning_path(Colour::X), x_wins, "H = {h}");
        assert!(!pos.has_winning_path(Colour::O), "H = {h}");
        assert_eq!(pos.winner(), x_wins.then_some(Colour::X), "H = {h}");
        let outcome = Rules::outcome(&pos);
        assert_eq!(outcome.map(|o| o.winner()), x_wins.then_some(Some(Seat(1))));
        assert_eq!(Rules::legal_moves(&pos).is_empty(), x_wins);
        let without: Vec<&str> = EXAMPLE_X.iter().copied().filter(|c| *c != "e3''").collect();
        let pos = position(6, h, &EXAMPLE_O, &without, 'x', 30);
        assert!(!pos.has_winning_path(Colour::X) && !pos.has_winning_path(Colour::O));
        assert_eq!(pos.winner(), None);
    }
}

/// Lines as the help page's HTML shows them: leading spaces gone, runs of spaces as one.
fn as_rendered(text: &str) -> Vec<String> {
    text.lines()
        .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn the_drawing_reproduces_the_help_page_figure() {
    let pos = position(6, 1, &EXAMPLE_O, &EXAMPLE_X, 'o', 30)
        .with_last_moved(Some("e3''".parse().unwrap()))
        .unwrap();
    let drawing = pos.diagram();
    // The seed keeps the figure as its HTML page renders it: spaces collapsed.
    let seed = include_str!("data/ankor-figure.txt");
    assert_eq!(as_rendered(&drawing), as_rendered(seed), "\n{drawing}");
    // The first line kept its indentation in the seed, and the spacing section 6 fixes.
    assert_eq!(drawing.lines().next(), seed.lines().next());
    assert_eq!(
        drawing,
        include_str!("data/ankor-figure-exact.txt"),
        "\n{drawing}"
    );
    assert_eq!(Rules::diagram(&pos), drawing);
}

#[test]
fn the_empty_board_is_the_help_page_ground_layout() {
    let pos = Position::new(6, 1).unwrap();
    let drawing = pos.diagram();
    assert_eq!(drawing.lines().count(), 25);
    assert_eq!(drawing.lines().next(), Some("      +---+"));
    assert_eq!(drawing.matches('.').count(), 21 * 4);
}

fn sorted(moves: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut v: Vec<String> = moves.into_iter().collect();
    v.sort();
    v
}

#[test]
fn slides_vector() {
    let pos = position(
        6,
        1,
        &["c2", "d2", "d3", "d3'"],
        &["c3", "e2", "e3"],
        'o',
        8,
    );
    let moves = Rules::legal_moves(&pos);
    assert_eq!(moves.len(), 42);
    let steps = sorted(
        moves
            .iter()
            .filter(|m| matches!(m, Move::Step { .. }))
            .map(ToString::to_string),
    );
    let mut expected = Vec::new();
    for (from, tos) in [
        ("c2", "b1,b2,c1,d1,d4,e3',e4"),
        ("d2", "b1,b2,c1,d1,d4,e4"),
        ("d3'", "b1,b2,c1,d1,d4,e3',e4"),
        ("d3", "b1,b2,c1,d1,d4,e3',e4"),
    ] {
        expected.extend(tos.split(',').map(|to| format!("{from}-{to}")));
    }
    assert_eq!(steps, sorted(expected));
    assert_eq!(
        moves.iter().filter(|m| matches!(m, Move::Place(_))).count(),
        15
    );

    let mut after = pos.clone();
    let mv = after.parse_move("d2-d4").unwrap();
    Rules::play(&mut after, mv);
    let o_cubes = sorted(
        after
            .cells()
            .filter(|&c| after.cube_at(c) == Some(Colour::O))
            .map(|c| c.to_string()),
    );
    assert_eq!(o_cubes, ["c2", "d2", "d3", "d4"]);
    let x_cubes = sorted(
        after
            .cells()
            .filter(|&c| after.cube_at(c) == Some(Colour::X))
            .map(|c| c.to_string()),
    );
    assert_eq!(x_cubes, ["c3", "e2", "e3"]);
    assert_eq!(after.last_moved().unwrap().to_string(), "d4");

    let err = pos.parse_move("d2-e3'").unwrap_err();
    assert_eq!(err.to_string(), "illegal move d2-e3': e3' rests on d2");
    let err = pos.parse_move("d3-e3''").unwrap_err();
    assert!(err.to_string().contains("not supported"), "{err}");
}

#[test]
fn perft_from_the_empty_board() {
    let pos = Position::new(6, 1).unwrap();
    assert_eq!(Rules::perft(&pos, 1), 21);
    assert_eq!(Rules::perft(&pos, 2), 441);
    // Depths 3 and 4 as the brute-force reference (tests/ankor_reference.rs) counts them.
    assert_eq!(Rules::perft(&pos, 3), 10_110);
    assert_eq!(Rules::perft(&pos, 4), 223_530);
    let any = GameKind::Ankor.start(&StartOptions::default()).unwrap();
    assert_eq!(any.perft(2), 441);
    let divided = any.divide(2);
    assert_eq!(divided.len(), 21);
    assert!(divided.iter().all(|(_, n)| *n == 21));
}

#[test]
fn swap_keeps_x_to_move_and_exchanges_seats() {
    let mut pos = GameKind::Ankor.start(&StartOptions::default()).unwrap();
    assert_eq!(pos.turn(), Seat(0));
    let first = pos.play("d3").unwrap();
    assert_eq!((first.seat, first.swaps_seats), (Seat(0), false));
    assert_eq!(pos.turn(), Seat(1));
    let swap = pos.play("SWAP").unwrap();
    assert_eq!(
        (swap.text.as_str(), swap.seat, swap.swaps_seats),
        ("swap", Seat(1), true)
    );
    assert_eq!(pos.turn(), Seat(1));
    assert_eq!(
        pos.fen(),
        "ankor 6 1 ........o............/.............../........../....../.../. x 27 28 2"
    );
    assert!(!pos.legal_moves().contains(&"swap".to_string()));
    let err = pos.play("swap").unwrap_err();
    assert!(err.to_string().contains("only X's reply"), "{err}");
    assert_eq!(pos.legal_moves().len(), 20);
}

#[test]
fn start_options_and_kind() {
    assert_eq!("ankor".parse::<GameKind>().unwrap(), GameKind::Ankor);
    assert_eq!(GameKind::Ankor.to_string(), "ankor");
    for (size, holes) in [(3, 6), (4, 10), (8, 36)] {
        let pos = GameKind::Ankor
            .start(&StartOptions {
                size: Some(size),
                win_height: Some(-1),
                ..Default::default()
            })
            .unwrap();
        assert_eq!(pos.legal_moves().len(), holes);
        assert!(pos.fen().starts_with(&format!("ankor {size} -1 ")));
    }
    let bad = |options: StartOptions| GameKind::Ankor.start(&options).unwrap_err().to_string();
    assert!(bad(StartOptions {
        size: Some(9),
        ..Default::default()
    })
    .contains("-size=9"));
    assert!(bad(StartOptions {
        win_height: Some(2),
        ..Default::default()
    })
    .contains("-win_height=2"));
    assert!(bad(StartOptions {
        blocks: Some("6bch".into()),
        ..Default::default()
    })
    .contains("no blocked"));
    let pos = GameKind::Ankor
        .parse_position("ankor 3 0 ....../.../. o 5 5 0")
        .unwrap();
    assert_eq!(pos.kind(), GameKind::Ankor);
    assert_eq!(pos.piece_counts(), vec![0, 0]);
    assert!(pos.svg(None).starts_with("<svg"));
}

#[test]
fn position_text_errors_name_what_is_wrong() {
    let cases = [
        ("ankor 6 1 ..../.../. o 28 28 0", "levels"),
        ("ankor 9 1 . o 1 1 0", "size"),
        (
            "ankor 6 2 ...................../.............../........../....../.../. o 28 28 0",
            "win height",
        ),
        (
            "ankor 6 1 ..................../.............../........../....../.../. o 28 28 0",
            "level 0 has 20 cells",
        ),
        (
            "ankor 6 1 ...................../............o../........../....../.../. o 27 28 5",
            "rests on",
        ),
        (
            "ankor 6 1 ...................../.............../........../....../.../. y 28 28 0",
            "side to move",
        ),
        (
            "ankor 6 1 o..................../.............../........../....../.../. x 28 28 3",
            "29 in all",
        ),
        (
            "ankor 6 1 ...................../.............../........../....../.../. o 28 2x 0",
            "reserves of X",
        ),
        (
            "ankor 6 1 ooo................../.............../........../....../.../. x 25 28 2",
            "3 cubes on the board after 2 plies",
        ),
        (
            "ankor 6 1 ...................../.............../........../....../.../. x 28 28 0",
            "ply 0",
        ),
        (
            "ankor 6 1 ...................q./.............../........../....../.../. o 28 28 4",
            "cell f5 is 'q'",
        ),
        ("chess 6 1 . o 28 28 0", "ankor"),
    ];
    for (text, reason) in cases {
        let err = GameKind::Ankor
            .parse_position(text)
            .unwrap_err()
            .to_string();
        assert!(err.contains(reason), "{text}: {err}");
    }
}

#[test]
fn move_text() {
    for (text, canonical) in [
        ("d3", "d3"),
        (" D3^2 ", "d3''"),
        ("d3-f4'", "d3-f4'"),
        ("d3f4^1", "d3-f4'"),
        ("pass", "0000"),
        ("0000", "0000"),
        ("Swap", "swap"),
    ] {
        assert_eq!(
            <Position as Rules>::parse_move_text(text)
                .unwrap()
                .to_string(),
            canonical
        );
    }
    for bad in [
        "", "d", "d0", "c4", "d3'''", "i1", "d3-", "d3-e3x", "d10", "d3^", "d3^12",
    ] {
        assert!(
            <Position as Rules>::parse_move_text(bad).is_err(),
            "{bad:?}"
        );
    }
    let pos = Position::new(4, 1).unwrap();
    let err = pos.parse_move("e1").unwrap_err().to_string();
    assert!(err.contains("not on the size-4 board"), "{err}");
    let err = pos.parse_move("c3'").unwrap_err().to_string();
    assert!(err.contains("level 0"), "{err}");
    let err = pos.parse_move("0000").unwrap_err().to_string();
    assert!(err.contains("only allowed when no other move"), "{err}");
}

#[test]
fn two_passes_draw_and_a_full_pyramid_deadlocks() {
    // Size 3, every cell full, H = 0: O's ground cubes touch no other O cube, X's only ground
    // cube is b1 (side C alone). Nobody can move: O passes, X passes, drawn.
    let mut pos: Position = "ankor 3 0 oxoooo/xxx/x o 0 0 10".parse().unwrap();
    assert_eq!(pos.winner(), None);
    assert_eq!(Rules::legal_moves(&pos), vec![Move::Pass]);
    Rules::play(&mut pos, Move::Pass);
    assert!(Rules::outcome(&pos).is_none());
    assert_eq!(Rules::legal_moves(&pos), vec![Move::Pass]);
    Rules::play(&mut pos, Move::Pass);
    assert!(Rules::legal_moves(&pos).is_empty());
    assert_eq!(Rules::outcome(&pos).unwrap().winner(), None);
    // The same board at H = -1: X's pyramid faces hold the apex, which touches every side.
    let pos: Position = "ankor 3 -1 oxoooo/xxx/x o 0 0 10".parse().unwrap();
    assert_eq!(pos.winner(), Some(Colour::X));
}

#[test]
fn the_third_repetition_draws() {
    // Two cubes each, far apart on a size-6 board, no reserves mattering: shuffle back and forth.
    let mut pos = position(6, 1, &["a1", "f6"], &["f1", "c2"], 'o', 10);
    let seq = ["a1-b1", "f1-e1", "b1-a1", "e1-f1"];
    let mut plays = 0;
    'outer: for _ in 0..3 {
        for text in seq {
            assert!(Rules::outcome(&pos).is_none(), "over early after {plays}");
            let mv = pos.parse_move(text).unwrap();
            Rules::play(&mut pos, mv);
            plays += 1;
            if Rules::outcome(&pos).is_some() {
                break 'outer;
            }
        }
    }
    // The start occurs again after 4 and 8 plies: the third time ends the game.
    assert_eq!(plays, 8);
    assert_eq!(Rules::outcome(&pos).unwrap().winner(), None);
    assert!(Rules::legal_moves(&pos).is_empty());
}

#[test]
fn perft_counts_the_last_ply_as_the_plain_recursion_does() {
    for (n, h, depth) in [(3, -1, 5), (4, 0, 4), (6, 1, 3)] {
        let pos = Position::new(n, h).unwrap();
        assert_eq!(
            Rules::perft(&pos, depth),
            common::plain_perft(&pos, depth),
            "size {n}"
        );
    }
    let pos = position(
        6,
        1,
        &["c2", "d2", "d3", "d3'"],
        &["c3", "e2", "e3"],
        'o',
        8,
    );
    assert_eq!(Rules::perft(&pos, 1), 42);
    assert_eq!(Rules::perft(&pos, 3), common::plain_perft(&pos, 3));
}
