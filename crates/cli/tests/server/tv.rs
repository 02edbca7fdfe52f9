//! `GET /api/tv`: the games in play ranked by their players' ratings (the front page's live
//! boards and Ataxx TV), through a real `ataxx serve`, read without an account.

use serde_json::{json, Value};

use crate::common::served::{api, signup_and_login, Served};

/// A rated correspondence game through a seek: `x` posts it playing x, `o` takes it.
fn seek_game(server: &Served, x: &str, o: &str) -> i64 {
    let (status, seek) = api(
        "POST",
        &server.url("/api/seeks"),
        Some(x),
        Some(json!({"color": "x", "rated": true})),
    );
    assert_eq!(status, 201, "{seek}");
    let id = seek["id"].as_i64().unwrap();
    let (status, game) = api(
        "POST",
        &server.url(&format!("/api/seeks/{id}/accept")),
        Some(o),
        None,
    );
    assert_eq!(status, 201, "{game}");
    game["board"].as_i64().unwrap()
}

fn act(server: &Served, board: i64, token: &str, mv: &str) {
    let (status, answer) = api(
        "POST",
        &server.url(&format!("/api/games/{board}/move")),
        Some(token),
        Some(json!({"move": mv})),
    );
    assert_eq!(status, 200, "{mv} on board {board}: {answer}");
}

/// `winner` beats `loser` in a rated game: both move once, then the loser resigns.
fn beat(server: &Served, winner: &str, loser: &str) {
    let board = seek_game(server, winner, loser);
    act(server, board, winner, "b6");
    act(server, board, loser, "f6");
    act(server, board, loser, "resign");
}

fn tv(server: &Served, query: &str) -> (u16, Value) {
    api("GET", &server.url(&format!("/api/tv{query}")), None, None)
}

fn boards(featured: &Value) -> Vec<i64> {
    featured
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["game"]["board"].as_i64().unwrap())
        .collect()
}

/// A user's Ataxx rating and its text, as their profile shows them.
fn rating(server: &Served, name: &str) -> (f64, Value) {
    let (status, user) = api(
        "GET",
        &server.url(&format!("/api/users/{name}")),
        None,
        None,
    );
    assert_eq!(status, 200, "{user}");
    (
        user["rating"].as_f64().unwrap(),
        user["rating_text"].clone(),
    )
}

#[test]
fn tv_ranks_games_in_play_by_their_players_ratings_and_drops_finished_ones() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &[]);
    let names = ["ann", "abe", "bea", "bob", "lou", "lee", "lin"];
    let tokens: Vec<String> = names
        .iter()
        .map(|name| signup_and_login(&server, name, "secret-1"))
        .collect();
    let [ann, abe, bea, bob, lou, lee, lin] = [0, 1, 2, 3, 4, 5, 6].map(|i| tokens[i].as_str());
    let (status, none) = tv(&server, "");
    assert_eq!((status, none), (200, json!([])));

    // Three winners and three losers; then games of two winners, a winner and a newcomer, and
    // two losers.
    beat(&server, ann, lou);
    beat(&server, abe, lee);
    beat(&server, bea, lin);
    let low = seek_game(&server, lou, lee);
    let middle = seek_game(&server, bea, bob);
    let top = seek_game(&server, ann, abe);
    // A game against a computer player rates above the losers' game (a bot's rating is high)
    // yet comes after every game between people.
    let (status, practice) = api(
        "POST",
        &server.url("/api/games"),
        Some(lin),
        Some(json!({"opponents": ["bot-very-easy"], "color": "x", "options": {}})),
    );
    assert_eq!(status, 201, "{practice}");
    let practice = practice["board"].as_i64().unwrap();
    let url = server.url(&format!("/api/games/{practice}"));
    let accepted = std::time::Instant::now();
    while api("GET", &url, None, None).1["status"] != "active" {
        assert!(accepted.elapsed().as_secs() < 10, "the bot never accepted");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }

    let (status, all) = tv(&server, "?limit=10");
    assert_eq!(status, 200, "{all}");
    assert_eq!(boards(&all), vec![top, middle, low, practice]);
    assert!(
        all[3]["rating"].as_i64() > all[2]["rating"].as_i64(),
        "{all}"
    );
    // Each game's rating is the mean of its players' as their profiles give them.
    for (featured, players) in
        all.as_array()
            .unwrap()
            .iter()
            .take(3)
            .zip([["ann", "abe"], ["bea", "bob"], ["lou", "lee"]])
    {
        let [(x, x_text), (o, o_text)] = players.map(|name| rating(&server, name));
        assert_eq!(
            featured["rating"],
            json!(((x + o) / 2.0).round() as i64),
            "{featured}"
        );
        assert_eq!(featured["ratings"], json!([x_text, o_text]));
        assert_eq!(featured["game"]["status"], "active");
    }
    assert!(all[0]["rating"].as_i64() > all[1]["rating"].as_i64());
    assert!(all[1]["rating"].as_i64() > all[2]["rating"].as_i64());

    // The default is the one featured game; a game that ends leaves the ranking.
    let (_, first) = tv(&server, "");
    assert_eq!(boards(&first), vec![top]);
    act(&server, top, abe, "resign");
    let (_, first) = tv(&server, "");
    assert_eq!(boards(&first), vec![middle]);
    let (_, two) = tv(&server, "?limit=2&game=ataxx");
    assert_eq!(boards(&two), vec![middle, low]);
    let (_, hex) = tv(&server, "?game=hexxagon&limit=5");
    assert_eq!(hex, json!([]));

    // Bad queries are refused in words.
    for (query, words) in [
        ("?limit=0", "limit 0: from 1 to 50"),
        ("?limit=51", "limit 51: from 1 to 50"),
        ("?game=chess", "chess"),
    ] {
        let (status, err) = tv(&server, query);
        assert_eq!(status, 400, "{query}: {err}");
        let message = err["error"]["message"].as_str().unwrap();
        assert!(message.contains(words), "{query}: {message}");
    }
}
