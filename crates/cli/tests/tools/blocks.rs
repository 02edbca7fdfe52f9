//! `ataxx blocks` against seed 000's and seed 002's numbers.

use crate::common::{ataxx, stdout_of};

#[test]
fn canonical_lists_match_seed_000() {
    let seed = [
        "0",
        "x",
        "1 2 3",
        "1x 2x 3x",
        "12 13 14 15 16 23 25 26 36 a b c g h",
    ];
    for (blocks, expected) in seed.into_iter().enumerate() {
        let n = blocks.to_string();
        let listed = stdout_of(&["blocks", "list", "--canonical", "--blocks", &n]);
        let codes: Vec<&str> = listed
            .lines()
            .map(|line| line.split(' ').next().unwrap())
            .collect();
        assert_eq!(codes.join(" "), expected, "{blocks} blocks");
    }
}

#[test]
fn list_lines_carry_mask_and_block_count() {
    let listed = stdout_of(&["blocks", "list", "--blocks", "14"]);
    assert!(
        listed.lines().any(|line| line == "6bch 0x0F00 14"),
        "{listed}"
    );
}

#[test]
fn counts_match_seed_002_and_the_spec() {
    let count = |args: &[&str]| stdout_of(args).trim().to_string();
    assert_eq!(
        count(&["blocks", "list", "--max-bits", "6", "--count"]),
        "9949"
    );
    assert_eq!(count(&["blocks", "list", "--count"]), "32768");
    assert_eq!(
        count(&["blocks", "list", "--canonical", "--count"]),
        "16640"
    );
}

#[test]
fn show_reads_codes_masks_and_fens() {
    let shown = stdout_of(&["blocks", "show", "efh"]);
    for line in [
        "canonical  bch",
        "twin       bch",
        "weight     0",
        "blocks     12",
    ] {
        assert!(shown.contains(line), "{line:?} in {shown}");
    }
    let shown = stdout_of(&["blocks", "show", "0x01a2"]);
    assert!(
        shown.contains("code       5bdg") && shown.contains("canonical  2aeg"),
        "{shown}"
    );
    let shown = stdout_of(&["blocks", "show", "x5o/7/-------/7/-------/7/o5x x 0 1"]);
    assert!(
        shown.contains("code       6bch") && shown.contains("mask       0x0F00"),
        "{shown}"
    );
    assert!(shown.contains("5 - - - - - - -\n"), "{shown}");
    let json = stdout_of(&["blocks", "show", "--json", "h"]);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["fen"], "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1");
    assert_eq!(value["mask"], "0x0400");
}

#[test]
fn bad_layouts_exit_2_with_a_reason() {
    let cases: [(&[&str], &str); 5] = [
        (&["blocks", "show", "12z"], "character 3 is 'z'"),
        (&["blocks", "show", "0x0001"], "bit 0"),
        (&["blocks", "show", "0xbeefy"], "1 to 4 hex digits"),
        (
            &["blocks", "show", "x5o/7/2-4/7/2-1-2/7/o5x"],
            "not mirror-symmetric",
        ),
        (&["blocks", "list", "--blocks", "many"], "invalid value"),
    ];
    for (args, reason) in cases {
        let out = ataxx(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(reason), "{args:?}: {stderr}");
    }
}
