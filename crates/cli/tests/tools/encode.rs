//! `ataxx encode` / `ataxx decode` against the spec's 14-byte vectors.

use crate::common::{ataxx, stdout_of};

const VECTORS: [(&str, &str); 4] = [
    (
        "x5o/7/7/7/7/7/o5x",
        "01 20 00 00 00 00 00 00 00 00 00 00 02 10",
    ),
    (
        "x5o/7/2-1-2/7/2-1-2/7/o5x",
        "01 20 00 00 30 03 00 00 30 03 00 00 02 10",
    ),
    (
        "7/7/7/7/4ooo/4ooo/4oox",
        "00 00 00 00 00 00 00 00 00 2a 00 2a 00 1a",
    ),
    (
        "2ooox1/xxooooo/xxoxxoo/ooxxxoo/xxxxxoo/xxxoxxx/1xxoxxx",
        "a0 06 a5 2a 65 29 5a 29 55 29 95 15 94 15",
    ),
];

#[test]
fn encode_and_decode_the_spec_vectors() {
    for (fen, hex) in VECTORS {
        assert_eq!(
            stdout_of(&["encode", fen]),
            format!("{}\n", hex.replace(' ', ""))
        );
        let spaced: Vec<&str> = hex.split(' ').collect();
        let decoded = stdout_of(&[&["decode"], spaced.as_slice()].concat());
        assert!(decoded.ends_with(&format!("\n{fen} x 0 1\n")), "{decoded}");
        assert!(decoded.starts_with("7 "), "a diagram first: {decoded}");
    }
}

#[test]
fn message_keeps_side_and_counters() {
    let fen = "x5o/7/2-1-2/7/2-1-2/7/o5x o 3 12";
    let hex = stdout_of(&["encode", "--message", fen]);
    assert_eq!(hex, "01200000300300003003000002100203000c00\n");
    assert!(stdout_of(&["decode", hex.trim()]).ends_with(&format!("\n{fen}\n")));
}

#[test]
fn bad_input_exits_2_with_a_reason() {
    let cases: [(&[&str], &str); 5] = [
        (&["encode", "x6o/8/8/8/8/8/8/o6x"], "7x7"),
        (&["encode", "x5o/7/7/7/7/o5x"], "rank"),
        (&["decode", "0120"], "expected 28"),
        (&["decode", "0120000000000000000000000250"], "bit 14 or 15"),
        (
            &["decode", "0 120000000000000000000000210"],
            "not hex bytes",
        ),
    ];
    for (args, reason) in cases {
        let out = ataxx(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(reason), "{args:?}: {stderr}");
    }
}
