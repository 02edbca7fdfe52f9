//! `ataxx diagram`: Ankor's drawing of the help page's example, other games' diagrams, errors.

use crate::common::{ataxx, stdout_of};

const EXAMPLE: &str =
    "ankor 6 1 ...x.oxooxooxoo..oo../...o.xxxxo..x../...x.x..../....../.../. o 17 17 30";

#[test]
fn ankor_example_is_the_help_page_figure() {
    let out = stdout_of(&[
        "diagram",
        "--variant",
        "ankor",
        "--fen",
        EXAMPLE,
        "--last",
        "e3^2",
    ]);
    assert_eq!(
        out,
        include_str!("../../../games/tests/data/ankor-figure-exact.txt")
    );
    let plain = stdout_of(&["diagram", "--variant", "ankor", "--fen", EXAMPLE]);
    assert_eq!(plain, out.to_lowercase());
    let svg = stdout_of(&["diagram", "--variant", "ankor", "--fen", EXAMPLE, "--svg"]);
    assert!(
        svg.starts_with("<svg") && svg.contains("<title>e3'' x</title>"),
        "{svg}"
    );
}

#[test]
fn other_games_print_their_own_diagram() {
    let out = stdout_of(&["diagram", "--fen", "x5o/7/7/7/7/7/o5x x 0 1"]);
    assert!(out.contains('x') && out.contains('o'), "{out}");
}

#[test]
fn bad_input_exits_2_with_a_reason() {
    let cases: [(&[&str], &str); 5] = [
        (
            &[
                "diagram",
                "--variant",
                "ankor",
                "--fen",
                "ankor 6 1 . o 28 28 0",
            ],
            "levels",
        ),
        (
            &[
                "diagram",
                "--variant",
                "ankor",
                "--fen",
                EXAMPLE,
                "--last",
                "a1",
            ],
            "a1 holds no cube",
        ),
        (
            &[
                "diagram",
                "--variant",
                "ankor",
                "--fen",
                EXAMPLE,
                "--last",
                "c4",
            ],
            "not a hole",
        ),
        (
            &["diagram", "--variant", "chess", "--fen", EXAMPLE],
            "unknown game",
        ),
        (
            &[
                "diagram",
                "--fen",
                "x5o/7/7/7/7/7/o5x x 0 1",
                "--last",
                "a1",
            ],
            "Ankor",
        ),
    ];
    for (args, reason) in cases {
        let out = ataxx(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(reason), "{args:?}: {err}");
    }
}
