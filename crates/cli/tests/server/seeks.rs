//! Open seeks, quick pairing and the lobby stream, through a real `ataxx serve`.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::common::served::{api, command, next_where, poll, signup_and_login, socket, Served};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_is_listed_taken_once_and_the_lobby_hears_it_all() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &[]);
    let alice = signup_and_login(&server, "alice", "secret-1");
    let bob = signup_and_login(&server, "bob", "secret-2");
    let mut lobby = socket(&server.ws("/api/lobby/ws")).await;
    let hello = next_where(&mut lobby, |v| v["type"] == "lobby").await;
    assert_eq!(hello["seeks"], json!([]));

    let (status, seek) = api(
        "POST",
        &server.url("/api/seeks"),
        Some(&alice),
        Some(json!({"game": "ataxx", "size": 5, "clock": "3+2", "rated": false, "color": "o"})),
    );
    assert_eq!(status, 201, "{seek}");
    let id = seek["id"].as_i64().unwrap();
    assert_eq!(
        (
            &seek["owner"],
            &seek["clock"],
            &seek["speed"],
            &seek["color"]
        ),
        (&json!("alice"), &json!("3+2"), &json!("live"), &json!("o"))
    );
    let added = next_where(&mut lobby, |v| v["type"] == "seek_added").await;
    assert_eq!(added["seek"]["id"], id);
    // Anyone may list seeks.
    let (_, listed) = api("GET", &server.url("/api/seeks"), None, None);
    assert_eq!(listed.as_array().unwrap().len(), 1);

    // Refusals in words: bad options, someone else's seek, one's own seek, a taken seek.
    let (status, err) = api(
        "POST",
        &server.url("/api/seeks"),
        Some(&alice),
        Some(json!({"clock": "3"})),
    );
    assert_eq!(status, 400);
    assert!(
        err["error"]["message"]
            .as_str()
            .unwrap()
            .contains("-clock=3"),
        "{err}"
    );
    let (status, err) = api(
        "POST",
        &server.url("/api/seeks"),
        Some(&alice),
        Some(json!({"game": "ataxx4"})),
    );
    assert_eq!(status, 400);
    assert!(
        err["error"]["message"]
            .as_str()
            .unwrap()
            .contains("two-player"),
        "{err}"
    );
    let (status, _) = api("POST", &server.url("/api/seeks"), None, Some(json!({})));
    assert_eq!(status, 401);
    let (status, _) = api(
        "DELETE",
        &server.url(&format!("/api/seeks/{id}")),
        Some(&bob),
        None,
    );
    assert_eq!(status, 403);
    let accept = format!("/api/seeks/{id}/accept");
    let (status, err) = api("POST", &server.url(&accept), Some(&alice), None);
    assert_eq!(status, 400);
    assert!(
        err["error"]["message"]
            .as_str()
            .unwrap()
            .contains("your own"),
        "{err}"
    );

    let (status, game) = api("POST", &server.url(&accept), Some(&bob), None);
    assert_eq!(status, 201, "{game}");
    // Alice asked for o: bob moves first; both seated, the game running, unrated, 5x5, 3+2.
    assert_eq!((&game["x"], &game["o"]), (&json!("bob"), &json!("alice")));
    assert_eq!(game["status"], "active");
    assert_eq!(game["rated"], false);
    assert_eq!(game["fen"], "x3o/5/5/5/o3x x 0 1");
    assert_eq!(game["clock"]["initial_ms"], 180_000);
    assert_eq!(game["clock"]["increment_ms"], 2_000);
    // The game is announced as its transaction commits, then the seeks it took.
    let started = next_where(&mut lobby, |v| v["type"] == "game_started").await;
    assert_eq!(started["game"]["board"], game["board"]);
    let removed = next_where(&mut lobby, |v| v["type"] == "seek_removed").await;
    assert_eq!(removed["id"], id);
    let (status, err) = api("POST", &server.url(&accept), Some(&bob), None);
    assert_eq!(status, 404);
    assert!(err["error"]["message"]
        .as_str()
        .unwrap()
        .contains("taken or withdrawn"));
    let (_, listed) = api("GET", &server.url("/api/seeks"), None, None);
    assert_eq!(listed, json!([]));

    // The game's end reaches the lobby too.
    let board = game["board"].as_i64().unwrap();
    let (status, _) = api(
        "POST",
        &server.url(&format!("/api/games/{board}/move")),
        Some(&bob),
        Some(json!({"move": "resign"})),
    );
    assert_eq!(status, 200);
    let ended = next_where(&mut lobby, |v| v["type"] == "game_ended").await;
    assert_eq!(ended["game"]["board"], board);
    lobby.close(None).await.unwrap();
}

#[test]
fn concurrent_accepts_of_one_seek_create_exactly_one_game() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &[]);
    let owner = signup_and_login(&server, "owner", "secret-0");
    let takers: Vec<(String, String)> = (0..6)
        .map(|i| {
            let name = format!("taker{i}");
            let token = signup_and_login(&server, &name, "secret-9");
            (name, token)
        })
        .collect();
    for round in 0..4 {
        let (status, seek) = api(
            "POST",
            &server.url("/api/seeks"),
            Some(&owner),
            Some(json!({"color": "x"})),
        );
        assert_eq!(status, 201, "{seek}");
        let path = format!("/api/seeks/{}/accept", seek["id"]);
        let barrier = std::sync::Barrier::new(takers.len());
        let answers: Vec<(String, u16, Value)> = std::thread::scope(|scope| {
            let handles: Vec<_> = takers
                .iter()
                .map(|(name, token)| {
                    let (url, barrier) = (server.url(&path), &barrier);
                    scope.spawn(move || {
                        barrier.wait();
                        let (status, body) = api("POST", &url, Some(token), None);
                        (name.clone(), status, body)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let mut by_status: BTreeMap<u16, Vec<&(String, u16, Value)>> = BTreeMap::new();
        for answer in &answers {
            by_status.entry(answer.1).or_default().push(answer);
        }
        assert_eq!(by_status[&201].len(), 1, "round {round}: {answers:?}");
        assert_eq!(by_status[&404].len(), takers.len() - 1, "{answers:?}");
        let winner = by_status[&201][0];
        assert_eq!(
            (&winner.2["x"], &winner.2["o"]),
            (&json!("owner"), &json!(winner.0))
        );
    }
    // Four rounds, four games: nobody else got a board.
    let (_, games) = api("GET", &server.url("/api/games?status=active"), None, None);
    assert_eq!(games.as_array().unwrap().len(), 4, "{games}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_seeks_vanish_when_their_owners_last_page_closes() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &[]);
    let alice = signup_and_login(&server, "alice", "secret-1");
    let mut watcher = socket(&server.ws("/api/lobby/ws")).await;
    let mut page1 = socket(&server.ws(&format!("/api/lobby/ws?token={alice}"))).await;
    let mut page2 = socket(&server.ws(&format!("/api/ws?token={alice}"))).await;
    next_where(&mut page1, |v| v["type"] == "lobby").await;
    next_where(&mut page2, |v| v["type"] == "hello").await;
    let post = |body: Value| {
        let (status, seek) = api("POST", &server.url("/api/seeks"), Some(&alice), Some(body));
        assert_eq!(status, 201, "{seek}");
        seek["id"].as_i64().unwrap()
    };
    let live = post(json!({"clock": "1+0"}));
    let correspondence = post(json!({"clock": null}));
    page1.close(None).await.unwrap();
    // One page is still open: the live seek stays.
    let ids = |seeks: &Value| -> Vec<i64> {
        seeks
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["id"].as_i64().unwrap())
            .collect()
    };
    let (_, seeks) = api("GET", &server.url("/api/seeks"), None, None);
    assert_eq!(ids(&seeks), [live, correspondence]);
    page2.close(None).await.unwrap();
    let removed = next_where(&mut watcher, |v| v["type"] == "seek_removed").await;
    assert_eq!(removed["id"], live);
    let seeks = poll(&server, "/api/seeks", 10, |s| {
        s.as_array().is_some_and(|a| a.len() == 1)
    });
    assert_eq!(ids(&seeks), [correspondence]);
}

#[test]
fn quick_pairing_and_the_pbmserv_seek_command_share_the_seeks() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &[]);
    let alice = signup_and_login(&server, "alice", "secret-1");
    signup_and_login(&server, "bob", "secret-2");
    let carol = signup_and_login(&server, "carol", "secret-3");

    // Two correspondence seeks posted through the command language.
    let reply = command(&server, "ataxx seek -color=x alice secret-1 2");
    assert!(reply["ok"].as_bool().unwrap(), "{reply}");
    assert_eq!(reply["data"]["seeks"].as_array().unwrap().len(), 2);
    assert!(
        reply["text"].as_str().unwrap().contains("is open"),
        "{reply}"
    );
    let (_, seeks) = api("GET", &server.url("/api/seeks"), None, None);
    assert_eq!(seeks.as_array().unwrap().len(), 2);
    assert_eq!(seeks[0]["speed"], "correspondence");

    // A 5x5 seek does not match them: it is posted.
    let reply = command(&server, "ataxx seek -size=5 bob secret-2 1");
    assert_eq!(
        reply["data"]["seeks"].as_array().unwrap().len(),
        1,
        "{reply}"
    );
    // Bob's plain seek takes alice's oldest.
    let reply = command(&server, "ataxx seek bob secret-2 1");
    let games = reply["data"]["games"].as_array().unwrap();
    assert_eq!(games.len(), 1, "{reply}");
    assert_eq!(
        (&games[0]["x"], &games[0]["o"]),
        (&json!("alice"), &json!("bob"))
    );
    assert!(
        reply["text"].as_str().unwrap().contains("started"),
        "{reply}"
    );

    // Quick pairing over HTTP takes alice's second seek; the next one finds none and posts.
    let pair = |token: &str| {
        api(
            "POST",
            &server.url("/api/seeks/pair"),
            Some(token),
            Some(json!({"color": "random"})),
        )
    };
    let (status, paired) = pair(&carol);
    assert_eq!(status, 201, "{paired}");
    assert_eq!(paired["game"]["x"], "alice");
    assert_eq!(paired["game"]["o"], "carol");
    let (status, paired) = pair(&carol);
    assert_eq!(status, 202, "{paired}");
    assert_eq!(paired["seek"]["owner"], "carol");
    // Alice's quick pairing takes carol's seek.
    let (status, paired) = pair(&alice);
    assert_eq!(status, 201, "{paired}");

    // `seek ... 0` withdraws; a bad count and a wrong password are refused in words.
    let reply = command(&server, "ataxx seek bob secret-2 0");
    assert_eq!(
        reply["data"]["withdrawn"].as_array().unwrap().len(),
        1,
        "{reply}"
    );
    let (_, seeks) = api("GET", &server.url("/api/seeks"), None, None);
    assert_eq!(seeks, json!([]));
    let reply = command(&server, "ataxx seek bob secret-2 99");
    assert!(
        reply["text"]
            .as_str()
            .unwrap()
            .contains("usage: ataxx seek"),
        "{reply}"
    );
    let reply = command(&server, "ataxx seek bob wrong 1");
    assert_eq!(reply["data"]["code"], "auth", "{reply}");
}
