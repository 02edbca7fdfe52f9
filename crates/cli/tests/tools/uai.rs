//! UAI conversations with the real `ataxx uai` binary through pipes (spec section 6).

use std::process::Command;
use std::thread;
use std::time::{Duration, Instant};

use ataxx::{Move, Position};

use crate::common::uai_pipe::Engine;

const SECOND: Duration = Duration::from_secs(1);

/// The next `bestmove`, read in strict notation.
fn bestmove(engine: &mut Engine, timeout: Duration) -> (Move, Vec<String>) {
    let (text, lines) = engine.bestmove(timeout);
    (text.parse().expect("strict move text"), lines)
}

#[test]
fn cuteataxx_conversation_gets_uaiok_readyok_and_a_legal_move_in_time() {
    let mut engine = Engine::start(&["uai"]);
    engine.send("uai");
    let intro = engine.expect_line("uaiok", 5 * SECOND);
    assert!(intro.iter().any(|l| l.starts_with("id name ")), "{intro:?}");
    assert!(intro
        .iter()
        .any(|l| l.starts_with("option name Hash type spin")));
    engine.send("setoption name hash value 32");
    engine.send("setoption name threads value 1");
    engine.send("setoption name UCI_Opponent value none 2000 computer waxx");
    engine.send("isready");
    engine.expect_line("readyok", 5 * SECOND);
    let mut pos = Position::startpos();
    for ply in 0..6 {
        if ply % 3 == 0 {
            engine.send("uainewgame");
            engine.send("isready");
            engine.expect_line("readyok", 5 * SECOND);
        }
        engine.send(&format!("position fen {pos}"));
        engine.send("isready");
        engine.expect_line("readyok", SECOND);
        let started = Instant::now();
        engine.send("go btime 1000 wtime 1000 binc 10 winc 10");
        let (mv, lines) = bestmove(&mut engine, 2 * SECOND);
        let elapsed = started.elapsed();
        assert!(
            elapsed < Duration::from_millis(500),
            "took {elapsed:?} of a 1 s clock"
        );
        assert!(pos.is_legal(mv), "{mv} in {pos}");
        let info = lines
            .iter()
            .find(|l| l.starts_with("info "))
            .expect("info lines");
        assert!(
            info.contains(" score cp ") && info.contains(" pv "),
            "{info}"
        );
        pos.play(mv).unwrap();
    }
    engine.send("stop");
    engine.quit();
}

#[test]
fn forced_pass_answers_bestmove_0000() {
    let mut engine = Engine::start(&["uai"]);
    engine.send("position fen 7/7/7/7/4ooo/4ooo/4oox x 0 1");
    engine.send("go depth 3");
    assert_eq!(bestmove(&mut engine, 5 * SECOND).0, Move::Pass);
    engine.send("go movetime 50");
    assert_eq!(bestmove(&mut engine, 5 * SECOND).0, Move::Pass);
    engine.quit();
}

#[test]
fn garbage_is_ignored_without_a_crash() {
    let mut engine = Engine::start(&["uai"]);
    for line in [
        "",
        "   \t  ",
        "hello engine",
        "uai extra tokens",
        "setoption",
        "setoption name",
        "setoption name Hash value lots",
        "setoption name Clear Hash",
        "setoption name Threads value 0",
        "setoption name Threads value many",
        "position",
        "position fen",
        "position fen 9/9 x",
        "position startpos moves a1a1 zz",
        "position fen x5o/7/7/7/7/7/o5x x 0 1 moves",
        "go nodes x simulations 800 wtime",
        "ponderhit",
        "stop",
        "\u{7f}\u{0}binary",
    ] {
        engine.send(line);
    }
    engine.expect_line("uaiok", 5 * SECOND);
    engine.send("isready");
    engine.expect_line("readyok", 5 * SECOND);
    // The last good position is the start; moves after it are applied with the tolerant reader.
    engine.send("position startpos moves g2 a1-b2");
    engine.send("go nodes 2000 simulations 2000");
    let (mv, _) = bestmove(&mut engine, 5 * SECOND);
    let mut pos = Position::startpos();
    pos.play("g2".parse().unwrap()).unwrap();
    pos.play("b2".parse().unwrap()).unwrap();
    assert!(pos.is_legal(mv), "{mv} in {pos}");
    engine.quit();
}

#[test]
fn isready_is_answered_during_go_infinite_and_stop_ends_it() {
    let mut engine = Engine::start(&["uai"]);
    engine.send("position startpos");
    engine.send("go infinite");
    thread::sleep(Duration::from_millis(200));
    engine.send("isready");
    let lines = engine.expect_line("readyok", SECOND);
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    // Nothing but info lines until stop.
    assert!(engine
        .lines
        .recv_timeout(Duration::from_millis(300))
        .map_or(true, |l| l.starts_with("info")));
    engine.send("stop");
    let (mv, _) = bestmove(&mut engine, SECOND);
    assert!(Position::startpos().is_legal(mv));
    // A second game in the same process.
    engine.send("uainewgame");
    engine.send("position fen x5o/7/7/7/7/7/o5x o 0 1");
    engine.send("go movetime 100");
    let (mv, _) = bestmove(&mut engine, 2 * SECOND);
    assert!("x5o/7/7/7/7/7/o5x o 0 1"
        .parse::<Position>()
        .unwrap()
        .is_legal(mv));
    engine.quit();
}

#[test]
fn quit_during_a_search_exits() {
    let mut engine = Engine::start(&["uai"]);
    engine.send("go infinite");
    thread::sleep(Duration::from_millis(100));
    engine.quit();
}

#[test]
fn bench_signature_is_the_same_on_every_run() {
    let signature = || {
        let out = Command::new(env!("CARGO_BIN_EXE_ataxx"))
            .args(["bench", "--depth", "5"])
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        let last = text.lines().last().unwrap().to_string();
        last.split(" nodes").next().unwrap().parse::<u64>().unwrap()
    };
    let first = signature();
    assert!(first > 1000);
    assert_eq!(first, signature());
}

#[test]
fn threads_are_offered_set_and_refused_out_of_range() {
    let mut engine = Engine::start(&["uai"]);
    engine.send("uai");
    let says = |lines: &[String], wanted: &str| {
        assert!(
            lines.iter().any(|l| l == wanted),
            "{wanted:?} not in {lines:?}"
        );
    };
    says(
        &engine.expect_line("uaiok", 5 * SECOND),
        "option name Threads type spin default 1 min 1 max 256",
    );
    engine.send("setoption name Threads value 0");
    engine.send("isready");
    says(
        &engine.expect_line("readyok", 5 * SECOND),
        "info string Threads must be 1 to 256, not \"0\"",
    );
    // Two threads search and answer in time.
    engine.send("setoption name Threads value 2");
    engine.send("position startpos moves g2");
    let started = Instant::now();
    engine.send("go movetime 200");
    let (mv, _) = bestmove(&mut engine, 5 * SECOND);
    assert!(started.elapsed() < Duration::from_millis(1_000));
    let mut pos = Position::startpos();
    pos.play("g2".parse().unwrap()).unwrap();
    assert!(pos.is_legal(mv), "{mv} in {pos}");
    engine.quit();
}
