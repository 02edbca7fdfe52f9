//! `ataxx train`: trains a loadable net from datagen records, resumes from its checkpoint, and
//! refuses bad input with a message.

use std::path::Path;
use std::process::{Command, Output};

use ataxx::Position;
use engine::nnue::{Activation, Network, Shape};

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../engine/tests/fixtures/selfplay.games.zst"
);

fn train(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ataxx"))
        .arg("train")
        .args(args)
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn train_writes_a_net_each_epoch_and_resumes_from_its_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let net = dir.path().join("n.nnue");
    let net_arg = net.to_str().unwrap();
    let common = ["--batch-size", "512", "--validation", "0.2"];
    let first = train(&[&[FIXTURE, "-o", net_arg, "--epochs", "1"], &common[..]].concat());
    assert!(first.status.success(), "{}", stderr(&first));
    let text = stderr(&first);
    assert!(text.contains("epoch 1: train loss"), "{text}");
    assert!(text.contains("validation loss by epoch"), "{text}");
    assert!(Path::new(&format!("{net_arg}.ckpt")).exists());
    let after_one = Network::load(&net).unwrap();

    let second = train(&[&[FIXTURE, "-o", net_arg, "--epochs", "2"], &common[..]].concat());
    assert!(second.status.success(), "{}", stderr(&second));
    let text = stderr(&second);
    assert!(
        text.contains("after epoch 1") && text.contains("epoch 2: train loss"),
        "{text}"
    );
    assert!(!text.contains("epoch 1: train loss"), "{text}");
    // The net changed, and scores a position like any evaluation.
    let after_two = Network::load(&net).unwrap();
    let pos = Position::startpos();
    assert_ne!(after_one.to_bytes(), after_two.to_bytes());
    assert!(after_two.evaluate_position(&pos).abs() < 10_000);

    // Other settings do not continue that run.
    let other = train(
        &[
            &[FIXTURE, "-o", net_arg, "--epochs", "3", "--seed", "9"],
            &common[..],
        ]
        .concat(),
    );
    assert!(!other.status.success());
    assert!(
        stderr(&other).contains("seed differs"),
        "{}",
        stderr(&other)
    );
}

#[test]
fn train_reads_every_data_file_under_a_directory_and_counts_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    std::fs::create_dir_all(corpus.join("more")).unwrap();
    // The same games twice (in a subdirectory too), and a file that is not data.
    std::fs::copy(FIXTURE, corpus.join("a.games.zst")).unwrap();
    std::fs::copy(FIXTURE, corpus.join("more/b.games.zst")).unwrap();
    std::fs::write(corpus.join("README.md"), "not data").unwrap();
    // And one short game on a blocked layout (the fixture's games are all on the open board).
    let blocked_start = "x".parse::<ataxx::Layout>().unwrap().start_position();
    let mut plies = Vec::new();
    let mut pos = blocked_start;
    for _ in 0..6 {
        let mv = pos.legal_moves()[0];
        plies.push(engine::data::Ply::Searched { mv, score: 0 });
        pos.play_unchecked(mv);
    }
    let blocked_chunk = engine::data::Chunk {
        settings: "a blocked game".into(),
        games: vec![engine::data::GameRecord {
            start: blocked_start,
            plies,
            winner: None,
        }],
    };
    std::fs::write(
        corpus.join("c.games.zst"),
        blocked_chunk.to_bytes().unwrap(),
    )
    .unwrap();
    let fixture = engine::data::Chunk::from_bytes(&std::fs::read(FIXTURE).unwrap())
        .unwrap()
        .records()
        .unwrap();
    let records: Vec<_> = [
        &fixture[..],
        &fixture[..],
        &blocked_chunk.records().unwrap(),
    ]
    .concat();
    let distinct = records
        .iter()
        .map(|r| (r.x, r.o, r.blocked, r.turn))
        .collect::<std::collections::HashSet<_>>()
        .len();
    let net = dir.path().join("n.nnue");
    let out = train(&[
        corpus.to_str().unwrap(),
        "-o",
        net.to_str().unwrap(),
        "--epochs",
        "1",
        "--batch-size",
        "512",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let expected = format!(
        "3 files, 121 games, {} positions, {distinct} distinct ({:.2} % duplicates)",
        records.len(),
        100.0 * (1.0 - distinct as f64 / records.len() as f64)
    );
    assert!(stderr(&out).contains(&expected), "{}", stderr(&out));
    // The fixture's 60 games start from 4 book positions, 4 random plies each; one more start.
    let starts = records
        .iter()
        .filter(|r| r.first_of_game)
        .map(|r| (r.x, r.o, r.blocked, r.turn))
        .collect::<std::collections::HashSet<_>>()
        .len();
    // The six positions of the blocked game.
    let blocked = records.iter().filter(|r| r.blocked != 0).count();
    assert_eq!(blocked, 6);
    assert!(
        stderr(&out).contains(&format!(
            "; {starts} distinct starts; 6 positions on blocked boards ({:.1} %)",
            600.0 / records.len() as f64
        )),
        "{}",
        stderr(&out)
    );
}

#[test]
fn train_reports_unreadable_data() {
    let dir = tempfile::tempdir().unwrap();
    let torn = dir.path().join("torn.bin");
    std::fs::write(&torn, [0u8; 40]).unwrap();
    let out = train(&[torn.to_str().unwrap(), "-o", "/dev/null"]);
    assert!(!out.status.success());
    let text = stderr(&out);
    assert!(text.contains("torn.bin"), "{text}");
}

#[test]
fn train_takes_the_hidden_width_and_activation_and_refuses_bad_ones() {
    let dir = tempfile::tempdir().unwrap();
    let net = dir.path().join("wide.nnue");
    let net_arg = net.to_str().unwrap();
    let common = [
        "--batch-size",
        "512",
        "--validation",
        "0.2",
        "--epochs",
        "1",
    ];
    let out = train(
        &[
            &[
                FIXTURE,
                "-o",
                net_arg,
                "--hidden",
                "32",
                "--activation",
                "screlu",
            ],
            &common[..],
        ]
        .concat(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let shape = Network::load(&net).unwrap().shape();
    assert_eq!(
        shape,
        Shape::new(32, Activation::SquaredClippedRelu).unwrap()
    );

    let narrow = dir.path().join("narrow.nnue");
    let odd = train(
        &[
            &[FIXTURE, "-o", narrow.to_str().unwrap(), "--hidden", "100"],
            &common[..],
        ]
        .concat(),
    );
    assert!(!odd.status.success());
    assert!(
        stderr(&odd).contains("100 hidden units"),
        "{}",
        stderr(&odd)
    );
    let unknown = train(&[
        FIXTURE,
        "-o",
        narrow.to_str().unwrap(),
        "--activation",
        "tanh",
    ]);
    assert!(!unknown.status.success());
    assert!(stderr(&unknown).contains("tanh"), "{}", stderr(&unknown));
    assert!(!narrow.exists());
}
