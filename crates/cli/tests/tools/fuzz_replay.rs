//! Replays the fuzzers' committed corpora and every crash they found (`fuzz/corpus/<target>/`,
//! `fuzz/regressions/<target>/`) through the same checks the fuzz targets run, on stable Rust:
//! `cargo test` keeps each finding fixed without nightly or cargo-fuzz. docs/fuzzing.md.

#[path = "../../../../fuzz/checks.rs"]
mod checks;

use std::path::Path;

fn inputs(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = match std::fs::read_dir(dir) {
        Ok(entries) => entries.map(|e| e.unwrap().path()).collect(),
        Err(_) => vec![],
    };
    files.retain(|p| p.is_file());
    files.sort();
    files
}

#[test]
fn every_corpus_and_crash_input_passes_its_check() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut replayed = 0;
    for (target, check) in checks::CHECKS {
        for kind in ["regressions", "corpus"] {
            for file in inputs(&fuzz.join(kind).join(target)) {
                let data = std::fs::read(&file).unwrap();
                let outcome = std::panic::catch_unwind(|| check(&data));
                assert!(
                    outcome.is_ok(),
                    "{target}: {} fails its check",
                    file.display()
                );
                replayed += 1;
            }
        }
    }
    assert!(replayed > 0, "no corpus found under {}", fuzz.display());
}
