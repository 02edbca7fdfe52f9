//! `ataxx perft` for each variant through the games seam.

use crate::common::{ataxx, stdout_of};

fn nodes_per_depth(out: &str) -> Vec<u64> {
    out.lines()
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let at = words.iter().position(|w| *w == "nodes").expect(line);
            words[at + 1].parse().expect(line)
        })
        .collect()
}

#[test]
fn hexxagon_start_counts_match_the_spec() {
    let out = stdout_of(&["perft", "--variant", "hexxagon", "--depth", "3"]);
    assert_eq!(nodes_per_depth(&out), [24, 570, 16824], "{out}");
    let out = stdout_of(&[
        "perft",
        "--variant",
        "hexxagon",
        "--fen",
        "x3o/6/7/4-3/o2-4x/4-3/7/6/x3o x 0 1",
        "--depth",
        "3",
        "--json",
    ]);
    let last: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(last["depth"], 3);
    assert_eq!(last["nodes"], 16548);
}

#[test]
fn hexxagon_divide_sums_to_the_total() {
    let out = stdout_of(&["perft", "--variant", "Hexxagon", "--depth", "3", "--divide"]);
    // Singles by destination, jumps as from+to, as on the square board.
    assert!(out.lines().any(|l| l.starts_with("b2 ")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("a1c3 ")), "{out}");
    assert!(out.ends_with("\nmoves 24\nnodes 16824\n"), "{out}");
}

#[test]
fn square_ataxx_is_the_default_and_unchanged() {
    let out = stdout_of(&["perft", "--depth", "3"]);
    assert_eq!(nodes_per_depth(&out), [16, 256, 6460], "{out}");
    let out = stdout_of(&[
        "perft",
        "--variant",
        "ataxx",
        "--fen",
        "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
        "--depth",
        "2",
        "--divide",
    ]);
    assert!(out.ends_with("\nmoves 14\nnodes 196\n"), "{out}");
}

#[test]
fn bad_variants_and_fens_are_named() {
    let out = ataxx(&["perft", "--variant", "chess", "--depth", "1"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown game \"chess\"") && err.contains("hexxagon"),
        "{err}"
    );
    let out = ataxx(&[
        "perft",
        "--variant",
        "hexxagon",
        "--fen",
        "x5o/7/7/7/7/7/o5x",
        "--depth",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("covers 7 cells; expected 4"), "{err}");
}
