//! Issue #28's findings on the mail door, each through a real `ataxx serve` and `ataxx mail-in`,
//! a real SMTP relay catching the server's mail (aiosmtpd) and a real database: what a stranger
//! can make the server mail to others, bounces and auto-responders, the database `mail-in`
//! writes to, what is kept of a processed mail, and the mails' own shape.

use std::time::{Duration, Instant};

use crate::common::mail_kit::{
    count, mail_in, mail_in_from, mails_to, next_mail, sign_up, wait_for, wait_for_nth,
    wait_for_subject, MailTest,
};
use crate::common::served::{api, http, Served};
use crate::common::text_setup::ALICE;
use crate::common::{mail_kit, stdout_of};

fn raw(from: &str, subject: &str, headers: &str, body: &str) -> Vec<u8> {
    format!("From: {from}\r\nTo: ataxx@games.test\r\nSubject: {subject}\r\n{headers}\r\n{body}")
        .into_bytes()
}

/// Delivers through `ataxx mail-in` a message from `from`.
fn send(test: &MailTest, from: &str, subject: &str) {
    test.deliver(&raw(from, subject, "", ""));
}

/// Waits until the inbox has processed every message, then a little longer for the relay.
fn settle(test: &MailTest) {
    let start = Instant::now();
    while stdout_of(&["mailq", "--inbox", "--db", test.db_arg()]).contains(" new ") {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the inbox never emptied"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(700));
}

/// Signs each (address, userid) up with `password`, confirmed, and waits for the welcomes.
fn players(test: &MailTest, players: &[(&str, &str)], password: &str) {
    for (address, user) in players {
        sign_up(&test.caught, address, user, password, |f, s| {
            send(test, f, s)
        });
        wait_for(&test.caught, address, &format!("signed up {user}"));
    }
}

/// The relay and a server on which alice and bob (password `password`) signed up and alice challenged
/// bob: board 101, its notice the last mail each of them has.
fn alice_challenges_bob(test: &MailTest) -> (mail_kit::Sink, Served) {
    let running = (test.relay(&[]), test.serve(&[]));
    let (alice, bob) = ("alice@a.test", "bob@b.test");
    players(test, &[(alice, "alice"), (bob, "bob")], "password");
    send(test, alice, "ataxx challenge -password=password alice bob");
    wait_for(&test.caught, bob, "New ataxx Board 101");
    wait_for(&test.caught, alice, "New ataxx Board 101");
    running
}

const VICTIM: &str = "victim@v.test";

#[test]
fn a_stranger_cannot_make_the_server_mail_others_more_than_a_confirmation() {
    let test = MailTest::new();
    let caught = &test.caught;
    let _sink = test.relay(&[]);
    let _server = test.serve(&[]);
    players(&test, &[("bob@b.test", "bob")], "password2");

    // A password shorter than 8 characters is refused by mail as on the other doors.
    send(&test, "shorty@s.test", "signup shorty 7-chars");
    let refused = wait_for(caught, "shorty@s.test", "error: invalid password");
    assert!(
        refused.body.contains("at least 8 characters"),
        "{}",
        refused.body
    );

    // Signing up with someone else's address mails it one confirmation and nothing else.
    send(
        &test,
        "mallory@m.test",
        &format!("signup mallory password9 {VICTIM}"),
    );
    let confirm = wait_for(caught, VICTIM, "confirm address mallory ");
    assert!(
        confirm.body.contains("ignore this mail"),
        "{}",
        confirm.body
    );
    // A challenge without a password is refused: it would mail bob (and the victim).
    send(&test, "mallory@m.test", "ataxx challenge mallory bob");
    send(&test, "mallory@m.test", "ataxx challenge bob mallory");
    // Nor can an account whose address is not confirmed send messages.
    let bobs = vec!["bob"; 200].join(" ");
    for _ in 0..2 {
        let subject = format!("message mallory password9 {bobs}");
        test.deliver(&raw("mallory@m.test", &subject, "", "Buy now!\r\n"));
    }
    // Another signup of the victim's address, and another: at most 3 confirmations an hour.
    for n in 0..4 {
        send(
            &test,
            "mallory@m.test",
            &format!("signup mal{n} password9 {VICTIM}"),
        );
    }
    settle(&test);
    let to_victim = mails_to(caught, VICTIM);
    assert!(
        to_victim.len() <= 3
            && to_victim
                .iter()
                .all(|m| m.subject.starts_with("confirm address")),
        "{:#?}",
        to_victim.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    assert_eq!(
        count(caught, "bob@b.test", "Board"),
        0,
        "no challenge mailed"
    );
    assert_eq!(count(caught, "bob@b.test", "message from mallory"), 0);
    let inbox = stdout_of(&["mailq", "--inbox", "--db", test.db_arg()]);
    let unconfirmed = "mallory has no confirmed address yet";
    assert_eq!(inbox.matches(unconfirmed).count(), 2, "{inbox}");
    assert_eq!(
        inbox
            .matches("this server mails the players of a challenge")
            .count(),
        2,
        "{inbox}"
    );

    // Messages from confirmed accounts: at most 10 names, each address takes at most 10 an hour.
    players(&test, &[("carol@c.test", "carol")], "password3");
    let many: Vec<String> = (0..11).map(|n| format!("u{n}")).collect();
    let subject = format!("message carol password3 {}", many.join(" "));
    test.deliver(&raw("carol@c.test", &subject, "", "hello\r\n"));
    let refused = wait_for(caught, "carol@c.test", "error");
    assert!(
        refused.subject.contains("at most 10 users, not 11"),
        "{}",
        refused.subject
    );
    for _ in 0..14 {
        test.deliver(&raw(
            "carol@c.test",
            "message carol password3 bob",
            "",
            "hello\r\n",
        ));
    }
    settle(&test);
    let messages = count(caught, "bob@b.test", "message from");
    assert!((1..=10).contains(&messages), "bob got {messages} messages");
}

/// Signs `user` up by mail from the first of `addresses` with all of them, and answers each
/// address's own confirmation from it.
fn sign_up_with(test: &MailTest, user: &str, password: &str, addresses: &[&str]) {
    send(
        test,
        addresses[0],
        &format!("signup {user} {password} {}", addresses.join(" ")),
    );
    for address in addresses {
        let confirm = wait_for(&test.caught, address, &format!("confirm address {user} "));
        send(test, address, &format!("Re: {}", confirm.subject));
    }
    // The last confirmation's answer lists every address.
    let changed = wait_for(
        &test.caught,
        addresses[addresses.len() - 1],
        "address changed",
    );
    assert!(
        changed.body.contains(&addresses.join(" ")),
        "{}",
        changed.body
    );
}

#[test]
fn one_token_confirms_one_address_and_an_account_lists_at_most_three() {
    let test = MailTest::new();
    let caught = &test.caught;
    let _sink = test.relay(&[]);
    let _server = test.serve(&[]);
    players(&test, &[("bob@b.test", "bob")], "password2");
    let mallory = "mallory@m.test";

    // One signup naming 200 addresses is refused before any is mailed.
    let victims: Vec<String> = (0..200).map(|n| format!("victim{n}@v.test")).collect();
    let subject = format!("signup mallory password9 {mallory} {}", victims.join(" "));
    send(&test, mallory, &subject);
    let refused = wait_for(caught, mallory, "error");
    assert!(
        refused
            .subject
            .contains("at most 3 mail addresses, not 201"),
        "{}",
        refused.subject
    );

    // Her own address and a victim's: each gets its own token, and hers confirms hers alone.
    send(
        &test,
        mallory,
        &format!("signup mallory password9 {mallory} {VICTIM}"),
    );
    let hers = wait_for(caught, mallory, "confirm address mallory ");
    let victims_token = wait_for(caught, VICTIM, "confirm address mallory ");
    assert_ne!(hers.subject, victims_token.subject);
    assert!(
        !victims_token.body.contains(mallory),
        "{}",
        victims_token.body
    );
    send(&test, mallory, &format!("Re: {}", hers.subject));
    let welcome = wait_for(caught, mallory, "signed up mallory");
    assert!(
        welcome.body.contains(mallory) && !welcome.body.contains(VICTIM),
        "{}",
        welcome.body
    );
    // A token confirms once.
    send(&test, mallory, &format!("Re: {}", hers.subject));
    let again = wait_for_nth(caught, mallory, "error", 1);
    assert!(
        again.subject.contains("no address of mallory waits"),
        "{}",
        again.subject
    );
    // Her challenge's board mail goes to her address, not the victim's.
    send(
        &test,
        mallory,
        "ataxx challenge -password=password9 mallory bob",
    );
    wait_for(caught, mallory, "New ataxx Board 101");
    wait_for(caught, "bob@b.test", "New ataxx Board 101");
    settle(&test);
    let to_victim = mails_to(caught, VICTIM);
    assert_eq!(
        to_victim.len(),
        1,
        "{:#?}",
        to_victim.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    // `change address` is capped as the signup is.
    let four = "a@x.test b@x.test c@x.test d@x.test";
    send(
        &test,
        mallory,
        &format!("change address mallory password9 {four}"),
    );
    let refused = wait_for_nth(caught, mallory, "error", 2);
    assert!(
        refused.subject.contains("at most 3 mail addresses, not 4"),
        "{}",
        refused.subject
    );

    // The sender's 30 messages an hour are counted in mails: four users with three addresses
    // each take 12 a message, so the third message is refused whole.
    for n in 0..4 {
        let addresses: Vec<String> = (0..3).map(|a| format!("u{n}.{a}@u.test")).collect();
        let addresses: Vec<&str> = addresses.iter().map(String::as_str).collect();
        sign_up_with(&test, &format!("u{n}"), "password4", &addresses);
    }
    players(&test, &[("carol@c.test", "carol")], "password3");
    for _ in 0..3 {
        test.deliver(&raw(
            "carol@c.test",
            "message carol password3 u0 u1 u2 u3",
            "",
            "hi\r\n",
        ));
    }
    let refused = wait_for(caught, "carol@c.test", "error");
    assert!(
        refused.subject.contains("would go to 12 addresses"),
        "{}",
        refused.subject
    );
    settle(&test);
    let messages: usize = (0..4)
        .flat_map(|n| (0..3).map(move |a| format!("u{n}.{a}@u.test")))
        .map(|address| count(caught, &address, "message from carol"))
        .sum();
    assert_eq!(messages, 24);
}

#[test]
fn mail_in_refuses_a_database_that_is_not_the_servers_as_a_temporary_failure() {
    let test = MailTest::new();
    let typo = test.dir.path().join("typo.db");
    let out = mail_in(&typo, &raw("a@a.test", "help", "", ""));
    assert_eq!(out.status.code(), Some(75), "{out:?}");
    assert!(!typo.exists(), "mail-in created {}", typo.display());
    // A file that is some other thing's database (or no database) is not the server's either.
    let other = test.dir.path().join("other.db");
    std::fs::write(&other, b"not a database").unwrap();
    let out = mail_in(&other, &raw("a@a.test", "help", "", ""));
    assert_eq!(out.status.code(), Some(75), "{out:?}");
    assert_eq!(std::fs::read(&other).unwrap(), b"not a database");
    // The server's own database takes it.
    drop(test.serve(&[]));
    let out = mail_in(&test.db, &raw("a@a.test", "help", "", ""));
    assert!(out.status.success(), "{out:?}");
}

#[test]
fn bounces_are_never_answered_whatever_the_mta_calls_the_null_sender() {
    let test = MailTest::new();
    let caught = &test.caught;
    let _sink = test.relay(&[]);
    let _server = test.serve(&[]);
    // Postfix's pipe passes a null sender as MAILER-DAEMON unless null_sender= is set.
    for sender in ["MAILER-DAEMON", "", "<>"] {
        let message = raw("alice@a.test", "help", "", "Delivery failed\r\n");
        let out = mail_in_from(&test.db, sender, &message);
        assert!(out.status.success(), "{out:?}");
    }
    let out = mail_in_from(&test.db, "ivan@i.test", &raw("ivan@i.test", "help", "", ""));
    assert!(out.status.success(), "{out:?}");
    wait_for(caught, "ivan@i.test", "help");
    settle(&test);
    assert!(mails_to(caught, "alice@a.test").is_empty());
    let inbox = stdout_of(&["mailq", "--inbox", "--db", test.db_arg()]);
    assert_eq!(inbox.matches("a bounce").count(), 3, "{inbox}");
}

/// Answers each mail to `address` after the first `seen` as a naive auto-responder would, for
/// `secs` seconds: `prefix` + the Subject, keeping In-Reply-To when `threads`, never
/// Auto-Submitted.
fn auto_respond(
    test: &MailTest,
    address: &str,
    seen: usize,
    prefix: &str,
    threads: bool,
    secs: u64,
) {
    let start = Instant::now();
    let mut answered = seen;
    while start.elapsed() < Duration::from_secs(secs) {
        let mails = mails_to(&test.caught, address);
        for mail in &mails[answered..] {
            let headers = match threads {
                true => format!("In-Reply-To: {}\r\n", mail.message_id),
                false => String::new(),
            };
            let subject = format!("{prefix}{}", mail.subject);
            test.deliver(&raw(
                address,
                &subject,
                &headers,
                "I am away until Monday.\r\n",
            ));
        }
        answered = mails.len();
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn an_auto_responder_without_rfc_3834_headers_gets_one_error_not_a_loop() {
    let test = MailTest::new();
    let caught = &test.caught;
    let _running = alice_challenges_bob(&test);
    let send = |f: &str, s: &str| send(&test, f, s);
    // Bob's responder answers "Re: <subject>"; the board mail's answer is an unknown command.
    let seen = mails_to(caught, "bob@b.test").len() - 1;
    auto_respond(&test, "bob@b.test", seen, "Re: ", false, 6);
    let errors = count(caught, "bob@b.test", "error");
    assert_eq!(errors, 1, "{:#?}", mails_to(caught, "bob@b.test"));

    // Alice's responder writes its own Subject but keeps In-Reply-To.
    let seen = mails_to(caught, "alice@a.test").len();
    send("alice@a.test", "ataxx frobnicate");
    wait_for(caught, "alice@a.test", "error");
    auto_respond(&test, "alice@a.test", seen, "Away: ", true, 4);
    assert_eq!(count(caught, "alice@a.test", "error"), 1);

    // Whatever the answers, at most 5 errors an hour go to one address.
    for n in 0..8 {
        send("bob@b.test", &format!("nonsense{n}"));
    }
    settle(&test);
    assert_eq!(count(caught, "bob@b.test", "error"), 5);
}

#[test]
fn a_processed_mail_is_not_kept_and_its_password_is_nowhere_in_the_inbox() {
    let test = MailTest::new();
    let caught = &test.caught;
    let _sink = test.relay(&[]);
    let _server = test.serve(&[]);
    players(&test, &[("dora@d.test", "dora")], "Sekrit-77");
    send(&test, "dora@d.test", "change mail dora Sekrit-77 all");
    wait_for(caught, "dora@d.test", "mail settings changed");
    settle(&test);
    let inbox = stdout_of(&["mailq", "--inbox", "--json", "--db", test.db_arg()]);
    let rows: Vec<serde_json::Value> = inbox
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 3, "{inbox}");
    for row in &rows {
        assert_eq!(row["status"], "done", "{inbox}");
        assert_eq!(row["kept_bytes"], 0, "{inbox}");
    }
    assert!(!inbox.contains("Sekrit-77"), "{inbox}");
}

#[test]
fn computer_players_are_not_challenged_to_play_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &[]);
    let mut door = server.text();
    door.signup(&[ALICE]);
    let refused = door.send("ataxx challenge bot-master bot-very-hard");
    assert!(
        refused.starts_with("error: invalid challenge: computer players do not challenge"),
        "{refused}"
    );
    let refused = door.send("ataxx challenge -players=4 bot-easy bot-medium bot-hard bot-master");
    assert!(refused.starts_with("error: invalid challenge"), "{refused}");
    // A person's challenge to a bot is taken, and the bot accepts at once.
    door.start("ataxx challenge alice bot-very-easy", 101, &[ALICE]);
    assert_eq!(door.board(101)["status"], "active");
}

#[test]
fn the_same_message_twice_is_run_once_and_outgoing_mail_is_mime() {
    let test = MailTest::new();
    let caught = &test.caught;
    let _sink = test.relay(&[]);
    let _server = test.serve(&["--mail-max-bytes", "4096"]);
    sign_up(caught, "eve@e.test", "eve", "password5", |f, s| {
        send(&test, f, s)
    });
    let welcome = wait_for(caught, "eve@e.test", "signed up eve");
    // Quoted-printable UTF-8 says so: MIME-Version: 1.0.
    assert_eq!(welcome.mime_version, "1.0");
    players(&test, &[("fred@f.test", "fred")], "password6");

    let message = raw(
        "eve@e.test",
        "message eve password5 fred",
        "Message-ID: <once@e.test>\r\n",
        "Only once, please.\r\n",
    );
    for _ in 0..2 {
        let out = mail_in(&test.db, &message);
        assert!(out.status.success(), "{out:?}");
    }
    wait_for(caught, "fred@f.test", "message from eve");
    settle(&test);
    assert_eq!(count(caught, "fred@f.test", "message from eve"), 1);

    // mail-in keeps up to its own --max-bytes (256 KiB), but the server reads 4096 bytes: the
    // 10 KB message is refused, and the refusal does not repeat the Subject's password.
    let large = raw(
        "eve@e.test",
        "message eve password5 fred",
        "",
        &"x".repeat(10_000),
    );
    test.deliver(&large);
    let refusal = wait_for(caught, "eve@e.test", "not read: too large");
    assert!(
        !refusal.subject.contains("password5"),
        "{}",
        refusal.subject
    );
    assert!(refusal.body.contains("(4096 bytes)"), "{}", refusal.body);
    settle(&test);
    assert_eq!(count(caught, "fred@f.test", "message from eve"), 1);
}

#[test]
fn forged_mails_with_wrong_passwords_do_not_lock_the_owner_out_of_their_account() {
    let test = MailTest::new();
    let caught = &test.caught;
    let _sink = test.relay(&[]);
    let server = test.serve(&["--smtp", "127.0.0.1:0"]);
    players(&test, &[("bob@b.test", "bob")], "password2");
    let inbox = || stdout_of(&["mailq", "--inbox", "--db", test.db_arg()]);
    // Eleven guesses from a forged sender: that sender is held back on bob's account.
    for n in 0..11 {
        send(
            &test,
            "guesser@g.test",
            &format!("change mail bob guess{n} all"),
        );
    }
    settle(&test);
    assert!(inbox().contains("too many attempts"), "{}", inbox());
    // Bob's own mail with his password still works.
    send(&test, "bob@b.test", "change mail bob password2 move end");
    let changed = wait_for(caught, "bob@b.test", "mail settings changed");
    assert!(
        changed.body.contains("bob is mailed for: move, end"),
        "{}",
        changed.body
    );

    // Twelve guesses forging bob's own From, handed to us from another network (issue #50,
    // finding 6): the topmost Received line, which our MTA writes, tells them apart.
    let received = |ip: &str| {
        format!("Received: from mx.test (mx.test [{ip}])\r\n\tby games.test; Tue, 1 Dec 2026 10:00:00 +0000\r\n")
    };
    let forged = received("198.51.100.7");
    for n in 0..12 {
        let subject = format!("change mail bob guess{n} all");
        test.deliver(&raw("bob@b.test", &subject, &forged, ""));
    }
    // Even the right password waits on the forger's network,
    let subject = "change mail bob password2 chat";
    test.deliver(&raw("bob@b.test", subject, &forged, ""));
    settle(&test);
    let held = inbox().matches("too many attempts").count();
    // but bob's own mail, from his provider, is heard.
    let real = received("203.0.113.5");
    let subject = "change mail bob password2 move end challenge";
    test.deliver(&raw("bob@b.test", subject, &real, ""));
    let changed = wait_for_nth(caught, "bob@b.test", "mail settings changed", 1);
    assert!(
        changed.body.contains("challenge, move, end"),
        "{}",
        changed.body
    );
    assert!(held >= 2, "{}", inbox());

    // The same through the SMTP door, which writes that Received line itself: twelve forgeries
    // from this machine, then bob's mail handed over locally (no Received line) is heard.
    for n in 0..12 {
        server.mail("bob@b.test", &format!("change mail bob guess{n} all"), "");
    }
    settle(&test);
    send(&test, "bob@b.test", "change mail bob password2 move");
    let changed = wait_for_nth(caught, "bob@b.test", "mail settings changed", 2);
    assert!(
        changed.body.contains("bob is mailed for: move\n"),
        "{}",
        changed.body
    );
}

#[test]
fn two_moves_in_one_round_are_both_named_and_a_comment_goes_with_one_board_mail() {
    let test = MailTest::new();
    let caught = &test.caught;
    let _running = alice_challenges_bob(&test);
    let send = |f: &str, s: &str| send(&test, f, s);
    send("bob@b.test", "ataxx accept 101 bob password");
    send("alice@a.test", "ataxx accept 101 alice password");
    wait_for(caught, "bob@b.test", "New ataxx Board 101 alice");
    // Bob's queued answer is played in the same change as alice's move: one board mail.
    let seen = mails_to(caught, "bob@b.test").len();
    send("bob@b.test", "ataxx queue 101 bob password f6#2");
    let queued = next_mail(caught, "bob@b.test", seen);
    assert!(queued.body.contains("Queued f6 for bob"), "{}", queued.body);
    let comment = "Line one\r\n  indented line two\r\n";
    test.deliver(&raw(
        "alice@a.test",
        "ataxx move 101 alice password b6#1",
        "",
        comment,
    ));
    let board = wait_for(caught, "bob@b.test", "ataxx Board 101 alice **");
    assert!(
        board
            .body
            .starts_with("2 moves since the last mail: 1. b6 by alice, 2. f6 by bob."),
        "{}",
        board.body
    );
    // Every line of the comment indented under its writer.
    assert!(
        board
            .body
            .contains(":\n  Line one\n    indented line two\n"),
        "{}",
        board.body
    );
    // The next board mail does not repeat it.
    send("alice@a.test", "ataxx move 101 alice password a6#3");
    let next = wait_for_subject(caught, "bob@b.test", "ataxx Board 101 bob");
    assert!(!next.body.contains("Line one"), "{}", next.body);
    assert!(
        !next.body.contains("moves since the last mail"),
        "{}",
        next.body
    );
}

#[test]
fn a_player_banned_by_mail_is_refused_by_mail_in_words() {
    let test = MailTest::new();
    let caught = &test.caught;
    let _sink = test.relay(&[]);
    let _server = test.serve(&["--admin", "root"]);
    players(
        &test,
        &[
            ("root@r.test", "root"),
            ("alice@a.test", "alice"),
            ("bob@b.test", "bob"),
        ],
        "password",
    );
    let send = |f: &str, s: &str| send(&test, f, s);
    let (bob, alice) = ("bob@b.test", "alice@a.test");

    // The admin bans bob by mail, and is told so.
    let seen = mails_to(caught, "root@r.test").len();
    send("root@r.test", "admin ban root password bob spam by mail");
    let done = next_mail(caught, "root@r.test", seen);
    assert!(done.body.contains("bob"), "{}", done.body);
    assert!(!done.body.contains("error"), "{}", done.body);

    // Whatever bob mails with his right password is refused, saying why.
    for (n, subject) in [
        "message bob password alice",
        "ataxx challenge -password=password bob alice",
    ]
    .into_iter()
    .enumerate()
    {
        let seen = mails_to(caught, bob).len();
        send(bob, subject);
        let refused = next_mail(caught, bob, seen);
        assert!(
            refused
                .body
                .contains("bob is banned by the server's admins"),
            "mail {n}: {}",
            refused.body
        );
    }
    settle(&test);
    assert_eq!(count(caught, alice, "message from bob"), 0);
    assert_eq!(count(caught, alice, "New ataxx Board"), 0);
}

#[test]
fn a_player_muted_by_a_moderator_cannot_chat_by_mail_until_the_mute_runs_out() {
    let test = MailTest::new();
    let caught = &test.caught;
    let _sink = test.relay(&[]);
    let server = test.serve(&["--admin", "root", "--test-clock"]);
    let (alice, bob) = ("alice@a.test", "bob@b.test");
    players(
        &test,
        &[("root@r.test", "root"), (alice, "alice"), (bob, "bob")],
        "password",
    );
    let send = |f: &str, s: &str| send(&test, f, s);
    send(alice, "ataxx challenge -password=password alice bob");
    wait_for(caught, bob, "New ataxx Board 101");
    send(bob, "ataxx accept 101 bob password");
    send(alice, "ataxx accept 101 alice password");
    wait_for(caught, bob, "New ataxx Board 101 alice");

    // The admin mutes bob for ten minutes over the API.
    let root = api(
        "POST",
        &server.url("/api/login"),
        None,
        Some(serde_json::json!({"userid": "root", "password": "password"})),
    )
    .1["token"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, muted) = api(
        "POST",
        &server.url("/api/users/bob/mute"),
        Some(&root),
        Some(serde_json::json!({"minutes": 10, "reason": "shouting"})),
    );
    assert_eq!(status, 200, "{muted}");

    // Bob's chat by mail is refused in words; alice hears nothing of it.
    let seen = mails_to(caught, bob).len();
    send(bob, "ataxx chat 101 bob password hello?");
    let refused = next_mail(caught, bob, seen);
    assert!(
        refused.body.contains("bob is muted for 10 more minutes"),
        "{}",
        refused.body
    );
    settle(&test);
    assert!(
        mails_to(caught, alice)
            .iter()
            .all(|m| !m.body.contains("hello?")),
        "a muted chat reached alice"
    );

    // Once it has run out, the same mail is said.
    let seen = mails_to(caught, alice).len();
    let (status, _, advanced) = http(
        "POST",
        &server.url("/api/command"),
        None,
        Some(b"clock advance 601".to_vec()),
    );
    assert_eq!(status, 200, "{advanced}");
    send(bob, "ataxx chat 101 bob password hello again");
    let heard = next_mail(caught, alice, seen);
    assert!(heard.body.contains("hello again"), "{}", heard.body);
}
