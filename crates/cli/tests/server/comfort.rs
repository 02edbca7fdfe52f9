//! The site's comfort side (issue 17, part 2) through a real `ataxx serve`: engine bots listed
//! beside the built-in levels, and the per-user stream that tells an open page it is that
//! user's turn or that a challenge arrived (what the page's notifications are made from).

use serde_json::{json, Value};

use crate::common::served;
use crate::common::served::{api, next_where, signup_and_login, socket, Served};

#[test]
fn an_engine_bot_is_listed_beside_the_levels_and_can_be_challenged() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &[]);
    let engine = signup_and_login(&server, "deepthought", "botpass1");
    let person = signup_and_login(&server, "ada", "secret12");

    let (_, before) = api("GET", &server.url("/api/bots"), None, None);
    let levels = before.as_array().unwrap().len();
    assert!(levels > 0, "the built-in levels are listed: {before}");
    assert!(before
        .as_array()
        .unwrap()
        .iter()
        .all(|b| b["engine"] == false));
    assert!(!before.to_string().contains("deepthought"));
    // Each level says which games it plays, as its bot accepts or declines them.
    let games_of = |level: &str| {
        let row = before
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["level"] == level);
        row.unwrap_or_else(|| panic!("no {level} bot: {before}"))["games"].clone()
    };
    assert_eq!(
        games_of("very-easy"),
        json!(["ataxx", "hexxagon", "ataxx4", "ankor"])
    );
    assert_eq!(games_of("medium"), json!(["ataxx", "hexxagon", "ankor"]));
    assert_eq!(games_of("master"), json!(["ataxx"]));
    // ... and how it plays each of them: `easy` is greedy in square Ataxx, but in four-player
    // Ataxx it also weighs the strongest opponent.
    let easy = before
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["level"] == "easy")
        .unwrap();
    assert_eq!(easy["descriptions"]["ataxx"], easy["description"], "{easy}");
    assert_eq!(
        easy["descriptions"]["ataxx4"],
        "most own pieces less the strongest opponent's, one move ahead"
    );
    assert_ne!(
        easy["descriptions"]["ataxx4"],
        easy["descriptions"]["ataxx"]
    );
    assert!(easy["descriptions"].get("nosuch").is_none());
    // ... and its rating in each of them (the lobby's level menu shows the chosen game's), the
    // initial one in games it has not played yet.
    for row in before.as_array().unwrap() {
        let games = row["games"].as_array().unwrap();
        let rated: Vec<&String> = row["ratings"].as_object().unwrap().keys().collect();
        assert_eq!(rated.len(), games.len(), "{row}");
        for game in games {
            assert_eq!(
                row["ratings"][game.as_str().unwrap()]["rating_text"],
                "1500?",
                "{row}"
            );
        }
    }

    let (status, reply) = api("POST", &server.url("/api/bot/upgrade"), Some(&engine), None);
    assert_eq!(status, 200, "{reply}");
    let (_, after) = api("GET", &server.url("/api/bots"), None, None);
    let rows = after.as_array().unwrap();
    assert_eq!(rows.len(), levels + 1, "{after}");
    // The levels keep their places; the engine comes after them, labelled.
    assert_eq!(&rows[..levels], before.as_array().unwrap().as_slice());
    let bot = &rows[levels];
    assert_eq!(bot["userid"], "deepthought");
    assert_eq!(bot["level"], "deepthought");
    assert_eq!(bot["bot"], "uai");
    assert_eq!(bot["engine"], true);
    assert!(bot["rating_text"].is_string(), "{bot}");
    // An engine may play every game, so it is rated in each.
    for game in ["ataxx", "hexxagon", "ataxx4", "ankor"] {
        assert_eq!(bot["ratings"][game]["rating_text"], "1500?", "{bot}");
    }

    // A person challenges it as the lobby does (a bot's name among the opponents).
    let (status, game) = api(
        "POST",
        &server.url("/api/games"),
        Some(&person),
        Some(json!({"opponents": ["deepthought"], "color": "x", "options": {}})),
    );
    assert_eq!(status, 201, "{game}");
    assert_eq!(game["status"], "challenge");
    assert_eq!(game["o"], "deepthought");
}

/// The event on `ws` for `board` of `kind`.
async fn event_of(ws: &mut served::Socket, board: i64, kind: &str) -> Value {
    next_where(ws, |v| v["type"] == kind && v["board"] == board).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_user_stream_tells_a_player_of_a_challenge_and_of_their_turn() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &[]);
    let ada = signup_and_login(&server, "ada", "secret12");
    let bob = signup_and_login(&server, "bob", "secret34");
    let mut bobs_page = socket(&server.ws(&format!("/api/ws?token={bob}"))).await;
    next_where(&mut bobs_page, |v| v["type"] == "hello").await;

    // A correspondence challenge: bob's stream says so, naming him a seat not yet accepted.
    let (status, game) = api(
        "POST",
        &server.url("/api/games"),
        Some(&ada),
        Some(json!({"opponents": ["bob"], "color": "x", "options": {}})),
    );
    assert_eq!(status, 201, "{game}");
    let board = game["board"].as_i64().unwrap();
    let challenge = event_of(&mut bobs_page, board, "challenge").await;
    let seat = challenge["game"]["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "bob")
        .cloned()
        .unwrap();
    assert_eq!(seat["accepted"], false, "{challenge}");
    assert!(challenge["game"]["clock"].is_null(), "{challenge}");

    let (status, _) = api(
        "POST",
        &server.url(&format!("/api/games/{board}/accept")),
        Some(&bob),
        None,
    );
    assert_eq!(status, 200);
    // Ada moves: bob's stream carries the move with bob to move.
    let (status, reply) = api(
        "POST",
        &server.url(&format!("/api/games/{board}/move")),
        Some(&ada),
        Some(json!({"move": "b6"})),
    );
    assert_eq!(status, 200, "{reply}");
    let moved = event_of(&mut bobs_page, board, "moves").await;
    assert_eq!(moved["moves"][0]["move"], "b6", "{moved}");
    assert_eq!(moved["game"]["to_move"], "bob", "{moved}");
}
