//! The mail door end to end, over real sockets: mails sent with a real SMTP client into
//! `ataxx serve --smtp`, or piped into `ataxx mail-in`; the server's mail caught by a real SMTP
//! server (aiosmtpd) standing in as the relay. No part of the mail path is mocked.

use std::time::Duration;

use base64::Engine;

use crate::common::mail_kit::{
    count, mail_in, mail_server, mailq, mails_to, next_mail, sign_up, wait_for, wait_for_nth,
    wait_for_queue, wait_for_subject, MailTest,
};
use crate::common::served::connect_from;
use crate::common::{ataxx_command, database, mail_kit, stdout_of};

const ALICE: &str = "alice@a.test";
const BOB: &str = "bob@b.test";

#[test]
fn two_players_play_by_mail_with_comments_a_nag_a_message_a_forfeit_and_a_resignation() {
    let test = MailTest::new();
    let caught = &test.caught;
    let _sink = test.relay(&[]);
    let server = test.serve(&[
        "--smtp",
        "127.0.0.1:0",
        "--test-clock",
        "--admin",
        "alice",
        "--sweep-ms",
        "50",
    ]);

    // Addresses are confirmed before any other mail goes to them.
    let send = |from: &str, subject: &str| server.mail(from, subject, "");
    sign_up(caught, ALICE, "alice", "password1", send);
    server.mail(BOB, "signup bob password2", "Hello!\n-- \nBob");
    let confirm = wait_for(caught, BOB, "confirm address bob ");
    send(BOB, &format!("Re: {}", confirm.subject));
    let welcome = wait_for(caught, ALICE, "signed up alice");
    assert!(welcome.body.contains("Welcome, alice"), "{}", welcome.body);
    assert_eq!(welcome.auto_submitted, "auto-replied");
    assert_eq!(welcome.mime_version, "1.0");
    wait_for(caught, BOB, "signed up bob");

    // The challenge: both players are told; the challenger gets no second copy.
    server.mail(ALICE, "ataxx challenge -password=password1 alice bob", "");
    let notice = wait_for(caught, BOB, "New ataxx Board 101");
    assert!(
        notice.body.contains("waiting for alice and bob to accept"),
        "{}",
        notice.body
    );
    assert_eq!(notice.references, "<board-101@games.test>");
    wait_for(caught, ALICE, "New ataxx Board 101");
    let seen = mails_to(caught, BOB).len();
    server.mail(BOB, "ataxx accept 101 bob password2", "");
    let accepted = next_mail(caught, BOB, seen);
    assert!(
        accepted.body.contains("waiting for alice to accept"),
        "{}",
        accepted.body
    );
    server.mail(ALICE, "Re: ataxx accept 101 alice password1", "");
    let start = wait_for(caught, BOB, "New ataxx Board 101 alice");
    assert!(start.body.contains("alice (x) to start"), "{}", start.body);

    // A move with a comment: the quoted reply and the signature stay out of it.
    let seen = mails_to(caught, BOB).len();
    server.mail(
        ALICE,
        "ataxx move 101 alice password1 b6#1",
        "Good luck, Bob!\n\nOn Monday, bob wrote:\n> an old line\n-- \nAlice A.\n",
    );
    let board = next_mail(caught, BOB, seen);
    assert_eq!(board.subject, "ataxx Board 101 bob **");
    assert!(board.body.contains("alice writes"), "{}", board.body);
    assert!(board.body.contains("Good luck, Bob!"), "{}", board.body);
    assert!(
        !board.body.contains("an old line") && !board.body.contains("Alice A."),
        "{}",
        board.body
    );
    assert!(
        board.body.contains("bob (o) to move (move #2)"),
        "{}",
        board.body
    );
    assert_eq!(board.references, "<board-101@games.test>");
    assert_eq!(board.in_reply_to, "<board-101@games.test>");
    wait_for(caught, ALICE, "ataxx Board 101 bob **");

    server.mail(BOB, "ataxx move 101 bob password2 f6#2", "");
    let board = wait_for_subject(caught, ALICE, "ataxx Board 101 alice");
    assert!(
        board.body.contains("alice (x) to move (move #3)"),
        "{}",
        board.body
    );
    assert!(!board.subject.ends_with("**"));
    // The same mail again is stale: an error to bob, with the board.
    server.mail(BOB, "ataxx move 101 bob password2 f6#2", "");
    let error = wait_for(caught, BOB, "error");
    assert!(error.body.contains("Ataxx Board 101"), "{}", error.body);

    // Eight days without a move: alice (to move) is nagged, once.
    server.mail(ALICE, "clock advance 691200", "");
    let nag = wait_for(caught, ALICE, "Nag: ataxx Board 101 alice");
    assert_eq!(nag.references, "<board-101@games.test>");
    assert_eq!(count(caught, BOB, "Nag:"), 0);

    // A message to a user, by mail.
    server.mail(
        ALICE,
        "message alice password1 bob",
        "Rematch after this one?",
    );
    let message = wait_for(caught, BOB, "message from alice");
    assert!(
        message.body.contains("Rematch after this one?"),
        "{}",
        message.body
    );
    wait_for(caught, ALICE, "message from alice");
    // Broadcast is for admins only.
    server.mail(BOB, "broadcast bob password2", "Hi all");
    wait_for(caught, BOB, "may not broadcast");
    server.mail(ALICE, "broadcast alice password1", "Maintenance on Sunday.");
    let news = wait_for(caught, BOB, "broadcast from alice");
    assert!(
        news.body
            .contains("alice writes:\n\nMaintenance on Sunday."),
        "{}",
        news.body
    );

    // A second board, forfeited: bob does not move for four days.
    server.mail(
        BOB,
        "ataxx challenge -password=password2 bob alice --nagtime=1 --forfeittime=3",
        "",
    );
    wait_for(caught, ALICE, "New ataxx Board 102");
    server.mail(ALICE, "ataxx accept 102 alice password1", "");
    server.mail(BOB, "ataxx accept 102 bob password2", "");
    wait_for(caught, ALICE, "New ataxx Board 102 bob");
    server.mail(ALICE, "clock advance 345600", "");
    let forfeit = wait_for_subject(caught, ALICE, "ataxx Board 102");
    assert!(
        forfeit.body.contains("alice wins 0-1 (time forfeit)"),
        "{}",
        forfeit.body
    );
    // Bob never moved, so the forfeit does not count for ratings, and the mail says why.
    assert!(
        forfeit
            .body
            .contains("Unrated: bob never moved: the game does not count for ratings"),
        "{}",
        forfeit.body
    );
    assert!(!forfeit.body.contains("Rating changes"), "{}", forfeit.body);

    // Vacation by mail: bob goes away for two days, and alice reads it in a board mail; back
    // the same day, bob gets the day not begun back.
    let seen = mails_to(caught, ALICE).len();
    server.mail(BOB, "vacation bob password2 2", "");
    let away = wait_for(caught, BOB, "bob on vacation");
    assert!(
        away.body.contains("28 days left this year"),
        "{}",
        away.body
    );
    let told = next_mail(caught, ALICE, seen);
    assert_eq!(told.subject, "ataxx chat 101 bob");
    assert!(told.body.contains("bob is away until"), "{}", told.body);
    server.mail(BOB, "vacation bob password2 off", "");
    let back = wait_for(caught, BOB, "bob back from vacation");
    assert!(back.body.contains("29 vacation days left"), "{}", back.body);

    // Board 101 ends by resignation: both get the result and the rating changes.
    server.mail(BOB, "ataxx resign 101 bob password2", "Well played.");
    let end = wait_for_subject(caught, ALICE, "ataxx Board 101 **");
    assert!(
        end.body.contains("alice wins 1-0 (resignation)"),
        "{}",
        end.body
    );
    assert!(end.body.contains("Rating changes: alice +"), "{}", end.body);
    assert!(end.body.contains("bob writes"), "{}", end.body);
    wait_for_subject(caught, BOB, "ataxx Board 101 **");
    assert_eq!(count(caught, ALICE, "ataxx Board 101 bob **"), 1);
    assert_eq!(count(caught, ALICE, "Nag: "), 1);

    // Every mail went out once.
    let all = mail_kit::caught(caught);
    let mut ids: Vec<&str> = all.iter().map(|m| m.message_id.as_str()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), all.len(), "a mail was sent twice");
}

const MULTIPART: &str = "From: Carol <carol@c.test>\r\n\
To: ataxx@games.test\r\n\
Subject: signup carol password3\r\n\
MIME-Version: 1.0\r\n\
Content-Type: multipart/alternative; boundary=\"b1\"\r\n\
\r\n\
--b1\r\n\
Content-Type: text/plain; charset=utf-8\r\n\
\r\n\
Hi there\r\n\
--b1\r\n\
Content-Type: text/html; charset=utf-8\r\n\
\r\n\
<p>Hi <b>there</b></p>\r\n\
--b1--\r\n";

fn raw(from: &str, subject: &str, headers: &str, body: &str) -> Vec<u8> {
    format!("From: {from}\r\nTo: ataxx@games.test\r\nSubject: {subject}\r\nMIME-Version: 1.0\r\n{headers}\r\n{body}")
        .into_bytes()
}

#[test]
fn mail_in_reads_mime_messages_refuses_a_large_one_and_ignores_an_auto_reply() {
    let test = MailTest::new();
    let caught = &test.caught;
    let _sink = test.relay(&[]);
    let _server = test.serve(&[]);
    let deliver = |message: &[u8]| test.deliver(message);

    // Multipart with an HTML alternative: the plain part is read.
    deliver(MULTIPART.as_bytes());
    let confirm = wait_for(caught, "carol@c.test", "confirm address carol ");
    deliver(&raw("carol@c.test", &confirm.subject, "", ""));
    wait_for(caught, "carol@c.test", "signed up carol");
    deliver(&raw(
        "dave@d.test",
        "signup dave password4",
        "",
        "hello\r\n",
    ));
    let confirm = wait_for(caught, "dave@d.test", "confirm address dave ");
    deliver(&raw("dave@d.test", &confirm.subject, "", ""));
    wait_for(caught, "dave@d.test", "signed up dave");

    // Quoted-printable UTF-8.
    deliver(&raw(
        "carol@c.test",
        "message carol password3 dave",
        "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n",
        "Gr=C3=BC=C3=9Fe aus K=C3=B6ln, =\r\nbis bald\r\n",
    ));
    let message = wait_for(caught, "dave@d.test", "message from carol");
    assert!(
        message.body.contains("Grüße aus Köln, bis bald"),
        "{}",
        message.body
    );

    // Latin-1 in base64, and a subject in an encoded word.
    let latin1: Vec<u8> = "Café crème\r\n".chars().map(|c| c as u32 as u8).collect();
    let body = base64::engine::general_purpose::STANDARD.encode(latin1);
    deliver(&raw(
        "dave@d.test",
        "=?ISO-8859-1?Q?message_dave_password4_carol?=",
        "Content-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: base64\r\n",
        &format!("{body}\r\n"),
    ));
    let message = wait_for(caught, "carol@c.test", "message from dave");
    assert!(message.body.contains("Café crème"), "{}", message.body);

    // A 1 MB attachment: refused politely, by mail.
    let attachment = base64::engine::general_purpose::STANDARD.encode(vec![7u8; 1024 * 1024]);
    deliver(&raw(
        "carol@c.test",
        "ataxx games",
        "Content-Type: multipart/mixed; boundary=\"b2\"\r\n",
        &format!(
            "--b2\r\nContent-Type: text/plain\r\n\r\nsee attached\r\n--b2\r\n\
             Content-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\n{attachment}\r\n--b2--\r\n"
        ),
    ));
    let refusal = wait_for(caught, "carol@c.test", "not read: too large");
    assert!(
        refusal.body.contains("larger than this server reads"),
        "{}",
        refusal.body
    );

    // An auto-reply is not answered, nor run; the next message is.
    deliver(&raw(
        "carol@c.test",
        "message carol password3 dave",
        "Auto-Submitted: auto-replied\r\n",
        "I am away.\r\n",
    ));
    deliver(&raw(
        "carol@c.test",
        "message carol password3 dave",
        "",
        "after the away note\r\n",
    ));
    let start = std::time::Instant::now();
    while !mails_to(caught, "dave@d.test")
        .iter()
        .any(|m| m.body.contains("after the away note"))
    {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the message after the auto-reply never came"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!mails_to(caught, "dave@d.test")
        .iter()
        .any(|m| m.body.contains("I am away")));

    // Which events mail a user: dave takes no messages any more.
    deliver(&raw(
        "dave@d.test",
        "change mail dave password4 move end",
        "",
        "",
    ));
    wait_for(caught, "dave@d.test", "mail settings changed");
    let before = count(caught, "carol@c.test", "message from carol");
    deliver(&raw(
        "carol@c.test",
        "message carol password3 dave",
        "",
        "unheard\r\n",
    ));
    let sent = wait_for_nth(caught, "carol@c.test", "message from carol", before);
    assert!(
        sent.body.contains("Sent to 1 users (0 addresses)"),
        "{}",
        sent.body
    );

    // A new address is confirmed by a mail to it.
    deliver(&raw(
        "carol@c.test",
        "change address carol password3 carol@new.test",
        "",
        "",
    ));
    wait_for(
        caught,
        "carol@c.test",
        "address change waiting for confirmation",
    );
    let confirm = wait_for(caught, "carol@new.test", "confirm address carol");
    deliver(&raw(
        "carol@new.test",
        &format!("Re: {}", confirm.subject),
        "",
        "yes\r\n",
    ));
    let changed = wait_for(caught, "carol@new.test", "address changed");
    assert!(changed.body.contains("carol@new.test"), "{}", changed.body);
    // A wrong token changes nothing, and the error goes to the account, not to the stranger.
    deliver(&raw(
        "x@evil.test",
        "confirm address carol 0000000000000000",
        "",
        "",
    ));
    wait_for(
        caught,
        "carol@new.test",
        "error: no address of carol waits for that token",
    );
    assert!(mails_to(caught, "x@evil.test").is_empty());

    let queue = stdout_of(&["mailq", "--db", test.db_arg()]);
    assert!(
        queue.contains("sent") && queue.contains("dave@d.test"),
        "{queue}"
    );
}

#[test]
fn with_the_relay_down_mail_waits_in_the_queue_and_goes_out_once_when_it_is_up() {
    let test = MailTest::new();
    let caught = &test.caught;
    let server = test.serve(&["--smtp", "127.0.0.1:0", "--mail-retry-ms", "200"]);
    let users = ["ann", "ben", "cid"];
    for user in users {
        server.mail(
            &format!("{user}@x.test"),
            &format!("signup {user} secret{user}"),
            "",
        );
    }
    // Queued, with the relay's refusal noted.
    let start = std::time::Instant::now();
    loop {
        let queue = stdout_of(&["mailq", "--db", test.db_arg()]);
        if users.iter().all(|u| queue.contains(&format!("{u}@x.test")))
            && queue.contains("last error")
        {
            assert!(queue.contains("queued"), "{queue}");
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "{queue}");
        std::thread::sleep(Duration::from_millis(100));
    }
    std::thread::sleep(Duration::from_millis(1500));
    let _sink = test.relay(&[]);
    for user in users {
        let address = format!("{user}@x.test");
        let confirm = wait_for(caught, &address, &format!("confirm address {user} "));
        server.mail(&address, &format!("Re: {}", confirm.subject), "");
    }
    for user in users {
        wait_for(
            caught,
            &format!("{user}@x.test"),
            &format!("signed up {user}"),
        );
    }
    // Retries keep running a while: nothing comes twice.
    std::thread::sleep(Duration::from_secs(2));
    for user in users {
        assert_eq!(count(caught, &format!("{user}@x.test"), "signed up"), 1);
    }
    let queue = stdout_of(&["mailq", "--db", test.db_arg()]);
    assert!(!queue.contains("queued"), "{queue}");
}

#[test]
fn a_server_killed_between_accepting_a_mail_and_answering_it_loses_nothing() {
    let test = MailTest::new();
    let caught = &test.caught;
    let _sink = test.relay(&[]);
    {
        // Holding inbound mail: the 250 comes, the answer cannot.
        let server = test.serve(&["--smtp", "127.0.0.1:0", "--mail-hold"]);
        server.mail("erin@e.test", "signup erin password5", "");
        std::thread::sleep(Duration::from_millis(300));
        assert!(mail_kit::caught(caught).is_empty());
        // Dropped: killed with SIGKILL.
    }
    let server = test.serve(&["--smtp", "127.0.0.1:0"]);
    let confirm = wait_for(caught, "erin@e.test", "confirm address erin ");
    server.mail("erin@e.test", &format!("Re: {}", confirm.subject), "");
    let welcome = wait_for(caught, "erin@e.test", "signed up erin");
    assert!(welcome.body.contains("Welcome, erin"), "{}", welcome.body);
}

/// One outbox row's field as text.
fn field<'a>(row: &'a serde_json::Value, name: &str) -> &'a str {
    row[name].as_str().unwrap_or_default()
}

#[test]
fn a_mail_the_relay_took_as_the_server_was_killed_goes_again_once_with_the_same_message_id() {
    use std::os::unix::process::ExitStatusExt;

    let test = MailTest::new();
    let (caught, db_arg) = (&test.caught, test.db_arg());
    // The relay kills the server (SIGKILL) once it has the first mail, before its 250: the
    // server cannot have recorded the send.
    let pid_file = test.dir.path().join("server.pid");
    let _sink = test.relay(&["--kill-pid-file", pid_file.to_str().unwrap()]);
    let first = {
        let mut server = test.serve(&["--smtp", "127.0.0.1:0"]);
        std::fs::write(&pid_file, server.child.id().to_string()).unwrap();
        server.mail("erin@e.test", "signup erin password5", "");
        let first = wait_for(caught, "erin@e.test", "confirm address erin ");
        assert_eq!(
            server.child.wait().unwrap().signal(),
            Some(9),
            "the relay killed the server"
        );
        first
    };
    // The mail is claimed, not sent: the crash left it `sending`, with its Message-ID.
    let queue = mailq(db_arg);
    assert_eq!(queue.len(), 1, "{queue:#?}");
    assert_eq!(field(&queue[0], "status"), "sending", "{queue:#?}");
    assert_eq!(queue[0]["attempts"], 1);
    assert_eq!(field(&queue[0], "message_id"), first.message_id);

    // Restarted: sent again at once, the same message with the same Message-ID, then marked.
    let _server = test.serve(&["--mail"]);
    let queue = wait_for_queue(db_arg, "the mail sent", |q| {
        q.iter().all(|row| field(row, "status") == "sent")
    });
    assert_eq!(queue.len(), 1, "{queue:#?}");
    assert_eq!(queue[0]["attempts"], 2, "{queue:#?}");
    let copies = mails_to(caught, "erin@e.test");
    assert_eq!(copies.len(), 2, "one copy more, no new identity");
    assert_eq!(copies[1].message_id, first.message_id);
    assert_eq!(copies[1].body, first.body);
    // And no third copy later.
    std::thread::sleep(Duration::from_millis(1000));
    assert_eq!(mails_to(caught, "erin@e.test").len(), 2);
    let text = stdout_of(&["mailq", "--db", db_arg]);
    assert!(text.contains("sent     tries 2"), "{text}");
}

/// A test CA and a certificate for 127.0.0.1 signed by it: (CA PEM, certificate PEM, key PEM).
fn test_certificates() -> (String, String, String) {
    use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, KeyPair};
    let ca_key = KeyPair::generate().unwrap();
    let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.distinguished_name
        .push(DnType::CommonName, "ataxx mail test CA");
    let ca = ca.self_signed(&ca_key).unwrap();
    let key = KeyPair::generate().unwrap();
    let leaf = CertificateParams::new(vec!["127.0.0.1".to_string()])
        .unwrap()
        .signed_by(&key, &ca, &ca_key)
        .unwrap();
    (ca.pem(), leaf.pem(), key.serialize_pem())
}

/// The outbox's one mail is unsent and not given up: queued, or being tried again at this very
/// moment (with retries 100 ms apart the relay may already hold it again: `sending`).
fn assert_still_waiting(queue: &[serde_json::Value]) {
    let status = field(&queue[0], "status");
    assert!(
        ["queued", "sending"].contains(&status) && queue[0]["sent_ms"].is_null(),
        "{queue:#?}"
    );
}

#[test]
fn mail_goes_to_the_relay_over_starttls_with_auth_and_never_in_plain_text() {
    let test = MailTest::new();
    let (caught, db_arg) = (&test.caught, test.db_arg());
    let (ca, cert, key) = test_certificates();
    let path = |name: &str, pem: &str| {
        let path = test.dir.path().join(name);
        std::fs::write(&path, pem).unwrap();
        path.to_str().unwrap().to_string()
    };
    let (ca, cert, key) = (
        path("ca.pem", &ca),
        path("cert.pem", &cert),
        path("key.pem", &key),
    );
    // The relay requires STARTTLS, then AUTH.
    let _sink = test.relay(&["--tls", &cert, &key, "--auth", "ataxx:relay-secret"]);
    let tls = ["--relay-starttls", "--relay-user", "ataxx"];
    let fast = ["--mail", "--mail-retry-ms", "100"];
    let wait_for_error = |what: &str| {
        wait_for_queue(db_arg, what, |q| {
            q.iter().any(|row| field(row, "last_error").contains(what))
        })
    };

    // The relay's certificate is not trusted without its CA: the mail waits, with the reason,
    // and never goes in plain text.
    {
        let _server = test.serve_with_env(
            &[&tls[..], &fast[..]].concat(),
            &[("ATAXX_RELAY_PASSWORD", "relay-secret")],
        );
        test.deliver(&raw("fay@f.test", "signup fay password6", "", ""));
        assert_still_waiting(&wait_for_error("certificate"));
    }
    // Trusted, but the wrong password: refused, and still waiting (not given up).
    {
        let _server = test.serve_with_env(
            &[&tls[..], &fast[..], &["--relay-ca", &ca]].concat(),
            &[("ATAXX_RELAY_PASSWORD", "wrong")],
        );
        assert_still_waiting(&wait_for_error("535"));
    }
    assert!(mail_kit::caught(caught).is_empty());
    // Both right: delivered over TLS as the AUTH user.
    let _server = test.serve_with_env(
        &[&tls[..], &fast[..], &["--relay-ca", &ca]].concat(),
        &[("ATAXX_RELAY_PASSWORD", "relay-secret")],
    );
    let confirm = wait_for(caught, "fay@f.test", "confirm address fay ");
    assert_eq!(
        (confirm.relay_tls.as_str(), confirm.relay_auth.as_str()),
        ("yes", "ataxx")
    );
    assert!(
        confirm.body.contains("signed up as fay"),
        "{}",
        confirm.body
    );
}

#[test]
fn sendmail_is_given_the_sender_the_recipient_and_the_message() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ataxx.db");
    let out = dir.path().join("sendmail-out");
    std::fs::create_dir(&out).unwrap();
    // A sendmail that records its arguments (one per line) and the message, and fails while
    // the file `down` exists.
    let program = dir.path().join("sendmail");
    std::fs::write(
        &program,
        format!(
            "#!/bin/sh\nset -e\nout={}\n[ ! -e $out/../down ] || {{ echo 'queue full' >&2; exit 75; }}\n\
             n=$(ls $out | grep -c args || true)\nprintf '%s\\n' \"$@\" > $out/$n.args\ncat > $out/$n.eml\n",
            out.display()
        ),
    )
    .unwrap();
    let mut permissions = std::fs::metadata(&program).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&program, permissions).unwrap();
    std::fs::write(dir.path().join("down"), "").unwrap();
    let _server = mail_server(
        ataxx_command(),
        &db,
        &[
            "--sendmail",
            program.to_str().unwrap(),
            "--mail-retry-ms",
            "100",
        ],
    );
    let delivered = mail_in(&db, &raw("gus@g.test", "signup gus password7", "", ""));
    assert!(delivered.status.success());
    let db_arg = db.to_str().unwrap();
    let queue = wait_for_queue(db_arg, "a sendmail failure", |q| {
        q.iter()
            .any(|row| field(row, "last_error").contains("queue full"))
    });
    assert_eq!(field(&queue[0], "status"), "queued");
    std::fs::remove_file(dir.path().join("down")).unwrap();
    wait_for_queue(db_arg, "the mail sent", |q| {
        q.iter().all(|row| field(row, "status") == "sent")
    });
    let args = std::fs::read_to_string(out.join("0.args")).unwrap();
    assert_eq!(
        args.lines().collect::<Vec<_>>(),
        ["-i", "-f", "ataxx@games.test", "--", "gus@g.test"]
    );
    let message = std::fs::read(out.join("0.eml")).unwrap();
    let message = mail_parser::MessageParser::default()
        .parse(&message[..])
        .unwrap();
    assert!(message.subject().unwrap().contains("confirm address gus "));
    assert!(message.body_text(0).unwrap().contains("signed up as gus"));
    assert!(!out.join("1.args").exists(), "sent once");
}

#[test]
fn a_sender_over_the_hourly_limit_is_ignored_and_an_html_only_mail_is_read_as_text() {
    let test = MailTest::new();
    let caught = &test.caught;
    let _sink = test.relay(&[]);
    let _server = test.serve(&["--mail-per-hour", "3"]);
    let deliver = |message: &[u8]| test.deliver(message);

    // Five messages from hank within the hour: the first three are answered, the rest ignored.
    deliver(&raw("hank@h.test", "signup hank password8", "", ""));
    for _ in 0..4 {
        deliver(&raw("hank@h.test", "help", "", ""));
    }
    // Another sender's message, processed after hank's (the inbox goes in order).
    let send = |from: &str, subject: &str| deliver(&raw(from, subject, "", ""));
    sign_up(caught, "ivy@i.test", "ivy", "password9", send);
    sign_up(caught, "jo@j.test", "jo", "password10", send);
    wait_for(caught, "jo@j.test", "signed up jo");
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(mails_to(caught, "hank@h.test").len(), 3);

    // HTML only: the comment is its text, without tags, entities decoded, the quote dropped.
    deliver(&raw(
        "ivy@i.test",
        "message ivy password9 jo",
        "Content-Type: text/html; charset=utf-8\r\n",
        "<html><body><p>Anyone for a <b>game</b>?</p><p>Tomorrow &amp; after</p>\r\n\
         <blockquote><p>&gt; an old line</p></blockquote></body></html>\r\n",
    ));
    let message = wait_for(caught, "jo@j.test", "message from ivy");
    assert!(
        message.body.contains("Anyone for a game?") && message.body.contains("Tomorrow & after"),
        "{}",
        message.body
    );
    assert!(
        !message.body.contains('<') && !message.body.contains("an old line"),
        "{}",
        message.body
    );
}

#[test]
fn a_seek_by_mail_is_taken_by_mail_and_the_board_mails_follow() {
    let test = MailTest::new();
    let caught = &test.caught;
    let _sink = test.relay(&[]);
    let server = test.serve(&["--smtp", "127.0.0.1:0"]);
    let send = |from: &str, subject: &str| server.mail(from, subject, "");
    sign_up(caught, ALICE, "alice", "password1", send);
    sign_up(caught, BOB, "bob", "password2", send);
    wait_for(caught, ALICE, "signed up alice");
    wait_for(caught, BOB, "signed up bob");

    // Alice seeks a game as x; nobody matches yet, so her seek is open.
    server.mail(ALICE, "ataxx seek -color=x alice password1 1", "");
    let posted = wait_for(caught, ALICE, "alice seek 1");
    assert!(posted.body.contains("is open"), "{}", posted.body);
    assert!(!posted.body.contains("started"), "{}", posted.body);
    // Bob's seek takes hers: a board starts, and both get its first board mail.
    server.mail(BOB, "ataxx seek bob password2 1", "");
    let taken = wait_for(caught, BOB, "bob seek 1");
    assert!(
        taken
            .body
            .contains("Board 101 started: alice (x) against bob (o)"),
        "{}",
        taken.body
    );
    let start = wait_for(caught, ALICE, "New ataxx Board 101");
    assert!(start.body.contains("alice (x) to start"), "{}", start.body);
    wait_for(caught, BOB, "New ataxx Board 101");
    assert_eq!(start.references, "<board-101@games.test>");

    // Played by mail from there.
    let seen = mails_to(caught, BOB).len();
    server.mail(
        ALICE,
        "ataxx move 101 alice password1 b6#1",
        "Thanks for the game!",
    );
    let board = next_mail(caught, BOB, seen);
    assert_eq!(board.subject, "ataxx Board 101 bob **");
    assert!(
        board.body.contains("Thanks for the game!"),
        "{}",
        board.body
    );
    assert!(
        board.body.contains("bob (o) to move (move #2)"),
        "{}",
        board.body
    );
}

#[test]
fn two_nodes_on_one_database_take_mail_on_both_and_send_each_mail_once() {
    let Some(postgres) = database::postgres_server() else {
        eprintln!("NOTICE: the mail cluster test skipped: ATAXX_TEST_POSTGRES is not set (scripts/test.sh sets it)");
        return;
    };
    let test = MailTest::new();
    let url = database::postgres_database(&postgres, &test.dir.path().join("mail-cluster"));
    let caught = &test.caught;
    let _sink = test.relay(&[]);
    let one = test.serve_on(&url, &["--smtp", "127.0.0.1:0"]);
    let two = test.serve_on(&url, &["--smtp", "127.0.0.1:0"]);

    // Mail goes into either node's SMTP door; whichever node leads runs and answers it.
    sign_up(caught, ALICE, "alice", "password1", |f, s| {
        one.mail(f, s, "")
    });
    sign_up(caught, BOB, "bob", "password2", |f, s| two.mail(f, s, ""));
    wait_for(caught, ALICE, "signed up alice");
    wait_for(caught, BOB, "signed up bob");
    two.mail(ALICE, "ataxx challenge -password=password1 alice bob", "");
    wait_for(caught, BOB, "New ataxx Board 101");
    one.mail(BOB, "ataxx accept 101 bob password2", "");
    two.mail(ALICE, "ataxx accept 101 alice password1", "");
    wait_for(caught, BOB, "New ataxx Board 101 alice");
    one.mail(
        ALICE,
        "ataxx move 101 alice password1 b6#1",
        "From node one.",
    );
    wait_for_subject(caught, BOB, "ataxx Board 101 bob **");
    two.mail(BOB, "ataxx move 101 bob password2 f6#2", "From node two.");
    let board = wait_for_subject(caught, ALICE, "ataxx Board 101 alice **");
    assert!(board.body.contains("From node two."), "{}", board.body);

    // Every queued mail sent, and each reached the relay once.
    let queue = wait_for_queue(&url, "every mail sent", |q| {
        q.iter().all(|row| field(row, "status") == "sent")
    });
    std::thread::sleep(Duration::from_millis(1000));
    let all = mail_kit::caught(caught);
    let mut ids: Vec<&str> = all.iter().map(|m| m.message_id.as_str()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), all.len(), "a mail was sent twice");
    assert_eq!(all.len(), queue.len(), "{queue:#?}");
    assert!(queue.iter().all(|row| row["attempts"] == 1), "{queue:#?}");
}

/// The server's peak resident memory (VmHWM), in KiB.
fn peak_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn a_data_line_without_end_does_not_grow_the_server() {
    use std::io::{BufRead, BufReader, Write};
    let test = MailTest::new();
    let _sink = test.relay(&[]);
    let server = test.serve(&["--smtp", "127.0.0.1:0"]);
    let stream = std::net::TcpStream::connect(server.smtp.as_deref().unwrap()).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut writer = stream;
    // One SMTP reply: its lines up to the one whose code is followed by a space.
    let mut reply = || -> String {
        let mut all = String::new();
        loop {
            let mut line = String::new();
            assert!(
                reader.read_line(&mut line).unwrap() > 0,
                "closed after {all:?}"
            );
            all.push_str(&line);
            if line.as_bytes().get(3) != Some(&b'-') {
                return all;
            }
        }
    };
    reply();
    for command in [
        "EHLO client.test",
        "MAIL FROM:<a@a.test>",
        "RCPT TO:<ataxx@server.test>",
    ] {
        writeln!(writer, "{command}\r").unwrap();
        assert!(reply().starts_with('2'));
    }
    writeln!(writer, "DATA\r").unwrap();
    assert!(reply().starts_with("354"));
    let before = peak_kib(server.child.id());
    // 256 MiB without a newline, then the end of the message.
    let chunk = vec![b'a'; 1 << 20];
    for _ in 0..256 {
        writer.write_all(&chunk).unwrap();
    }
    writer.write_all(b"\r\n.\r\n").unwrap();
    let answer = reply();
    assert!(
        answer.starts_with('2') || answer.starts_with('5'),
        "{answer}"
    );
    let grown = peak_kib(server.child.id()).saturating_sub(before);
    assert!(
        grown < 64 * 1024,
        "the server grew by {grown} KiB reading one line"
    );
    writeln!(writer, "QUIT\r").unwrap();
    assert!(reply().starts_with("221"));
}

/// Issue #50, finding 3: one address holds at most 10 SMTP connections; the next is told 421
/// and closed, another address is still greeted (20,000 idle connections from one address took
/// every file descriptor before).
#[test]
fn one_address_holds_at_most_ten_smtp_connections() {
    use std::io::{BufRead, BufReader};
    let test = MailTest::new();
    let _sink = test.relay(&[]);
    let server = test.serve(&["--smtp", "127.0.0.1:0"]);
    let smtp = server.smtp.clone().unwrap();
    // Connections stay open while the test runs.
    let mut held = vec![];
    let mut greeting = |from: &str| -> String {
        let stream = connect_from(&smtp, Some(from));
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut line = String::new();
        BufReader::new(stream.try_clone().unwrap())
            .read_line(&mut line)
            .unwrap();
        held.push(stream);
        line
    };
    for _ in 0..10 {
        assert!(greeting("127.0.0.1").starts_with("220"));
    }
    let refused = greeting("127.0.0.1");
    assert!(refused.starts_with("421"), "{refused}");
    assert!(greeting("127.0.0.2").starts_with("220"));
}
