//! The site's server side (issue 17): leaderboards and the defects found in use (flagged
//! clocks, games a side never moved in, illegal moves in words, rejected offers, results from
//! the reader's side), through a real `ataxx serve`.

use serde_json::{json, Value};

use crate::common::served::{api, command, next_where, signup_and_login, socket, Served};
use crate::common::table::Table;
use crate::common::text_setup::{ALICE, BOB};
use crate::common::{served, table};

/// Starts a game between `x` and `o` (tokens), with a live clock or none, and returns its
/// board.
fn start_game(server: &Served, x: &str, o: &str, o_name: &str, clock: Option<&str>) -> i64 {
    let mut options = json!({});
    if let Some(clock) = clock {
        options["clock"] = json!(clock);
    }
    table::start_game(server, x, &[(o_name, o)], json!({"options": options})).0
}

/// The board as anyone reads it.
fn game_of(server: &Served, board: i64) -> Value {
    api(
        "GET",
        &server.url(&format!("/api/games/{board}")),
        None,
        None,
    )
    .1
}

fn act(server: &Served, board: i64, token: &str, mv: &str) -> (u16, Value) {
    api(
        "POST",
        &server.url(&format!("/api/games/{board}/move")),
        Some(token),
        Some(json!({"move": mv})),
    )
}

fn rating(server: &Served, user: &str) -> f64 {
    let (_, user) = api(
        "GET",
        &server.url(&format!("/api/users/{user}")),
        None,
        None,
    );
    user["rating"].as_f64().unwrap()
}

/// A server whose clock the test moves (its sweeper looking every 50 ms), with alice and bob
/// signed in: the server and their tokens.
fn with_test_clock(dir: &tempfile::TempDir) -> (Served, String, String) {
    let server = Served::start_on(
        &dir.path().join("ataxx.db"),
        "127.0.0.1:0",
        &["--test-clock", "--sweep-ms", "50"],
    );
    let alice = signup_and_login(&server, "alice", "secret-1");
    let bob = signup_and_login(&server, "bob", "secret-2");
    (server, alice, bob)
}

#[test]
fn a_live_clock_starts_with_each_first_move_and_a_game_without_one_is_aborted_unrated() {
    let dir = tempfile::tempdir().unwrap();
    let (server, alice, bob) = with_test_clock(&dir);
    let board = start_game(&server, &alice, &bob, "bob", Some("1+0"));
    command(&server, "clock advance 20");
    let game = game_of(&server, board);
    assert_eq!(
        game["clock"]["x_ms"], 60_000,
        "no clock runs before the first move: {game}"
    );
    assert_eq!(game["clock"]["running"], Value::Null, "{game}");
    assert!(game["clock"]["first_move_by_ms"].is_i64(), "{game}");
    let (status, game) = act(&server, board, &alice, "b6");
    assert_eq!(status, 200, "{game}");
    assert_eq!(
        game["clock"]["x_ms"], 60_000,
        "the 20 s before it were not alice's: {game}"
    );
    // Bob has 30 s for his first move, counted from alice's.
    command(&server, "clock advance 25");
    let game = game_of(&server, board);
    assert_eq!(
        (&game["status"], &game["clock"]["o_ms"]),
        (&json!("active"), &json!(60_000))
    );
    command(&server, "clock advance 10");
    let game = served::poll(&server, &format!("/api/games/{board}"), 10, |g| {
        g["status"] != "active"
    });
    assert_eq!(
        (&game["status"], &game["termination"], &game["rated"]),
        (&json!("withdrawn"), &json!("aborted"), &json!(false)),
        "{game}"
    );
    assert!(
        game["unrated_reason"]
            .as_str()
            .unwrap()
            .starts_with("bob did not make a first move within 30 seconds"),
        "{game}"
    );
    assert_eq!(
        (rating(&server, "alice"), rating(&server, "bob")),
        (1500.0, 1500.0)
    );
    // The first mover too: without alice's first move the game is aborted, naming her.
    let board = start_game(&server, &alice, &bob, "bob", Some("3+2"));
    command(&server, "clock advance 31");
    let game = served::poll(&server, &format!("/api/games/{board}"), 10, |g| {
        g["status"] != "active"
    });
    assert_eq!(game["termination"], "aborted", "{game}");
    assert!(game["unrated_reason"]
        .as_str()
        .unwrap()
        .starts_with("alice did not"));
    // Once both have moved the clocks run as before (a correspondence game has no such rule).
    let board = start_game(&server, &alice, &bob, "bob", Some("1+0"));
    assert_eq!(act(&server, board, &alice, "b6").0, 200);
    assert_eq!(act(&server, board, &bob, "f6").0, 200);
    command(&server, "clock advance 40");
    let game = game_of(&server, board);
    assert_eq!(
        (&game["status"], &game["clock"]["running"]),
        (&json!("active"), &json!("x"))
    );
    assert!(game["clock"]["x_ms"].as_i64().unwrap() <= 20_000, "{game}");
}

#[test]
fn a_flag_keeps_the_time_left_and_a_game_one_side_never_moved_in_is_unrated() {
    let dir = tempfile::tempdir().unwrap();
    let (server, alice, bob) = with_test_clock(&dir);
    // The flag falls in a game of two others, so that alice's and bob's ratings stay 1500 for
    // the games below. Each clock starts with its player's first move (issue #32): the 20 s
    // carol waits before it are not hers.
    let carol = signup_and_login(&server, "carol", "secret-3");
    let dave = signup_and_login(&server, "dave", "secret-4");
    let board = start_game(&server, &carol, &dave, "dave", Some("1+0"));
    command(&server, "clock advance 20");
    assert_eq!(act(&server, board, &carol, "b6").0, 200);
    assert_eq!(act(&server, board, &dave, "f6").0, 200);
    command(&server, "clock advance 20");
    assert_eq!(act(&server, board, &carol, "c5").0, 200);
    // Dave never moves again: his minute runs out.
    command(&server, "clock advance 61");
    let game = served::poll(&server, &format!("/api/games/{board}"), 10, |g| {
        g["status"] == "finished"
    });
    assert_eq!(
        (&game["result"], &game["termination"]),
        (&json!("1-0"), &json!("time forfeit"))
    );
    // Carol used 20 s of her minute (and the real milliseconds the requests took); dave's is
    // spent, not back at 1:00.
    let carol_left = game["clock"]["x_ms"].as_i64().unwrap();
    assert!((39_000..=40_000).contains(&carol_left), "{game}");
    assert_eq!(game["clock"]["o_ms"], 0, "{game}");
    assert_eq!(game["seats"][1]["clock_ms"], 0);

    // A draw agreed after one move is unrated too.
    let board = start_game(&server, &alice, &bob, "bob", None);
    assert_eq!(act(&server, board, &alice, "b6").0, 200);
    assert_eq!(act(&server, board, &alice, "propose").0, 200);
    let (_, game) = act(&server, board, &bob, "accept");
    assert_eq!(
        (&game["result"], &game["rated"]),
        (&json!("1/2-1/2"), &json!(false))
    );
    assert!(game["unrated_reason"]
        .as_str()
        .unwrap()
        .starts_with("bob never moved"));
    assert_eq!(
        (rating(&server, "alice"), rating(&server, "bob")),
        (1500.0, 1500.0)
    );

    // Once both have moved, a resignation is rated; each seat reads the result from its side.
    let board = start_game(&server, &alice, &bob, "bob", None);
    assert_eq!(act(&server, board, &alice, "b6").0, 200);
    assert_eq!(act(&server, board, &bob, "f6").0, 200);
    let (_, game) = act(&server, board, &alice, "resign");
    assert_eq!(game["rated"], true);
    assert!(game.get("unrated_reason").is_none(), "{game}");
    assert_eq!(game["seats"][0]["outcome"], "loss");
    assert_eq!(game["seats"][1]["outcome"], "win");
    assert!(rating(&server, "alice") < 1500.0);
    assert!(rating(&server, "bob") > 1500.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn illegal_moves_answer_in_words_and_a_rejected_offer_reaches_the_offerer() {
    let (server, tokens, _) = Table::over_api(&[], &[ALICE, BOB], json!({"options": {}}));
    let [alice, bob]: [String; 2] = tokens.try_into().unwrap();
    let board = server.board;
    let (status, err) = act(&server, board, &alice, "d4");
    assert_eq!(status, 400);
    let message = err["error"]["message"].as_str().unwrap();
    assert!(message.contains("illegal move d4"), "{message}");
    assert!(message.contains("no own piece"), "{message}");
    // No position text: a FEN has slashes.
    assert!(!message.contains('/'), "{message}");

    let mut alices_page = socket(&server.ws(&format!("/api/ws?token={alice}"))).await;
    next_where(&mut alices_page, |v| v["type"] == "hello").await;
    assert_eq!(act(&server, board, &alice, "b6").0, 200);
    assert_eq!(act(&server, board, &bob, "f6").0, 200);
    for proposal in ["draw", "undo"] {
        let word = if proposal == "draw" {
            "propose"
        } else {
            "undo"
        };
        assert_eq!(act(&server, board, &alice, word).0, 200);
        let (status, game) = act(&server, board, &bob, "reject");
        assert_eq!(status, 200, "{game}");
        let heard = next_where(&mut alices_page, |v| v["type"] == "rejected").await;
        assert_eq!(
            (&heard["proposal"], &heard["by"]),
            (&json!(proposal), &json!("bob"))
        );
        assert_eq!(heard["board"], board);
    }
}

#[test]
fn leaderboards_rank_established_players_apart_from_provisional_ones_with_trends() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &[]);
    let alice = signup_and_login(&server, "alice", "secret-1");
    let bob = signup_and_login(&server, "bob", "secret-2");
    let carol = signup_and_login(&server, "carol", "secret-3");
    // 20 live games: alice wins 15, bob 5; both reach 20 rated games (established).
    for i in 0..20 {
        let board = start_game(&server, &alice, &bob, "bob", Some("5+0"));
        assert_eq!(act(&server, board, &alice, "b6").0, 200);
        assert_eq!(act(&server, board, &bob, "f6").0, 200);
        let loser = if i % 4 == 3 { &alice } else { &bob };
        assert_eq!(act(&server, board, loser, "resign").0, 200);
    }
    // Two correspondence games: carol beats alice twice (provisional: 2 games).
    for _ in 0..2 {
        let board = start_game(&server, &carol, &alice, "alice", None);
        assert_eq!(act(&server, board, &carol, "b6").0, 200);
        assert_eq!(act(&server, board, &alice, "f6").0, 200);
        assert_eq!(act(&server, board, &alice, "resign").0, 200);
    }
    let board = |speed: &str| {
        let (status, board) = api(
            "GET",
            &server.url(&format!("/api/leaderboard?game=ataxx&speed={speed}")),
            None,
            None,
        );
        assert_eq!(status, 200, "{board}");
        board
    };
    let live = board("live");
    let names = |list: &Value| -> Vec<String> {
        list.as_array()
            .unwrap()
            .iter()
            .map(|e| e["userid"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(names(&live["players"]), ["alice", "bob"], "{live}");
    assert_eq!(live["players"][0]["rank"], 1);
    assert_eq!(live["players"][0]["games"], 20);
    assert_eq!(names(&live["provisional"]), Vec::<String>::new());
    let correspondence = board("correspondence");
    // Alice has 22 rated games (established); carol's two make her provisional.
    assert_eq!(names(&correspondence["players"]), ["alice"]);
    assert_eq!(correspondence["players"][0]["games"], 2);
    assert_eq!(names(&correspondence["provisional"]), ["carol"]);
    assert_eq!(correspondence["provisional"][0]["rank"], Value::Null);
    // Carol's trend spans both her games: from the initial 1500.
    let carol_rating = correspondence["provisional"][0]["rating"].as_f64().unwrap();
    assert_eq!(
        correspondence["provisional"][0]["trend"],
        (carol_rating - 1500.0).round() as i64
    );
    // Alice's trend: her rating now against her rating five games ago, from her history.
    let (_, user) = api("GET", &server.url("/api/users/alice"), None, None);
    let history = user["rating_history"].as_array().unwrap();
    let five_ago = history[history.len() - 6]["rating"].as_f64().unwrap();
    let now = user["rating"].as_f64().unwrap();
    assert_eq!(
        correspondence["players"][0]["trend"],
        (now - five_ago).round() as i64
    );
    let (status, err) = api(
        "GET",
        &server.url("/api/leaderboard?speed=blitz"),
        None,
        None,
    );
    assert_eq!(status, 400);
    assert!(err["error"]["message"]
        .as_str()
        .unwrap()
        .contains("live, correspondence"));
}

#[test]
fn no_engine_analysis_of_a_position_on_a_board_in_play_until_the_game_ends() {
    let clock = json!({"options": {"clock": "3+2"}});
    let (server, tokens, _) = Table::over_api(&[], &[ALICE, BOB], clock);
    let [alice, bob]: [String; 2] = tokens.try_into().unwrap();
    let board = server.board;
    assert_eq!(act(&server, board, &alice, "b6").0, 200);
    let game = game_of(&server, board);
    let fen = game["fen"].as_str().unwrap().to_string();
    let analysis = |fen: &str, token: Option<&str>| {
        let query: String = url_escape(fen);
        api(
            "GET",
            &server.url(&format!("/api/analysis?fen={query}")),
            token,
            None,
        )
    };
    // Nobody gets it: not a player, not a spectator; other move counters change nothing.
    let fields: Vec<&str> = fen.split(' ').collect();
    let recounted = format!("{} {} 37 90", fields[0], fields[1]);
    for (fen, token) in [
        (&fen, Some(alice.as_str())),
        (&fen, None),
        (&recounted, Some(bob.as_str())),
    ] {
        let (status, err) = analysis(fen, token);
        assert_eq!(status, 403, "{fen}: {err}");
        assert_eq!(err["error"]["code"], "in_play", "{err}");
    }
    // A position on no board is analysed; so is this one once the game is over.
    let (status, report) = analysis("x5o/7/7/7/7/7/o5x x 0 1", None);
    assert_eq!(status, 200, "{report}");
    assert_eq!(act(&server, board, &bob, "resign").0, 200);
    let (status, report) = analysis(&fen, None);
    assert_eq!(status, 200, "{report}");
    assert!(report["best"].is_string(), "{report}");
}

/// A FEN as a query value.
fn url_escape(text: &str) -> String {
    text.replace('/', "%2F").replace(' ', "+")
}

/// A GET over a socket of its own, with extra request headers; the status line and headers
/// (as sent) and the body's bytes.
fn raw_get(server: &Served, path: &str, extra: &str) -> (String, Vec<u8>) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(&server.http).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {}\r\n{extra}Connection: close\r\n\r\n",
        server.http
    )
    .unwrap();
    let mut bytes = vec![];
    stream.read_to_end(&mut bytes).unwrap();
    let split = bytes.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&bytes[..split]).to_string();
    (head, bytes[split + 4..].to_vec())
}

#[test]
fn pages_come_gzipped_with_an_etag_and_a_reload_gets_304_for_what_it_has() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::start_on(&dir.path().join("ataxx.db"), "127.0.0.1:0", &[]);
    let (head, body) = raw_get(&server, "/static/lobby.js", "Accept-Encoding: gzip\r\n");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.contains("content-encoding: gzip"), "{head}");
    let etag = head
        .lines()
        .find_map(|line| line.strip_prefix("etag: "))
        .expect("an etag")
        .to_string();
    // Chunked: the gzip stream starts after the first chunk's size line.
    let start = body.windows(2).position(|w| w == b"\r\n").unwrap() + 2;
    assert_eq!(&body[start..start + 2], [0x1f, 0x8b], "a gzip stream");
    let (plain, _) = raw_get(&server, "/static/lobby.js", "");
    assert!(!plain.contains("content-encoding"), "{plain}");
    let (again, body) = raw_get(
        &server,
        "/static/lobby.js",
        &format!("If-None-Match: {etag}\r\n"),
    );
    assert!(again.starts_with("HTTP/1.1 304"), "{again}");
    assert!(body.is_empty());
    let (front, _) = raw_get(&server, "/", &format!("If-None-Match: {etag}\r\n"));
    assert!(
        front.starts_with("HTTP/1.1 200"),
        "another file, another tag: {front}"
    );
}

/// The day (UTC, `YYYY-MM-DD`) of a time in ms since the epoch.
fn day_of(ms: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp(ms / 1000)
        .unwrap()
        .date()
        .to_string()
}

#[test]
fn the_games_search_filters_counts_and_pages_and_exports_a_players_games_as_pgn() {
    let dir = tempfile::tempdir().unwrap();
    let (server, alice, bob) = with_test_clock(&dir);
    let carol = signup_and_login(&server, "carol", "secret-3");
    let dave = signup_and_login(&server, "dave", "secret-4");
    let two_moves = |board: i64, first: &str, second: &str| {
        assert_eq!(act(&server, board, first, "b6").0, 200);
        assert_eq!(act(&server, board, second, "f6").0, 200);
    };
    // Alice's games, each with what the search should say of it: (board, game, live, outcome
    // from alice's side, rated).
    type Played<'a> = (i64, &'a str, bool, &'a str, bool);
    let mut played: Vec<Played> = vec![];
    for _ in 0..3 {
        let board = start_game(&server, &alice, &bob, "bob", Some("5+0"));
        two_moves(board, &alice, &bob);
        assert_eq!(act(&server, board, &bob, "resign").0, 200);
        played.push((board, "ataxx", true, "win", true));
    }
    let board = start_game(&server, &bob, &alice, "alice", None);
    two_moves(board, &bob, &alice);
    assert_eq!(act(&server, board, &alice, "resign").0, 200);
    played.push((board, "ataxx", false, "loss", true));
    // Two days later: a draw agreed, and a game carol resigns before moving (unrated).
    command(&server, "clock advance 172800");
    let board = start_game(&server, &alice, &carol, "carol", None);
    two_moves(board, &alice, &carol);
    assert_eq!(act(&server, board, &alice, "draw").0, 200);
    assert_eq!(act(&server, board, &carol, "accept").0, 200);
    played.push((board, "ataxx", false, "draw", true));
    let board = start_game(&server, &carol, &alice, "alice", None);
    assert_eq!(act(&server, board, &carol, "resign").0, 200);
    played.push((board, "ataxx", false, "win", false));
    // One game of each other game, ended by resignations before anyone moved (unrated).
    let (board, _) = table::start_game(
        &server,
        &alice,
        &[("bob", &bob)],
        json!({"game": "hexxagon"}),
    );
    assert_eq!(act(&server, board, &bob, "resign").0, 200);
    played.push((board, "hexxagon", false, "win", false));
    let (board, _) = table::start_game(
        &server,
        &bob,
        &[("alice", &alice)],
        json!({"game": "ankor"}),
    );
    assert_eq!(act(&server, board, &alice, "resign").0, 200);
    played.push((board, "ankor", false, "loss", false));
    // Four players: a resignation ends the game, the others ranked by their pieces.
    let four = [("bob", bob.as_str()), ("carol", &carol), ("dave", &dave)];
    let (board, _) = table::start_game(&server, &alice, &four, json!({"game": "ataxx4"}));
    assert_eq!(act(&server, board, &bob, "resign").0, 200);
    let finished = game_of(&server, board);
    assert_eq!(finished["status"], "finished");
    assert_eq!(finished["seats"][0]["outcome"], "win", "{finished}");
    played.push((board, "ataxx4", false, "win", false));
    // A game alice does not play.
    let board = start_game(&server, &bob, &carol, "carol", None);
    assert_eq!(act(&server, board, &carol, "resign").0, 200);

    let search = |query: &str| {
        let (status, found) = api(
            "GET",
            &server.url(&format!("/api/games/search?{query}")),
            None,
            None,
        );
        assert_eq!(status, 200, "{query}: {found}");
        found
    };
    let boards = |found: &Value| -> Vec<i64> {
        found["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["board"].as_i64().unwrap())
            .collect()
    };
    let count = |keep: &dyn Fn(&Played) -> bool| played.iter().filter(|g| keep(g)).count() as i64;
    assert_eq!(search("player=alice&per_page=100")["total"], played.len());
    assert_eq!(
        search("player=Alice&game=ataxx")["total"],
        count(&|g| g.1 == "ataxx")
    );
    assert_eq!(search("player=alice&speed=live")["total"], count(&|g| g.2));
    assert_eq!(
        search("player=alice&speed=correspondence")["total"],
        count(&|g| !g.2)
    );
    for outcome in ["win", "loss", "draw"] {
        let found = search(&format!("player=alice&result={outcome}"));
        assert_eq!(found["total"], count(&|g| g.3 == outcome), "{outcome}");
    }
    assert_eq!(search("player=alice&rated=true")["total"], count(&|g| g.4));
    assert_eq!(
        search("player=alice&rated=false")["total"],
        count(&|g| !g.4)
    );
    assert_eq!(search("player=alice&game=ataxx4&result=win")["total"], 1);
    assert_eq!(search("player=bob&game=ataxx4&result=loss")["total"], 1);
    // A draw needs no player; the whole server's finished games include bob and carol's.
    assert_eq!(search("result=draw")["total"], 1);
    assert_eq!(search("")["total"], played.len() + 1);
    // Days: read from the games themselves, counted here.
    let finished: Vec<(i64, String)> = played
        .iter()
        .map(|g| {
            let ms = game_of(&server, g.0)["finished_ms"].as_i64().unwrap();
            (g.0, day_of(ms))
        })
        .collect();
    let first_day = finished[0].1.clone();
    let last_day = finished.last().unwrap().1.clone();
    assert_ne!(first_day, last_day, "the clock moved two days");
    for (from, to) in [
        (&first_day, &first_day),
        (&last_day, &last_day),
        (&first_day, &last_day),
    ] {
        let found = search(&format!("player=alice&from={from}&to={to}"));
        let expected = finished
            .iter()
            .filter(|(_, day)| day >= from && day <= to)
            .count();
        assert_eq!(found["total"], expected, "{from}..{to}");
    }
    // Pages of 4, newest first, together the whole list once.
    let all = boards(&search("player=alice&per_page=100"));
    let mut newest_first: Vec<i64> = played.iter().map(|g| g.0).collect();
    newest_first.reverse();
    assert_eq!(all, newest_first);
    let mut paged = vec![];
    for page in 1..=3 {
        let found = search(&format!("player=alice&per_page=4&page={page}"));
        assert_eq!(found["pages"], 3);
        paged.extend(boards(&found));
    }
    assert_eq!(paged, all);
    assert!(boards(&search("player=alice&per_page=4&page=4")).is_empty());
    // Bad queries are told what was wrong.
    for (query, says) in [
        ("result=win", "name the player"),
        ("from=27.11.2026", "YYYY-MM-DD"),
        ("per_page=0", "from 1 to 100"),
        ("speed=blitz", "live, correspondence"),
        ("rated=maybe", "true or false"),
    ] {
        let (status, body) = api(
            "GET",
            &server.url(&format!("/api/games/search?{query}")),
            None,
            None,
        );
        assert_eq!(status, 400, "{query}: {body}");
        let message = body["error"]["message"].as_str().unwrap_or("");
        assert!(message.contains(says), "{query}: {body}");
    }
    // The export: every one of alice's games, as each board's own PGN, newest first.
    let (head, body) = raw_get(&server, "/api/games/search/pgn?player=alice", "");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(
        head.contains("attachment; filename=\"ataxx-games-alice.pgn\""),
        "{head}"
    );
    let expected: String = all
        .iter()
        .map(|board| {
            let (_, text) = raw_get(&server, &format!("/api/games/{board}/pgn"), "");
            String::from_utf8(text).unwrap()
        })
        .collect();
    let pgn = String::from_utf8(body).unwrap();
    assert_eq!(pgn, expected);
    for game in ["ataxx", "hexxagon", "ataxx4", "ankor"] {
        assert!(pgn.contains(&format!("[Variant \"{game}\"]")), "{game}");
    }
}

#[test]
fn spectators_chat_apart_moderators_mute_on_every_door_read_reports_and_blocks_hold_for_challenges()
{
    let dir = tempfile::tempdir().unwrap();
    let server = Served::start_on(
        &dir.path().join("ataxx.db"),
        "127.0.0.1:0",
        &["--test-clock", "--admin", "root"],
    );
    let [root, alice, bob, carol, dave] = ["root", "alice", "bob", "carol", "dave"]
        .map(|name| signup_and_login(&server, name, &format!("secret-{name}")));
    let post = |path: &str, token: &str, body: Value| {
        api("POST", &server.url(path), Some(token), Some(body))
    };
    let get = |path: &str, token: &str| api("GET", &server.url(path), Some(token), None);
    let board = start_game(&server, &alice, &bob, "bob", None);
    let chat = format!("/api/games/{board}/chat");
    // A player's line is the players'; anyone else's is the spectators'.
    assert_eq!(post(&chat, &alice, json!({"text": "good luck"})).0, 200);
    let (status, line) = post(&chat, &carol, json!({"text": "nice opening"}));
    assert_eq!(status, 200, "{line}");
    let lines = game_of(&server, board)["chat"].clone();
    let channels: Vec<(&str, &str)> = lines
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["name"].as_str().unwrap(), l["channel"].as_str().unwrap()))
        .collect();
    assert_eq!(channels, [("alice", "players"), ("carol", "spectators")]);

    // Reports are kept for the moderators: root (serve --admin) and whom root makes one.
    let (status, report) = post(
        "/api/reports",
        &bob,
        json!({"user": "carol", "board": board, "reason": "spoilers"}),
    );
    assert_eq!(status, 200, "{report}");
    let (status, refused) = get("/api/reports", &carol);
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (403, Some("not_a_moderator"))
    );
    let (status, refused) = post("/api/users/carol/moderator", &bob, json!({}));
    assert_eq!(status, 400, "{refused}");
    assert_eq!(post("/api/users/dave/moderator", &root, json!({})).0, 200);
    let (status, reports) = get("/api/reports", &dave);
    assert_eq!(status, 200, "{reports}");
    assert_eq!(reports.as_array().unwrap().len(), 1, "{reports}");
    assert_eq!(reports[0]["reported"], "carol");
    assert_eq!(reports[0]["reporter"], "bob");
    assert_eq!(reports[0]["board"], board);

    // A mute refuses the user's chat on the API and the text door until it runs out.
    let (status, refused) = post("/api/users/dave/mute", &carol, json!({"minutes": 5}));
    assert_eq!(status, 403, "{refused}");
    let (status, muted) = post("/api/users/carol/mute", &dave, json!({"minutes": 10}));
    assert_eq!(status, 200, "{muted}");
    let (status, refused) = post(&chat, &carol, json!({"text": "hello?"}));
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (403, Some("muted"))
    );
    let mut door = server.text();
    let line = format!("ataxx chat {board} carol secret-carol hello?");
    let reply = door.send(&line);
    assert!(
        reply.starts_with("error: carol is muted for 10 more minutes"),
        "{reply}"
    );
    command(&server, "clock advance 601");
    door.ok(&line);
    assert_eq!(game_of(&server, board)["chat"].as_array().unwrap().len(), 3);

    // Alice blocks carol: carol's challenges to her are refused, on the API and the text door,
    // until she unblocks her.
    let (status, blocked) = post("/api/blocks", &alice, json!({"user": "Carol"}));
    assert_eq!((status, blocked["blocked"].as_str()), (200, Some("carol")));
    assert_eq!(get("/api/blocks", &alice).1["blocked"], json!(["carol"]));
    let challenge = |token: &str, opponent: &str| {
        post(
            "/api/games",
            token,
            json!({"opponent": opponent, "options": {}}),
        )
    };
    let (status, refused) = challenge(&carol, "alice");
    assert_eq!(status, 400, "{refused}");
    assert!(refused["error"]["message"]
        .as_str()
        .unwrap()
        .contains("alice does not take challenges from carol"));
    let reply = door.send("ataxx challenge carol alice");
    assert!(
        reply.contains("alice does not take challenges from carol"),
        "{reply}"
    );
    // Nor can alice challenge whom she blocked; others still can.
    assert_eq!(challenge(&alice, "carol").0, 400);
    assert_eq!(challenge(&carol, "bob").0, 201);
    let unblocked = api(
        "DELETE",
        &server.url("/api/blocks/carol"),
        Some(&alice),
        None,
    );
    assert_eq!(unblocked.0, 200);
    assert_eq!(challenge(&carol, "alice").0, 201);
}
