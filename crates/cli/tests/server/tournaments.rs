//! Tournaments through a real `ataxx serve` (issue 34): a Swiss of seven over three rounds and
//! an arena of six, played over the text door, `POST /api/command`, the JSON API and a
//! tournament's WebSocket; every number the server shows is counted again here from the games'
//! own results.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::{json, Value};

use crate::common::served;
use crate::common::served::{
    api, command, next_where_within, poll, signup_and_login, socket, Served, TextDoor,
};

fn password(name: &str) -> String {
    format!("secret-{name}")
}

/// Ends a board with `result` through the text door: the loser resigns, or x offers a draw and
/// o accepts.
fn play_out(door: &mut TextDoor, board: i64, x: &str, o: &str, result: &str) {
    let act = |door: &mut TextDoor, who: &str, word: &str| {
        door.ok(&format!(
            "ataxx move {board} {who} {} {word}",
            password(who)
        ));
    };
    match result {
        "1-0" => act(door, o, "resign"),
        "0-1" => act(door, x, "resign"),
        _ => {
            act(door, x, "propose");
            act(door, o, "accept");
        }
    }
}

/// The result of a game as its own board tells it.
fn board_result(door: &mut TextDoor, board: i64) -> String {
    let game = door.board(board);
    assert_eq!(game["status"], "finished", "{game}");
    game["result"].as_str().unwrap().to_string()
}

/// (points of x, points of o) out of 1.
fn points(result: &str) -> (f64, f64) {
    match result {
        "1-0" => (1.0, 0.0),
        "0-1" => (0.0, 1.0),
        "1/2-1/2" => (0.5, 0.5),
        other => panic!("no result {other}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_of_seven_over_three_rounds_pairs_byes_colours_and_tie_breaks_by_the_book() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &["--sweep-ms", "100"]);
    let mut door = server.text();
    let names: Vec<String> = (1..=7).map(|i| format!("player{i}")).collect();
    // Four sign up by the text door, three by the API (and join with their tokens).
    let mut tokens = HashMap::new();
    for (i, name) in names.iter().enumerate() {
        if i < 4 {
            door.ok(&format!("signup {name} {}", password(name)));
        } else {
            tokens.insert(
                name.clone(),
                signup_and_login(&server, name, &password(name)),
            );
        }
    }
    let created = door.json(&format!(
        "tournament create swiss Autumn player1 {} rounds=3 clock=10+5 rated=no",
        password("player1")
    ));
    assert_eq!(created["ok"], true, "{created}");
    let id = created["data"]["id"].as_i64().unwrap();
    assert_eq!(created["data"]["status"], "open");
    let path = format!("/api/tournaments/{id}");
    let mut updates = socket(&server.ws(&format!("{path}/ws"))).await;
    let first = next_where_within(&mut updates, 10, |v| v["type"] == "tournament").await;
    assert_eq!(first["tournament"]["id"], id);

    for name in &names[..4] {
        let reply = command(
            &server,
            &format!("tournament join {id} {name} {}", password(name)),
        );
        assert_eq!(reply["ok"], true, "{reply}");
    }
    for name in &names[4..] {
        let (status, body) = api(
            "POST",
            &server.url(&format!("{path}/join")),
            Some(&tokens[name]),
            None,
        );
        assert_eq!(status, 200, "{body}");
    }
    // Refusals in words: joining twice, starting someone else's tournament.
    let again = door.send(&format!(
        "tournament join {id} player2 {}",
        password("player2")
    ));
    assert!(
        again.contains("in tournament") && again.contains("already"),
        "{again}"
    );
    let (status, body) = api(
        "POST",
        &server.url(&format!("{path}/start")),
        Some(&tokens["player5"]),
        None,
    );
    assert_eq!(status, 400, "{body}");
    assert!(body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("only player1"));
    door.ok(&format!(
        "tournament start {id} player1 {}",
        password("player1")
    ));

    let mut results: Vec<(i64, String, Option<String>, String)> = vec![];
    for round in 1..=3 {
        let shown = poll(&server, &path, 20, |t| {
            t["rounds"].as_array().map(Vec::len) == Some(round)
        });
        let this = &shown["rounds"][round - 1];
        assert_eq!(this["round"], round as i64);
        assert_eq!(this["pairings"].as_array().unwrap().len(), 3, "{this}");
        let bye = this["bye"].as_str().expect("a bye with seven").to_string();
        results.push((round as i64, bye, None, "bye".into()));
        for (n, pairing) in this["pairings"].as_array().unwrap().iter().enumerate() {
            let (x, o) = (
                pairing["x"].as_str().unwrap(),
                pairing["o"].as_str().unwrap(),
            );
            let board = pairing["game"].as_i64().unwrap();
            let game = door.board(board);
            assert_eq!(
                (game["x"].as_str(), game["o"].as_str()),
                (Some(x), Some(o)),
                "{game}"
            );
            let wanted = ["1-0", "0-1", "1/2-1/2"][(round + n) % 3];
            play_out(&mut door, board, x, o, wanted);
            let result = board_result(&mut door, board);
            assert_eq!(result, wanted);
            results.push((round as i64, x.to_string(), Some(o.to_string()), result));
        }
    }
    let finished = poll(&server, &path, 20, |t| t["status"] == "finished");
    // The WebSocket told of the end too.
    next_where_within(&mut updates, 20, |v| {
        v["tournament"]["status"] == "finished"
    })
    .await;

    // No pairing twice; a bye each round, to a different player each time.
    let mut met = HashSet::new();
    let mut byes = vec![];
    let mut colours: BTreeMap<&str, i32> = BTreeMap::new();
    for (_, x, o, _) in &results {
        match o {
            None => byes.push(x.clone()),
            Some(o) => {
                let mut pair = [x.clone(), o.clone()];
                pair.sort();
                assert!(met.insert(pair.clone()), "{pair:?} met twice");
                *colours.entry(x).or_default() += 1;
                *colours.entry(o).or_default() -= 1;
            }
        }
    }
    assert_eq!(byes.len(), 3);
    assert_eq!(byes.iter().collect::<HashSet<_>>().len(), 3, "{byes:?}");
    // Colours balanced: nobody had one colour twice more than the other.
    assert!(colours.values().all(|c| c.abs() <= 1), "{colours:?}");

    // Points and tie breaks counted here from the boards' results.
    let mut score: HashMap<&str, f64> = HashMap::new();
    for (_, x, o, result) in &results {
        match o {
            None => *score.entry(x).or_default() += 1.0,
            Some(o) => {
                let (px, po) = points(result);
                *score.entry(x).or_default() += px;
                *score.entry(o).or_default() += po;
            }
        }
    }
    let standings = finished["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 7);
    for line in standings {
        let name = line["name"].as_str().unwrap();
        let (mut buchholz, mut sonneborn_berger) = (0.0, 0.0);
        for (_, x, o, result) in &results {
            let Some(o) = o else { continue };
            let (mine, opponent) = match (x == name, o == name) {
                (true, _) => (points(result).0, o.as_str()),
                (_, true) => (points(result).1, x.as_str()),
                _ => continue,
            };
            buchholz += score[opponent];
            sonneborn_berger += mine * score[opponent];
        }
        assert_eq!(line["points"], json!(score[name]), "{line}");
        assert_eq!(
            line["tiebreaks"],
            json!({"buchholz": buchholz, "sonneborn_berger": sonneborn_berger}),
            "{name}"
        );
    }
    // Ordered by points, then Buchholz, then Sonneborn-Berger.
    let keys: Vec<(f64, f64, f64)> = standings
        .iter()
        .map(|l| {
            (
                l["points"].as_f64().unwrap(),
                l["tiebreaks"]["buchholz"].as_f64().unwrap(),
                l["tiebreaks"]["sonneborn_berger"].as_f64().unwrap(),
            )
        })
        .collect();
    assert!(keys.windows(2).all(|w| w[0] >= w[1]), "{keys:?}");

    // The crosstable, written here from the boards' results: each player's games round by
    // round as the opponent's place, the side and the result, `+` for a bye.
    let place: HashMap<&str, usize> = standings
        .iter()
        .enumerate()
        .map(|(i, l)| (l["name"].as_str().unwrap(), i + 1))
        .collect();
    let crosstable = finished["crosstable"].as_array().unwrap();
    assert_eq!(crosstable.len(), 7, "{finished}");
    for (line, standing) in crosstable.iter().zip(standings) {
        let name = standing["name"].as_str().unwrap();
        assert_eq!(line["name"], name);
        assert_eq!(line["place"], place[name]);
        let expected: Vec<String> = results
            .iter()
            .filter_map(|(_, x, o, result)| {
                let half = |p: f64| match p {
                    1.0 => "1",
                    0.5 => "½",
                    _ => "0",
                };
                match o {
                    None if x == name => Some("+".to_string()),
                    Some(o) if x == name => {
                        Some(format!("{}x{}", place[o.as_str()], half(points(result).0)))
                    }
                    Some(o) if o == name => {
                        Some(format!("{}o{}", place[x.as_str()], half(points(result).1)))
                    }
                    _ => None,
                }
            })
            .collect();
        let shown: Vec<String> = line["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| match g["opponent"].as_u64() {
                Some(opponent) => format!(
                    "{opponent}{}{}",
                    g["side"].as_str().unwrap(),
                    g["result"].as_str().unwrap()
                ),
                None => g["result"].as_str().unwrap().to_string(),
            })
            .collect();
        assert_eq!(shown, expected, "{name}");
    }
    // The text door shows the same table, and the list has it finished.
    let shown = door.ok(&format!("tournament show {id}"));
    assert!(
        shown.contains("Buchholz") && shown.contains("bye:") && shown.contains("Crosstable"),
        "{shown}"
    );
    let (_, list) = api("GET", &server.url("/api/tournaments"), None, None);
    assert_eq!(list[0]["status"], "finished");
    // Every game as PGN.
    let (status, _, pgn) = served::http("GET", &server.url(&format!("{path}/pgn")), None, None);
    assert_eq!(status, 200);
    assert_eq!(pgn.as_str().unwrap().matches("[Result ").count(), 9);
}

/// Arena points as lichess counts them, from a player's results in order (1, ½ or 0): 2 a win,
/// 1 a draw, doubled after two wins in a row until a game is not won.
fn arena_points(results: &[f64]) -> f64 {
    let (mut total, mut run) = (0.0, 0);
    for &r in results {
        let factor = if run >= 2 { 2.0 } else { 1.0 };
        total += factor * 2.0 * r;
        run = if r == 1.0 { run + 1 } else { 0 };
    }
    total
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_of_six_pairs_whoever_is_free_and_scores_streaks_as_lichess_does() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &["--sweep-ms", "100", "--test-clock"]);
    let mut door = server.text();
    let names: Vec<String> = (1..=6).map(|i| format!("runner{i}")).collect();
    let tokens: HashMap<String, String> = names
        .iter()
        .map(|n| (n.clone(), signup_and_login(&server, n, &password(n))))
        .collect();
    let (status, created) = api(
        "POST",
        &server.url("/api/tournaments"),
        Some(&tokens["runner1"]),
        Some(
            json!({"kind": "arena", "name": "Quick", "game": "ataxx", "minutes": 10,
                    "clock": "1+0", "rated": false}),
        ),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_i64().unwrap();
    let path = format!("/api/tournaments/{id}");
    for name in &names {
        let (status, body) = api(
            "POST",
            &server.url(&format!("{path}/join")),
            Some(&tokens[name]),
            None,
        );
        assert_eq!(status, 200, "{body}");
    }
    let (status, body) = api(
        "POST",
        &server.url(&format!("{path}/start")),
        Some(&tokens["runner1"]),
        None,
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], "running");
    assert!(body["ends_ms"].as_i64().unwrap() > body["started_ms"].as_i64().unwrap());

    // Play whatever is paired, with results that make streaks; runner6 leaves after their
    // second game and comes back; after 12 games everyone leaves and the clock runs out.
    let mut played: HashSet<i64> = HashSet::new();
    let mut games_of: HashMap<String, usize> = HashMap::new();
    let mut rejoined = false;
    let mut leaving = false;
    loop {
        let shown = poll(&server, &path, 20, |t| {
            let pending = t["rounds"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|r| r["pairings"].as_array().unwrap().clone())
                .any(|p| p["result"] == "*");
            pending || leaving
        });
        let pending: Vec<Value> = shown["rounds"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r["pairings"].as_array().unwrap().clone())
            .filter(|p| p["result"] == "*")
            .collect();
        if pending.is_empty() {
            break;
        }
        for p in pending {
            let board = p["game"].as_i64().unwrap();
            if !played.insert(board) {
                continue;
            }
            let (x, o) = (p["x"].as_str().unwrap(), p["o"].as_str().unwrap());
            // x wins unless this is the game of a pair whose number is a multiple of 4 (a draw)
            // or 5 (o wins).
            let result = match played.len() {
                n if n % 4 == 0 => "1/2-1/2",
                n if n % 5 == 0 => "0-1",
                _ => "1-0",
            };
            play_out(&mut door, board, x, o, result);
            for who in [x, o] {
                *games_of.entry(who.to_string()).or_default() += 1;
            }
        }
        if !rejoined && games_of.get("runner6").copied().unwrap_or(0) >= 2 {
            let url = server.url(&format!("{path}/withdraw"));
            let (status, body) = api("POST", &url, Some(&tokens["runner6"]), None);
            assert_eq!(status, 200, "{body}");
            let url = server.url(&format!("{path}/join"));
            let (status, body) = api("POST", &url, Some(&tokens["runner6"]), None);
            assert_eq!(status, 200, "{body}");
            rejoined = true;
        }
        if played.len() >= 12 && !leaving {
            leaving = true;
            for name in &names {
                let url = server.url(&format!("{path}/withdraw"));
                api("POST", &url, Some(&tokens[name]), None);
            }
        }
    }
    assert!(rejoined);
    // Time's up: the arena ends once nothing is in play.
    door.ok("clock advance 660");
    let finished = poll(&server, &path, 20, |t| t["status"] == "finished");

    // The standings equal a count made here from each board's own result, in pairing order.
    let mut results: HashMap<String, Vec<f64>> = HashMap::new();
    for round in finished["rounds"].as_array().unwrap() {
        for p in round["pairings"].as_array().unwrap() {
            let result = board_result(&mut door, p["game"].as_i64().unwrap());
            let (px, po) = points(&result);
            results
                .entry(p["x"].as_str().unwrap().into())
                .or_default()
                .push(px);
            results
                .entry(p["o"].as_str().unwrap().into())
                .or_default()
                .push(po);
        }
    }
    let standings = finished["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 6);
    for line in standings {
        let name = line["name"].as_str().unwrap();
        let mine = results.get(name).cloned().unwrap_or_default();
        assert_eq!(
            line["points"],
            json!(arena_points(&mine)),
            "{name}: {mine:?}"
        );
        assert_eq!(line["games"], json!(mine.len()));
    }
    let points: Vec<f64> = standings
        .iter()
        .map(|l| l["points"].as_f64().unwrap())
        .collect();
    assert!(points.windows(2).all(|w| w[0] >= w[1]), "{points:?}");
    // Somebody was on a streak: the doubling was exercised.
    assert!(results
        .values()
        .any(|r| arena_points(r) > 2.0 * r.iter().sum::<f64>()));
}
