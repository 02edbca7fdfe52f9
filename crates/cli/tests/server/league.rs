//! The engine league (issue 34) through real processes: a server, and three engines joined by
//! running `ataxx bot --tournament ID` — two built-in levels (`ataxx uai --level hard` and
//! `--level easy`) and the tests' random mover in Python (tests/python/random_mover.py). The
//! league plays two cycles of its double round robin from the book's openings, colours swapped
//! within each pair; its table is counted again here from the games' own results, and must
//! order the engines as their strength does.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Instant;

use serde_json::{json, Value};

use crate::common::served::{api, command, poll, signup_and_login, Served};
use crate::common::{random_mover, served};

const BOT_PASSWORD: &str = "botpass1";

/// A running `ataxx bot` in the league, killed when dropped.
struct Engine(Child);

impl Engine {
    fn start(server: &Served, user: &str, league: i64, engine: &[&str], log: &Path) -> Engine {
        let child = Command::new(env!("CARGO_BIN_EXE_ataxx"))
            .args(["bot", "--server", &server.url(""), "--user", user])
            .args(["--password", BOT_PASSWORD])
            .args(["--tournament", &league.to_string()])
            .arg("--")
            .args(engine)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(log).unwrap())
            .spawn()
            .expect("ataxx bot starts");
        Engine(child)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The points of x and of o in a finished game.
fn points(result: &str) -> (f64, f64) {
    match result {
        "1-0" => (1.0, 0.0),
        "0-1" => (0.0, 1.0),
        "1/2-1/2" => (0.5, 0.5),
        other => panic!("a league game ended {other}"),
    }
}

#[test]
fn three_engines_run_by_ataxx_bot_play_two_cycles_and_the_table_orders_them_by_strength() {
    let began = Instant::now();
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &["--sweep-ms", "100"]);
    let creator = signup_and_login(&server, "organiser", "secret-organiser");
    let engines = ["hardbot", "easybot", "randombot"];
    for name in engines {
        signup_and_login(&server, name, BOT_PASSWORD);
    }
    let (status, league) = api(
        "POST",
        &server.url("/api/tournaments"),
        Some(&creator),
        Some(json!({"kind": "league", "name": "Engines", "rounds": 2, "clock": "2+1"})),
    );
    assert_eq!(status, 201, "{league}");
    let id = league["id"].as_i64().unwrap();
    let path = format!("/api/tournaments/{id}");
    // A league is for engines: a person may not join, and it plays only Ataxx (its book's game).
    let (status, refused) = api(
        "POST",
        &server.url(&format!("{path}/join")),
        Some(&creator),
        None,
    );
    assert_eq!(status, 400, "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("only bot accounts"),
        "{refused}"
    );
    let (status, refused) = api(
        "POST",
        &server.url("/api/tournaments"),
        Some(&creator),
        Some(json!({"kind": "league", "name": "Hex", "game": "hexxagon"})),
    );
    assert_eq!(status, 400, "{refused}");

    let ataxx = env!("CARGO_BIN_EXE_ataxx");
    let [python, mover] = random_mover();
    let commands: [Vec<&str>; 3] = [
        vec![ataxx, "uai", "--level", "hard"],
        vec![ataxx, "uai", "--level", "easy"],
        vec![&python, &mover],
    ];
    let _running: Vec<Engine> = engines
        .iter()
        .zip(&commands)
        .map(|(name, engine)| {
            let log = dir.path().join(format!("{name}.log"));
            Engine::start(&server, name, id, engine, &log)
        })
        .collect();
    poll(&server, &path, 30, |t| {
        t["players"].as_array().is_some_and(|p| p.len() == 3)
    });
    let (status, started) = api(
        "POST",
        &server.url(&format!("{path}/start")),
        Some(&creator),
        None,
    );
    assert_eq!(status, 200, "{started}");
    let finished = poll(&server, &path, 150, |t| t["status"] == "finished");
    let logs = || {
        engines
            .iter()
            .map(|name| std::fs::read_to_string(dir.path().join(format!("{name}.log"))).unwrap())
            .collect::<Vec<_>>()
            .join("\n")
    };

    // Two cycles: every two engines meet twice a cycle, as a pair of boards with colours
    // swapped, from one opening of the book; every pair of the league has its own opening.
    let book = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../books/standard.txt"),
    )
    .unwrap();
    let book_boards: BTreeSet<&str> = book
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let rounds = finished["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 2, "{finished}");
    let mut openings = BTreeSet::new();
    let mut start_fens = vec![];
    let mut results: Vec<(String, String, String)> = vec![];
    for round in rounds {
        let pairings = round["pairings"].as_array().unwrap();
        assert_eq!(pairings.len(), 6, "{round}");
        let mut met = BTreeSet::new();
        for pair in pairings.chunks(2) {
            let (first, second) = (&pair[0], &pair[1]);
            assert_eq!((&first["x"], &first["o"]), (&second["o"], &second["x"]));
            let mut names = [first["x"].as_str().unwrap(), first["o"].as_str().unwrap()];
            names.sort();
            assert!(met.insert(names), "{names:?} met twice in {round}");
            let fens: Vec<String> = pair
                .iter()
                .map(|p| {
                    let board = p["game"].as_i64().unwrap();
                    let (_, game) = api(
                        "GET",
                        &server.url(&format!("/api/games/{board}")),
                        None,
                        None,
                    );
                    assert_eq!(game["status"], "finished", "{game}");
                    assert_eq!(game["termination"], "rules", "{game}\n{}", logs());
                    assert_eq!(game["result"], p["result"], "{game}");
                    game["start_fen"].as_str().unwrap().to_string()
                })
                .collect();
            assert_eq!(fens[0], fens[1], "a pair starts from one opening");
            let placement = fens[0].split_whitespace().next().unwrap();
            assert!(
                book_boards.contains(placement),
                "{} is not in the book",
                fens[0]
            );
            assert!(openings.insert(fens[0].clone()), "{} played twice", fens[0]);
            start_fens.extend(fens);
            for p in pair {
                results.push((
                    p["x"].as_str().unwrap().to_string(),
                    p["o"].as_str().unwrap().to_string(),
                    p["result"].as_str().unwrap().to_string(),
                ));
            }
        }
        assert_eq!(met.len(), 3);
    }

    // The table, counted again: points and pentanomial pairs (index = the engine's half-points
    // in both games of a pair).
    let mut expected_points: HashMap<&str, f64> = HashMap::new();
    let mut expected_pairs: HashMap<&str, [u64; 5]> = HashMap::new();
    for pair in results.chunks(2) {
        let scores: Vec<(f64, f64)> = pair.iter().map(|(_, _, r)| points(r)).collect();
        let (a, b) = (pair[0].0.as_str(), pair[0].1.as_str());
        // a is x in the first game and o in the second.
        let a_points = scores[0].0 + scores[1].1;
        let b_points = scores[0].1 + scores[1].0;
        *expected_points.entry(a).or_default() += a_points;
        *expected_points.entry(b).or_default() += b_points;
        expected_pairs.entry(a).or_default()[(a_points * 2.0) as usize] += 1;
        expected_pairs.entry(b).or_default()[(b_points * 2.0) as usize] += 1;
    }
    let table = finished["league"].as_array().unwrap();
    let order: Vec<&str> = table.iter().map(|l| l["name"].as_str().unwrap()).collect();
    assert_eq!(order, engines, "{finished}\n{}", logs());
    for line in table {
        let name = line["name"].as_str().unwrap();
        assert_eq!(line["games"], 8, "{line}");
        assert_eq!(
            line["points"].as_f64().unwrap(),
            expected_points[name],
            "{line}"
        );
        let pentanomial: Vec<u64> = line["pentanomial"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap())
            .collect();
        assert_eq!(pentanomial, expected_pairs[name], "{line}");
        assert_eq!(line["score"].as_f64().unwrap(), expected_points[name] / 8.0);
        // Elo against the field, null only when not finite: every game won or every one lost.
        // Its 95% error is null too when the interval reaches past a score of 0 or 1.
        match line["elo"].as_f64() {
            Some(_) => assert!(
                line["error"].is_null() || line["error"].as_f64() >= Some(0.0),
                "{line}"
            ),
            None => assert!(
                [0.0, 1.0].contains(&line["score"].as_f64().unwrap()),
                "{line}"
            ),
        }
    }
    let elo = |l: &Value| {
        l["elo"]
            .as_f64()
            .unwrap_or(match l["score"].as_f64().unwrap() > 0.5 {
                true => f64::INFINITY,
                false => f64::NEG_INFINITY,
            })
    };
    assert!(elo(&table[0]) > 0.0 && elo(&table[2]) < 0.0, "{finished}");

    // The command language shows the same table.
    let shown = command(&server, &format!("tournament show {id}"));
    let text = shown["text"].as_str().unwrap();
    assert!(text.contains("Elo against the field"), "{shown}");
    let at = |name: &str| text.find(&format!(". {name}")).unwrap();
    assert!(at("hardbot") < at("easybot") && at("easybot") < at("randombot"));

    // Every game can be downloaded as PGN, with the opening it started from.
    let (status, _, pgn) = served::http("GET", &server.url(&format!("{path}/pgn")), None, None);
    assert_eq!(status, 200);
    let pgn = pgn.as_str().unwrap();
    assert_eq!(pgn.matches("[Result ").count(), 12, "{pgn}");
    for fen in &start_fens {
        assert!(
            pgn.contains(&format!("[FEN \"{fen}\"]")),
            "{fen} not in {pgn}"
        );
    }
    assert_eq!(pgn.matches("[SetUp \"1\"]").count(), 12, "{pgn}");
    eprintln!("the league took {:.1} s", began.elapsed().as_secs_f64());
}

#[test]
fn a_league_with_no_end_plays_on_until_its_creator_stops_it_after_the_cycle_in_play() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &["--sweep-ms", "100"]);
    let creator = signup_and_login(&server, "organiser", "secret-organiser");
    let engines = ["randomone", "randomtwo"];
    for name in engines {
        signup_and_login(&server, name, BOT_PASSWORD);
    }
    let (status, league) = api(
        "POST",
        &server.url("/api/tournaments"),
        Some(&creator),
        Some(json!({"kind": "league", "name": "Forever", "rounds": 0, "clock": "1+1"})),
    );
    assert_eq!(status, 201, "{league}");
    assert_eq!(league["total_rounds"], 0, "{league}");
    let id = league["id"].as_i64().unwrap();
    let path = format!("/api/tournaments/{id}");
    let [python, mover] = random_mover();
    let _running: Vec<Engine> = engines
        .iter()
        .map(|name| {
            let log = dir.path().join(format!("{name}.log"));
            let engine = [python.as_str(), mover.as_str()];
            Engine::start(&server, name, id, &engine, &log)
        })
        .collect();
    poll(&server, &path, 30, |t| {
        t["players"].as_array().is_some_and(|p| p.len() == 2)
    });
    let start = command(
        &server,
        &format!("tournament start {id} organiser secret-organiser"),
    );
    assert_eq!(start["ok"], true, "{start}");

    // Past any number it could have been given by mistake: a third cycle is paired.
    let playing = poll(&server, &path, 120, |t| t["round"].as_i64() >= Some(3));
    assert_eq!(playing["status"], "running", "{playing}");
    let text = command(&server, &format!("tournament show {id}"))["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(text.contains("with no end until stopped"), "{text}");

    // Only its creator stops it.
    let refused = command(
        &server,
        &format!("tournament stop {id} randomone {BOT_PASSWORD}"),
    );
    assert_eq!(refused["ok"], false, "{refused}");
    assert!(
        refused["text"].as_str().unwrap().contains("only organiser"),
        "{refused}"
    );
    let (status, stopped) = api(
        "POST",
        &server.url(&format!("{path}/stop")),
        Some(&creator),
        None,
    );
    assert_eq!(status, 200, "{stopped}");
    let last = stopped["round"].as_i64().unwrap();
    assert_eq!(stopped["total_rounds"], last, "{stopped}");

    // The cycle in play is played out and counts; none starts after it.
    let finished = poll(&server, &path, 60, |t| t["status"] == "finished");
    let rounds = finished["rounds"].as_array().unwrap();
    assert_eq!(rounds.len() as i64, last, "{finished}");
    for round in rounds {
        for pairing in round["pairings"].as_array().unwrap() {
            let board = pairing["game"].as_i64().unwrap();
            let (_, game) = api(
                "GET",
                &server.url(&format!("/api/games/{board}")),
                None,
                None,
            );
            assert_eq!(game["status"], "finished", "{game}");
            assert_eq!(game["termination"], "rules", "{game}");
            assert_eq!(game["result"], pairing["result"], "{game}");
        }
    }
    let games: u64 = finished["league"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["games"].as_u64().unwrap())
        .sum();
    assert_eq!(games, 2 * 2 * last as u64, "{finished}");
    let again = command(
        &server,
        &format!("tournament stop {id} organiser secret-organiser"),
    );
    assert_eq!(again["ok"], false, "{again}");
}
