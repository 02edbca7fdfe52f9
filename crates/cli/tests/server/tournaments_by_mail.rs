//! A Swiss round played by mail (issue 34): players sign up, join, start and play a
//! correspondence Swiss through real SMTP, and read the standings by mail.

use crate::common::mail_kit;
use crate::common::mail_kit::{sign_up, wait_for, MailTest};

#[test]
fn a_correspondence_swiss_round_is_joined_played_and_shown_by_mail() {
    let test = MailTest::new();
    let caught = &test.caught;
    let _sink = test.relay(&[]);
    let server = test.serve(&["--smtp", "127.0.0.1:0", "--sweep-ms", "50"]);
    let send = |from: &str, subject: &str| server.mail(from, subject, "");
    let players = ["alice", "bob", "carol"];
    let address = |name: &str| format!("{name}@{name}.test");
    for name in players {
        sign_up(
            caught,
            &address(name),
            name,
            &format!("password-{name}"),
            send,
        );
        wait_for(caught, &address(name), &format!("signed up {name}"));
    }
    send(
        &address("alice"),
        "tournament create swiss Post alice password-alice rounds=1 days=3 rated=no",
    );
    let created = wait_for(caught, &address("alice"), "tournament 1 Post");
    assert!(
        created.body.contains("alice created tournament 1"),
        "{}",
        created.body
    );
    assert!(created.body.contains("3 days a move"), "{}", created.body);
    for name in players {
        let seen = mail_kit::count(caught, &address(name), "tournament 1 Post");
        send(
            &address(name),
            &format!("tournament join 1 {name} password-{name}"),
        );
        let joined = mail_kit::wait_for_nth(caught, &address(name), "tournament 1 Post", seen);
        assert!(
            joined.body.contains(&format!("{name} joined tournament 1")),
            "{}",
            joined.body
        );
    }
    send(&address("alice"), "tournament start 1 alice password-alice");
    // Seeds are equal (1500): by name, alice and bob meet on board 101, carol has the bye.
    let board = wait_for(caught, &address("bob"), "New ataxx Board 101");
    assert!(board.body.contains("alice (x) to start"), "{}", board.body);
    wait_for(caught, &address("alice"), "New ataxx Board 101");
    send(
        &address("alice"),
        "ataxx move 101 alice password-alice b6#1",
    );
    wait_for(caught, &address("bob"), "ataxx Board 101 bob");
    send(&address("bob"), "ataxx resign 101 bob password-bob");
    wait_for(caught, &address("alice"), "Board 101");
    // The round is over, and with it the tournament: alice 1, carol 1 (the bye), bob 0.
    let started = std::time::Instant::now();
    loop {
        let seen = mail_kit::count(caught, &address("carol"), "tournament 1 Post");
        send(&address("carol"), "tournament show 1");
        let last = mail_kit::wait_for_nth(caught, &address("carol"), "tournament 1 Post", seen);
        if last.body.contains("finished") {
            assert!(last.body.contains("bye: carol"), "{}", last.body);
            assert!(
                last.body.contains("alice (x) - bob (o)  1-0"),
                "{}",
                last.body
            );
            let lines: Vec<&str> = last.body.lines().filter(|l| l.contains(". ")).collect();
            assert!(
                lines[0].contains("alice") && lines[0].contains(" 1 "),
                "{lines:?}"
            );
            assert!(
                lines[2].contains("bob") && lines[2].contains(" 0 "),
                "{lines:?}"
            );
            break;
        }
        assert!(started.elapsed().as_secs() < 30, "{}", last.body);
        std::thread::sleep(std::time::Duration::from_millis(300));
    }
}
