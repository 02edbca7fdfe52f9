//! End-to-end tests of the games beside square Ataxx on a real `ataxx serve`: Ankor by the text
//! door and by HTTP/WebSocket (a swap, a cube move with a slide, a winner, ratings, export), a
//! whole game against a bot for Hexxagon, four-player Ataxx and Ankor, and draw/undo proposals
//! among four players. The test keeps its own copy of each game through the `games` crate.

use std::time::{Duration, Instant};

use games::ankor::{Colour, Position as AnkorPosition};
use games::{AnyPosition, Outcome, Seat};
use serde_json::{json, Value};

use crate::common::seam::{expected_ratings, kind, pick, play_and_pass};
use crate::common::served::{api, next_where, play_over_socket, socket, Served, TextDoor};
use crate::common::table::Table;

// ---------------------------------------------------------------------------------------------
// Ankor

/// The opening of the Ankor games below (size 3): alice opens as O on c2, bob swaps (and so
/// owns c2), bob's c1 climbs to c3', and bob's c3 leaves from under c3', whose cube slides down
/// into c3 (spec ankor.md 2, "Column").
const ANKOR_OPENING: [&str; 10] = [
    "c2", "swap", "b2", "c3", "a1", "c1", "b1", "c1-c3'", "c1", "c3-c2'",
];

/// Whether `mv` wins at once for the side to move.
fn wins(pos: &dyn AnyPosition, mv: &str) -> bool {
    let mut after = pos.clone_box();
    let mover = after.turn();
    after.play(mv).unwrap();
    after.outcome().and_then(|o| o.winner()) == Some(mover)
}

/// The whole Ankor line: the opening, then each side takes a winning move when it has one and
/// otherwise a seeded pick, with the first seed whose game ends in a win. The test's choices
/// only; passes are left to the server.
fn ankor_line() -> Vec<String> {
    let start = kind("ankor")
        .start(&games::StartOptions {
            size: Some(3),
            ..Default::default()
        })
        .unwrap();
    let mut opened = start.clone_box();
    for mv in ANKOR_OPENING {
        play_and_pass(&mut opened, mv);
    }
    assert!(
        opened.outcome().is_none(),
        "the opening leaves the game open"
    );
    for seed in 0..500 {
        let mut pos = opened.clone_box();
        let mut line: Vec<String> = ANKOR_OPENING.map(String::from).into();
        for ply in 0..200 {
            if pos.outcome().is_some() {
                break;
            }
            let moves = pos.legal_moves();
            let mv = match moves.iter().find(|mv| wins(&*pos, mv)) {
                Some(winning) => winning.clone(),
                None => pick(&moves, seed, ply),
            };
            play_and_pass(&mut pos, &mv);
            line.push(mv);
        }
        if pos.outcome().and_then(|o| o.winner()).is_some() {
            return line;
        }
    }
    panic!("no seed below 500 ends the test's Ankor line with a winner");
}

/// The Ankor position of a board's summary, as the `games` crate reads it.
fn ankor_position(game: &Value) -> AnkorPosition {
    game["fen"].as_str().unwrap().parse().unwrap()
}

fn cube(pos: &AnkorPosition, cell: &str) -> Option<Colour> {
    pos.cube_at(cell.parse().unwrap())
}

/// Checks the slide of the opening's last move in the server's position: c3' emptied, its cube
/// now in c3, the moved cube on c2'.
fn assert_slid(game: &Value) {
    let pos = ankor_position(game);
    assert_eq!(cube(&pos, "c3'"), None, "{game}");
    assert_eq!(
        cube(&pos, "c3"),
        Some(Colour::O),
        "the cube of c3' slid into c3"
    );
    assert_eq!(cube(&pos, "c2'"), Some(Colour::O));
    assert!(pos.is_physically_valid());
}

/// The players of a two-seat game after the seats a swap exchanged.
fn seat_names(game: &Value) -> [&str; 2] {
    [0, 1].map(|i| game["seats"][i]["name"].as_str().unwrap())
}

/// Checks a finished two-player board against the test's final position: winner, result,
/// termination, and each seat's rating change as skillratings computes it.
fn assert_rated_win(game: &Value, end: &dyn AnyPosition) -> Outcome {
    let outcome = end.outcome().expect("the test's game is over");
    let winner = outcome.winner().expect("the test's line ends in a win");
    assert_eq!(game["status"], "finished", "{game}");
    assert_eq!(game["termination"], "rules");
    assert_eq!(game["winner"], game["seats"][winner.index()]["name"]);
    assert_eq!(
        game["result"],
        if winner == Seat(0) { "1-0" } else { "0-1" }
    );
    let expected = expected_ratings(&outcome);
    for (seat, rating) in expected.iter().enumerate() {
        let change = game["seats"][seat]["rating_change"].as_f64().unwrap();
        assert!((change - (rating - 1500.0)).abs() < 1e-6, "{game}");
    }
    outcome
}

#[test]
fn an_ankor_game_by_text_commands_with_a_swap_a_slide_and_every_game_command() {
    let line = ankor_line();
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &[]);
    let mut door = server.text();
    for (user, password) in [
        ("alice", "password1"),
        ("bob", "password2"),
        ("carol", "password3"),
    ] {
        door.ok(&format!("signup {user} {password}"));
    }
    let password = |name: &str| match name {
        "alice" => "password1",
        "bob" => "password2",
        _ => "password3",
    };
    let refused = door.send("ankor challenge -win_height=2 alice bob");
    assert!(
        refused.starts_with("error: invalid challenge") && refused.contains("-win_height=2"),
        "{refused}"
    );
    let refused = door.send("ankor challenge -variant=hex alice bob");
    assert!(
        refused.contains("-variant is an option of ataxx"),
        "{refused}"
    );
    let reply = door.ok("ankor challenge -size=3 alice bob");
    assert!(reply.starts_with("Ankor Board 101"), "{reply}");
    door.ok("ankor accept 101 alice password1");
    door.ok("ankor accept 101 bob password2");
    door.ok("ankor subscribe 101 carol password3");
    let help = door.ok("ankor help");
    assert!(help.contains("-win_height"), "{help}");

    let game = door.board(101);
    assert_eq!(game["game"], "ankor");
    assert_eq!(seat_names(&game), ["alice", "bob"]);
    let mut pos = kind("ankor")
        .parse_position(game["start_fen"].as_str().unwrap())
        .unwrap();
    // The shown board is the spec's drawing of the empty size-3 board.
    let shown = door.ok("ankor show 101");
    assert!(shown.contains(&pos.diagram()), "{shown}");
    assert!(shown.contains("Subscribers: carol"), "{shown}");

    let wrong = door.send("ankor move 101 alice password1 swap");
    assert!(wrong.starts_with("error"), "swap only on move 2: {wrong}");

    for (index, mv) in line.iter().enumerate() {
        if index == 3 {
            // bob's c3, queued below and played at once after alice's b2.
            continue;
        }
        let game = door.board(101);
        assert_eq!(game["fen"].as_str().unwrap(), pos.fen());
        let mut legal: Vec<String> = serde_json::from_value(game["legal_moves"].clone()).unwrap();
        legal.sort();
        let mut mine = pos.legal_moves();
        mine.sort();
        assert_eq!(legal, mine, "legal moves of {}", pos.fen());
        let mover = seat_names(&game)[pos.turn().index()];
        assert_eq!(game["to_move"], mover);
        let number = game["ply"].as_i64().unwrap() + 1;
        match index {
            2 => {
                assert_eq!(mover, "alice");
                let queued = door.ok(&format!("ankor queue 101 bob password2 {}", line[3]));
                assert!(queued.contains("Queued c3 for bob"), "{queued}");
            }
            // A draw offer, refused.
            4 => {
                door.ok("ankor move 101 alice password1 propose");
                door.ok("ankor move 101 bob password2 reject");
                assert!(door.board(101)["proposal"].is_null());
            }
            // Preview shows a move without playing it.
            9 => {
                let preview = door.ok(&format!("ankor preview 101 {mv}"));
                assert!(preview.contains("(not played)"), "{preview}");
                assert_eq!(door.board(101)["ply"].as_i64(), Some(number - 1));
            }
            _ => {}
        }
        door.ok(&format!(
            "ankor move 101 {mover} {} {mv}#{number}",
            password(mover)
        ));
        play_and_pass(&mut pos, mv);
        match index {
            1 => assert_eq!(seat_names(&door.board(101)), ["bob", "alice"]),
            2 => {
                play_and_pass(&mut pos, &line[3]);
                assert_eq!(door.board(101)["to_move"], "alice", "bob's c3 was played");
            }
            9 => {
                let game = door.board(101);
                assert_slid(&game);
                // The cube moved last is drawn in upper case: the spec's drawing of this
                // position with c2' marked, which differs from the unmarked one.
                let marked = ankor_position(&game)
                    .with_last_moved(Some("c2'".parse().unwrap()))
                    .unwrap()
                    .diagram();
                assert_ne!(marked, ankor_position(&game).diagram());
                assert!(marked.contains("OOO"), "{marked}");
                let shown = door.ok("ankor show 101");
                assert!(shown.contains(&marked), "{shown}");
            }
            _ => {}
        }
    }
    let game = door.board(101);
    assert_eq!(game["fen"].as_str().unwrap(), pos.fen());
    let outcome = assert_rated_win(&game, &*pos);

    // Rated as Ankor only.
    let standings = door.json("ankor standings")["data"].clone();
    for (seat, rating) in expected_ratings(&outcome).iter().enumerate() {
        let name = seat_names(&game)[seat];
        let row = standings["provisional"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["userid"] == name)
            .unwrap_or_else(|| panic!("{name} in {standings}"))
            .clone();
        assert!((row["rating"].as_f64().unwrap() - rating).abs() < 1e-6);
    }
    assert_eq!(
        door.json("ataxx standings")["data"]["provisional"],
        json!([])
    );
    let history = door.ok("ankor history");
    assert!(history.contains("  101  "), "{history}");
    let winner = game["winner"].as_str().unwrap();
    assert!(history.contains(winner), "{history}");

    let pgn = door.ok("ankor pgn 101");
    for needle in [
        "[Variant \"ankor\"]".to_string(),
        format!("[Result \"{}\"]", game["result"].as_str().unwrap()),
        format!("[FinalFEN \"{}\"]", pos.fen()),
        "1. c2 swap 2. b2".to_string(),
        "c3-c2'".to_string(),
    ] {
        assert!(pgn.contains(&needle), "{needle} in {pgn}");
    }
    let record = door.ok("ankor record 101");
    assert!(record.starts_with("ankor board 101"), "{record}");
    assert!(
        record.contains("bob (o)") && record.contains("alice (x)"),
        "{record}"
    );

    // A second board with the other options, ended by resignation.
    door.start(
        "ankor challenge -size=4 -win_height=0 carol alice",
        102,
        &[("carol", "password3"), ("alice", "password1")],
    );
    let start = door.board(102);
    assert!(
        start["fen"].as_str().unwrap().starts_with("ankor 4 0 "),
        "{start}"
    );
    door.ok("ankor move 102 carol password3 b2#1");
    door.ok("ankor resign 102 alice password1");
    let resigned = door.board(102);
    assert_eq!(
        (
            &resigned["result"],
            &resigned["termination"],
            &resigned["winner"]
        ),
        (&json!("1-0"), &json!("resignation"), &json!("carol"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ankor_game_over_http_and_websocket_with_a_swap_and_a_slide() {
    let line = ankor_line();
    let (server, tokens, started) = Table::over_api(
        &[],
        &[("alice", "secret-1"), ("bob", "secret-2")],
        json!({"game": "ankor", "options": {"size": 3}}),
    );
    let [alice, bob]: [String; 2] = tokens.try_into().unwrap();
    let board = server.board;
    let mut pos = kind("ankor")
        .parse_position(started["start_fen"].as_str().unwrap())
        .unwrap();
    let ws_base = format!("ws://{}/api/games/{board}/ws", server.http);
    let mut sockets = [
        ("alice", socket(&format!("{ws_base}?token={alice}")).await),
        ("bob", socket(&format!("{ws_base}?token={bob}")).await),
    ];
    for (_, ws) in &mut sockets {
        let snapshot = next_where(ws, |v| v["type"] == "snapshot").await;
        assert_eq!(snapshot["game"]["game"], "ankor");
    }
    let mut summary = started;
    for (id, mv) in line.iter().enumerate() {
        let mover = seat_names(&summary)[pos.turn().index()].to_string();
        let guard = summary["ply"].as_i64().unwrap() + 1;
        let ws = &mut sockets
            .iter_mut()
            .find(|(name, _)| *name == mover)
            .unwrap()
            .1;
        let (event, ack) = play_over_socket(ws, json!(id), mv, guard).await;
        let plies = play_and_pass(&mut pos, mv);
        let texts: Vec<&str> = event["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| row["move"].as_str().unwrap())
            .collect();
        assert_eq!(texts, plies);
        summary = ack["game"].clone();
        assert_eq!(summary["fen"].as_str().unwrap(), pos.fen());
        match mv.as_str() {
            "swap" => assert_eq!(seat_names(&summary), ["bob", "alice"]),
            "c3-c2'" => assert_slid(&summary),
            _ => {}
        }
    }
    let (_, view) = api(
        "GET",
        &server.url(&format!("/api/games/{board}")),
        None,
        None,
    );
    assert_rated_win(&view, &*pos);
    let (status, pgn) = api(
        "GET",
        &server.url(&format!("/api/games/{board}/pgn")),
        None,
        None,
    );
    assert_eq!(status, 200);
    let pgn = pgn.as_str().unwrap();
    assert!(
        pgn.contains("[Variant \"ankor\"]") && pgn.contains(" swap "),
        "{pgn}"
    );
    let (_, user) = api("GET", &server.url("/api/users/alice"), None, None);
    assert!(user["ratings"]["ankor"]["rating"].is_number(), "{user}");
    let (status, svg) = api(
        "GET",
        &server.url(&format!("/board/{board}.svg")),
        None,
        None,
    );
    assert_eq!(status, 200);
    assert!(svg.as_str().unwrap().contains("<svg"));
}

// ---------------------------------------------------------------------------------------------
// Bots in every game

/// Plays a board to its end: the humans (name, password) make the test's seeded picks when it
/// is their turn, the bots answer on their own. Checks the server's moves against the test's
/// replay and returns the finished board.
fn play_against_bots(door: &mut TextDoor, board: i64, humans: &[(&str, &str)]) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut chosen = 0;
    loop {
        let game = door.board(board);
        if game["status"] == "challenge" {
            // The bots accept on their own, a moment after the last person did.
            assert!(Instant::now() < deadline, "the bots never accepted: {game}");
            std::thread::sleep(Duration::from_millis(10));
            continue;
        }
        if game["status"] != "active" {
            assert_eq!(game["status"], "finished", "{game}");
            return game;
        }
        assert!(Instant::now() < deadline, "the game did not end: {game}");
        let human = humans.iter().find(|(name, _)| game["to_move"] == *name);
        let Some((name, password)) = human else {
            std::thread::sleep(Duration::from_millis(10));
            continue;
        };
        let legal: Vec<String> = serde_json::from_value(game["legal_moves"].clone()).unwrap();
        let mv = pick(&legal, 3, chosen);
        chosen += 1;
        let number = game["ply"].as_i64().unwrap() + 1;
        let word = game["game"].as_str().unwrap();
        door.ok(&format!(
            "{word} move {board} {name} {password} {mv}#{number}"
        ));
    }
}

/// Replays a finished board's moves with the test's own rules: the final position and the
/// result must be the server's.
fn assert_replays(door: &mut TextDoor, game: &Value) {
    let board = game["board"].as_i64().unwrap();
    let view = door.board(board);
    let mut pos = kind(game["game"].as_str().unwrap())
        .parse_position(view["start_fen"].as_str().unwrap())
        .unwrap();
    for row in view["moves"].as_array().unwrap() {
        pos.play(row["move"].as_str().unwrap()).unwrap();
    }
    assert_eq!(view["fen"].as_str().unwrap(), pos.fen());
    let outcome = pos.outcome().expect("played to the end by the rules");
    assert_eq!(view["termination"], "rules");
    let ranks: Vec<i64> = (0..outcome.seats())
        .map(|i| i64::from(outcome.rank(Seat(i as u8))))
        .collect();
    let server_ranks: Vec<i64> = view["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["rank"].as_i64().unwrap())
        .collect();
    assert_eq!(server_ranks, ranks, "{view}");
    for seat in view["seats"].as_array().unwrap() {
        assert!(seat["rating_change"].is_number(), "{view}");
    }
}

#[test]
fn bots_play_hexxagon_four_player_ataxx_and_ankor_to_the_end() {
    let (alice, bob) = (("alice", "password1"), ("bob", "password2"));
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &[]);
    let mut door = server.text();
    door.signup(&[alice, bob]);

    // A level whose table lacks the game is refused at once, with the levels that play it
    // (its bot would only have declined; Hexxagon's case is in server.rs).
    let refused = door.send("ataxx challenge -players=4 alice bot-medium bob bot-easy");
    assert!(
        refused.starts_with(
            "error: invalid challenge: bot-medium does not play ataxx4; the levels that do: \
             bot-very-easy, bot-easy, bot-hard"
        ),
        "{refused}"
    );

    door.start(
        "hexxagon challenge -size=3 alice bot-very-easy",
        101,
        &[alice],
    );
    let hexxagon = play_against_bots(&mut door, 101, &[alice]);
    assert_replays(&mut door, &hexxagon);

    // Two bots among four seats, humans first and third.
    door.start(
        "ataxx challenge -players=4 -size=5 alice bot-very-easy bob bot-easy",
        102,
        &[alice, bob],
    );
    let four = play_against_bots(&mut door, 102, &[alice, bob]);
    assert_eq!(four["seats"].as_array().unwrap().len(), 4);
    assert_replays(&mut door, &four);

    // The bot opens; the human may swap or not, as the seeded pick falls.
    door.start("ankor challenge -size=3 bot-very-easy alice", 103, &[alice]);
    let ankor = play_against_bots(&mut door, 103, &[alice]);
    assert_replays(&mut door, &ankor);

    // The listing carries every board's seats in seat order (loaded in one query).
    let (status, listed) = api(
        "GET",
        &server.url("/api/games?player=alice&status=finished"),
        None,
        None,
    );
    assert_eq!(status, 200, "{listed}");
    let mut seats: Vec<(i64, Vec<&str>)> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let names = g["seats"].as_array().unwrap().iter();
            (
                g["board"].as_i64().unwrap(),
                names.map(|s| s["name"].as_str().unwrap()).collect(),
            )
        })
        .collect();
    seats.sort();
    assert_eq!(
        seats,
        [
            (101, vec!["alice", "bot-very-easy"]),
            (102, vec!["alice", "bot-very-easy", "bob", "bot-easy"]),
            (103, seat_names(&door.board(103)).to_vec()),
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// Proposals among four players

#[test]
fn four_players_agree_draws_and_undos_only_together_and_the_eliminated_have_no_say() {
    let players = [
        ("r1", "password1"),
        ("b2", "password2"),
        ("g3", "password3"),
        ("y4", "password4"),
    ];
    let (_server, mut door) = Table::by_text(
        &[],
        &players,
        "ataxx challenge -players=4 -size=5 r1 b2 g3 y4",
    );
    let act = |door: &mut TextDoor, seat: usize, word: &str| {
        let (name, password) = players[seat];
        door.send(&format!("ataxx move 101 {name} {password} {word}"))
    };
    // A draw offer waits for every player; one reject ends it.
    assert!(!act(&mut door, 0, "propose").starts_with("error"));
    assert!(!act(&mut door, 1, "accept").starts_with("error"));
    let proposal = door.board(101)["proposal"].clone();
    assert_eq!(proposal["agreed"], json!(["r1", "b2"]), "{proposal}");
    assert_eq!(proposal["waiting"], json!(["g3", "y4"]));
    let twice = act(&mut door, 1, "accept");
    assert!(twice.contains("accepted this proposal already"), "{twice}");
    assert!(!act(&mut door, 2, "reject").starts_with("error"));
    assert!(door.board(101)["proposal"].is_null());

    // An undo, once all four agree, takes back the last move.
    let start = door.board(101);
    let first = start["legal_moves"][0].as_str().unwrap().to_string();
    assert!(!act(&mut door, 0, &format!("{first}#1")).starts_with("error"));
    assert!(!act(&mut door, 1, "undo").starts_with("error"));
    for seat in [0, 2] {
        assert!(!act(&mut door, seat, "accept").starts_with("error"));
        assert_eq!(door.board(101)["ply"], 1, "not undone before all agree");
    }
    assert!(!act(&mut door, 3, "accept").starts_with("error"));
    let undone = door.board(101);
    assert_eq!(
        (undone["ply"].as_i64(), &undone["fen"]),
        (Some(0), &start["fen"])
    );

    // Play the test's line until a seat is eliminated with the game still on.
    let mut pos = kind("ataxx4")
        .parse_position(start["fen"].as_str().unwrap())
        .unwrap();
    let seed = (0..200)
        .find(|&seed| eliminates(&*pos, seed))
        .expect("a seed below 200 eliminates a seat before the end");
    let mut chosen = 0;
    while !pos.piece_counts().contains(&0) {
        let mv = pick(&pos.legal_moves(), seed, chosen);
        chosen += 1;
        let number = door.board(101)["ply"].as_i64().unwrap() + 1;
        let reply = act(&mut door, pos.turn().index(), &format!("{mv}#{number}"));
        assert!(!reply.starts_with("error"), "{reply}");
        play_and_pass(&mut pos, &mv);
    }
    let game = door.board(101);
    assert_eq!(game["status"], "active");
    let counts = pos.piece_counts();
    let out = counts.iter().position(|&n| n == 0).unwrap();
    let living: Vec<usize> = (0..4).filter(|&i| counts[i] > 0).collect();
    let refused = act(&mut door, out, "propose");
    assert!(refused.contains("out of this game"), "{refused}");
    assert!(!act(&mut door, living[0], "propose").starts_with("error"));
    let waiting: Vec<&str> = living[1..].iter().map(|&i| players[i].0).collect();
    assert_eq!(door.board(101)["proposal"]["waiting"], json!(waiting));
    let refused = act(&mut door, out, "accept");
    assert!(refused.contains("out of this game"), "{refused}");
    for &seat in &living[1..] {
        assert!(!act(&mut door, seat, "accept").starts_with("error"));
    }
    let drawn = door.board(101);
    assert_eq!(
        (&drawn["status"], &drawn["termination"]),
        (&json!("finished"), &json!("agreement"))
    );
    // The players still in share the first rank; the eliminated seat ranks below them.
    for (seat, row) in drawn["seats"].as_array().unwrap().iter().enumerate() {
        let rank = if seat == out {
            living.len() as i64 + 1
        } else {
            1
        };
        assert_eq!(row["rank"].as_i64(), Some(rank), "{drawn}");
    }
}

/// Whether the test's seeded line from `start` eliminates a seat while the game goes on.
fn eliminates(start: &dyn AnyPosition, seed: u64) -> bool {
    let mut pos = start.clone_box();
    let mut chosen = 0;
    while pos.outcome().is_none() {
        if pos.piece_counts().contains(&0) {
            return true;
        }
        let mv = pick(&pos.legal_moves(), seed, chosen);
        chosen += 1;
        play_and_pass(&mut pos, &mv);
    }
    false
}
