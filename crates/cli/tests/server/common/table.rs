//! What most server tests open with, in one call: accounts signed up and a game between them
//! in play. A test of signing up or challenging itself does those steps by hand.

use std::ops::Deref;

use serde_json::{json, Value};

use super::served::{api, signup_and_login, Served, TextDoor};

/// Starts a game over the API: `challenger` (a session token) challenges `opponents` (userid
/// and token each) with `body` (the rest of `POST /api/games`: game, color, options), and each
/// accepts. Returns the board and the game as the last acceptance answered it.
pub fn start_game(
    server: &Served,
    challenger: &str,
    opponents: &[(&str, &str)],
    mut body: Value,
) -> (i64, Value) {
    let names: Vec<&str> = opponents.iter().map(|(name, _)| *name).collect();
    // One opponent is named as a person's challenge names one; several as a list.
    match names[..] {
        [one] => body["opponent"] = json!(one),
        _ => body["opponents"] = json!(names),
    }
    let (status, mut game) = api(
        "POST",
        &server.url("/api/games"),
        Some(challenger),
        Some(body),
    );
    assert_eq!(status, 201, "{game}");
    let board = game["board"].as_i64().unwrap();
    let accept = server.url(&format!("/api/games/{board}/accept"));
    for (_, token) in opponents {
        let (status, answer) = api("POST", &accept, Some(token), None);
        assert_eq!(status, 200, "{answer}");
        game = answer;
    }
    assert_eq!(game["status"], "active", "{game}");
    (board, game)
}

/// A fresh server (in a folder of its own, removed with it) with players signed up and a game
/// between them in play on `board`. It derefs to its [`Served`].
pub struct Table {
    server: Served,
    pub board: i64,
    _dir: tempfile::TempDir,
}

impl Table {
    /// Over the API: `players` (userid, password) sign up and log in, and the first challenges
    /// the others with `body` (see [`start_game`]), who accept. Returns each player's session
    /// token too, in the order of `players`, and the game as the last acceptance answered it.
    pub fn over_api(
        extra: &[&str],
        players: &[(&str, &str)],
        body: Value,
    ) -> (Table, Vec<String>, Value) {
        let dir = tempfile::tempdir().unwrap();
        let server = Served::fresh(&dir, extra);
        let tokens: Vec<String> = players
            .iter()
            .map(|(user, password)| signup_and_login(&server, user, password))
            .collect();
        let opponents: Vec<(&str, &str)> = players[1..]
            .iter()
            .zip(&tokens[1..])
            .map(|((user, _), token)| (*user, token.as_str()))
            .collect();
        let (board, game) = start_game(&server, &tokens[0], &opponents, body);
        let table = Table {
            server,
            board,
            _dir: dir,
        };
        (table, tokens, game)
    }

    /// Over the text door: `players` sign up, `challenge` (a whole command, `<game> challenge
    /// ...`) makes board 101, the first of a fresh server, and each of `players` it names
    /// accepts. Returns the text connection it used.
    pub fn by_text(extra: &[&str], players: &[(&str, &str)], challenge: &str) -> (Table, TextDoor) {
        let dir = tempfile::tempdir().unwrap();
        let server = Served::fresh(&dir, extra);
        let mut door = server.text();
        door.signup(players);
        let named: Vec<(&str, &str)> = players
            .iter()
            .copied()
            .filter(|(user, _)| challenge.split_whitespace().any(|word| word == *user))
            .collect();
        door.start(challenge, 101, &named);
        let table = Table {
            server,
            board: 101,
            _dir: dir,
        };
        (table, door)
    }
}

impl Deref for Table {
    type Target = Served;

    fn deref(&self) -> &Served {
        &self.server
    }
}
