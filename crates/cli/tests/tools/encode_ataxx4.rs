//! `ataxx encode` / `ataxx decode` for four-player boards (the 19-byte board of spec
//! `variants.md` 2.5).

use crate::common::{ataxx, stdout_of};

const START_HEX: &str = "02000c00000000000000000000000040010004";

#[test]
fn encode_detects_four_player_fens_by_their_letters() {
    assert_eq!(
        stdout_of(&["encode", "r5b/7/7/7/7/7/y5g r 0 1"]),
        format!("{START_HEX}\n")
    );
    // Only the side field says four-player here; the flag says it for a bare board.
    let empty = stdout_of(&["encode", "7/7/7/7/7/7/7 g"]);
    assert_eq!(empty, format!("{}\n", "0".repeat(38)));
    assert_eq!(
        stdout_of(&["encode", "--variant", "ataxx4", "7/7/7/7/7/7/7"]),
        empty
    );
    assert_eq!(
        stdout_of(&["encode", "--variant", "ataxx4", "startpos"]),
        format!("{START_HEX}\n")
    );
    // Two-player FENs are unchanged.
    assert_eq!(
        stdout_of(&["encode", "x5o/7/7/7/7/7/o5x"]),
        "0120000000000000000000000210\n"
    );
}

#[test]
fn decode_needs_the_variant_and_round_trips() {
    let fen = "r5b/7/2-1-2/7/2-1-2/y6/y5g b 4 9";
    let hex = stdout_of(&["encode", fen]);
    let decoded = stdout_of(&["decode", "--variant", "ataxx4", hex.trim()]);
    assert!(decoded.starts_with("7 r . . . . . b\n"), "{decoded}");
    // The board comes back; the colour to move and the counters are not in the 19 bytes.
    assert!(
        decoded.ends_with("\nr5b/7/2-1-2/7/2-1-2/y6/y5g r 0 1\n"),
        "{decoded}"
    );
    // Spaces between bytes, and an out red: the first colour in play moves.
    let spaced: Vec<String> = (0..19)
        .map(|i| START_HEX[2 * i..2 * i + 2].to_string())
        .collect();
    let mut args = vec!["decode", "--variant", "ataxx4"];
    args.extend(spaced.iter().map(String::as_str));
    assert!(stdout_of(&args).ends_with("\nr5b/7/7/7/7/7/y5g r 0 1\n"));
    let no_red = stdout_of(&["encode", "6b/7/7/7/7/7/y5g b"]);
    assert!(stdout_of(&["decode", "--variant", "ataxx4", no_red.trim()])
        .ends_with("\n6b/7/7/7/7/7/y5g b 0 1\n"));
}

#[test]
fn bad_input_exits_2_with_a_reason() {
    let cases: [(&[&str], &str); 8] = [
        (
            &["encode", "r3b/5/5/5/y3g"],
            "holds 7x7 boards only; this board is 5x5",
        ),
        (
            &["encode", "r5b/7/7/7/7/7/y5x"],
            "rank 1, character 3 is 'x'",
        ),
        (
            &["encode", "--message", "r5b/7/7/7/7/7/y5g"],
            "drop --message",
        ),
        (
            &["encode", "--variant", "chess", "startpos"],
            "unknown game",
        ),
        (
            &["decode", START_HEX],
            "a four-player board needs --variant ataxx4",
        ),
        (
            &[
                "decode",
                "--variant",
                "ataxx4",
                "0600000000000000000000000000000000000000",
            ],
            "expected 19 bytes (38 hex digits), found 20",
        ),
        (
            &[
                "decode",
                "--variant",
                "ataxx4",
                "06000c00000000000000000000000040010004",
            ],
            "cell a7 has code 6",
        ),
        (
            &[
                "decode",
                "--variant",
                "ataxx4",
                "02000c00000000000000000000000040010084",
            ],
            "bits 3-7 of byte 18",
        ),
    ];
    for (args, reason) in cases {
        let out = ataxx(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(reason), "{args:?}: {stderr}");
    }
}
