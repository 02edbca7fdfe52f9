//! Regression tests of issue #28 (a server you can put on the open internet), findings 2, 3, 8,
//! 11 and 12, each through a real `ataxx serve` process and real sockets: expensive requests are
//! bounded and their memory given back, failed logins are throttled per address, HTTP
//! connections are capped per address and time out, running out of file descriptors neither
//! floods the log nor stops the doors, the session cookie is refused from other sites' pages and
//! `Secure` over https, `/api/command` refuses in text, and the API document lists every path.

use std::io::{Read, Write};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use crate::common::served::{api, connect_from, login, signup_and_login, Served, TextDoor};

/// An answer read off a socket: status, head (lower case), body.
struct Answer {
    status: u16,
    head: String,
    body: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }
}

/// Sends `method path` with `headers` and `body` from the source address `from` over a fresh
/// connection; None when the server closed it without an answer.
fn request(
    server: &Served,
    from: Option<&str>,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Option<Answer> {
    let mut stream = connect_from(&server.http, from);
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut text = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\nConnection: close\r\n",
        server.http,
        body.len()
    );
    for (name, value) in headers {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    text.push_str("\r\n");
    text.push_str(body);
    // The server may have closed an over-cap connection already: then writing fails.
    stream.write_all(text.as_bytes()).ok()?;
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    let response = String::from_utf8_lossy(&response).to_string();
    let (head, body) = response.split_once("\r\n\r\n")?;
    Some(Answer {
        status: head.get(9..12)?.parse().ok()?,
        head: head.to_ascii_lowercase(),
        body: body.to_string(),
    })
}

fn post_json(server: &Served, from: &str, path: &str, body: Value) -> Answer {
    let body = body.to_string();
    request(
        server,
        Some(from),
        "POST",
        path,
        &[("Content-Type", "application/json")],
        &body,
    )
    .expect("an answer")
}

/// A line of /proc/<pid>/status, in KiB.
fn memory_kib(server: &Served, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.child.id())).unwrap();
    let line = status
        .lines()
        .find(|l| l.starts_with(field))
        .unwrap_or_else(|| panic!("{field} in /proc status"));
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

fn cores() -> u64 {
    std::thread::available_parallelism().map_or(1, |n| n.get() as u64)
}

/// Runs `count` copies of `job` at once; returns their results.
fn at_once<T: Send + 'static>(
    count: usize,
    job: impl Fn(usize) -> T + Send + Sync + 'static,
) -> Vec<T> {
    let job = std::sync::Arc::new(job);
    let threads: Vec<_> = (0..count)
        .map(|i| {
            let job = job.clone();
            std::thread::spawn(move || job(i))
        })
        .collect();
    threads.into_iter().map(|t| t.join().unwrap()).collect()
}

// ---------------------------------------------------------------------------------------------
// 2. Memory exhaustion without an account

#[test]
fn bursts_of_logins_and_analyses_are_bounded_and_their_memory_given_back() {
    let dir = tempfile::tempdir().unwrap();
    let server = std::sync::Arc::new(Served::fresh(&dir, &["--no-rate-limits"]));
    // One login first, so that the decoy hash and the pool are there before the baseline.
    let (status, _) = api(
        "POST",
        &server.url("/api/login"),
        None,
        Some(json!({"userid": "warmup", "password": "x"})),
    );
    assert_eq!(status, 401);
    let baseline = memory_kib(&server, "VmRSS:");

    // Logins at once with made-up userids (each would run argon2, 19 MiB), more than the gate
    // admits (17 a core), then analyses at once (each would search with a 16 MiB table for
    // half a second), more than their gate admits (5 for two cores).
    let s = server.clone();
    let logins = at_once((20 * cores() as usize).max(100), move |i| {
        let body = json!({"userid": format!("nobody{i}"), "password": "guess"});
        post_json(&s, "127.0.0.1", "/api/login", body)
    });
    let s = server.clone();
    let analyses = at_once((4 * cores() as usize).max(32), move |_| {
        let fen = "x5o/7/7/7/7/7/o5x%20x%200%201";
        let path = format!("/api/analysis?fen={fen}");
        request(&s, None, "GET", &path, &[], "")
            .expect("an answer")
            .status
    });

    // The peak: what the gates let run at once (a password check per core, an analysis per
    // two), with room to spare; 100 argon2 at once took 1.9 GB and kept it.
    let peak_mib = (memory_kib(&server, "VmHWM:") - baseline) / 1024;
    let allowed_mib = 160 + cores() * 32;
    assert!(
        peak_mib < allowed_mib,
        "peak {peak_mib} MiB over the baseline, allowed {allowed_mib}"
    );
    // And given back: freed blocks of 19 and 16 MiB go back to the system.
    std::thread::sleep(Duration::from_millis(500));
    let kept_mib = memory_kib(&server, "VmRSS:").saturating_sub(baseline) / 1024;
    assert!(kept_mib < 64, "{kept_mib} MiB kept after the bursts");

    // What the gates did not admit was refused at once, with a time to come back.
    let statuses: Vec<u16> = logins.iter().map(|a| a.status).collect();
    assert!(
        statuses.iter().all(|s| [401, 503].contains(s)),
        "{statuses:?}"
    );
    let busy = logins
        .iter()
        .find(|a| a.status == 503)
        .expect("a full queue refuses at once");
    assert_eq!(busy.json()["error"]["code"], "busy", "{}", busy.body);
    assert!(busy.head.contains("retry-after: 1"), "{}", busy.head);
    assert!(
        analyses.iter().all(|s| [200, 503].contains(s)),
        "{analyses:?}"
    );
    assert!(
        analyses.contains(&200) && analyses.contains(&503),
        "{analyses:?}"
    );
}

#[test]
fn failed_logins_from_one_address_are_throttled_whatever_the_userids() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &["--login-failures-per-address", "12"]);
    server.text().ok("signup zed secret-1");
    let login_from = |from: &str, userid: &str, password: &str| {
        let body = json!({"userid": userid, "password": password});
        post_json(&server, from, "/api/login", body)
    };
    // Twelve made-up userids from one address, each failing once: then that address waits,
    // even with a right password.
    for i in 0..12 {
        let answer = login_from("127.0.0.66", &format!("made-up{i}"), "guess");
        assert_eq!(answer.status, 401, "{}", answer.body);
    }
    let answer = login_from("127.0.0.66", "zed", "secret-1");
    assert_eq!(answer.status, 429, "{}", answer.body);
    assert_eq!(answer.json()["error"]["code"], "rate_limited");
    let reply = server
        .text_from("127.0.0.66")
        .send("ataxx accept zed secret-1");
    assert!(reply.starts_with("error: too many attempts"), "{reply}");
    // Another address is not held back.
    let answer = login_from("127.0.0.5", "zed", "secret-1");
    assert_eq!(answer.status, 200, "{}", answer.body);
}

/// `POST /api/login` from the source address `from`, with `headers`.
fn login_from_with(
    server: &Served,
    from: &str,
    headers: &[(&str, &str)],
    userid: &str,
    password: &str,
) -> u16 {
    let body = json!({"userid": userid, "password": password}).to_string();
    let mut all = vec![("Content-Type", "application/json")];
    all.extend_from_slice(headers);
    let answer = request(server, Some(from), "POST", "/api/login", &all, &body);
    answer.expect("an answer").status
}

#[test]
fn a_trusted_proxys_client_is_throttled_as_itself_and_a_forged_forward_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let limits = ["--login-failures-per-address", "3"];
    let proxied = Served::fresh(
        &dir,
        &[&limits[..], &["--trusted-proxy", "127.0.0.1"]].concat(),
    );
    proxied.text().ok("signup zed secret-1");
    let via = |client: &'static str| [("X-Forwarded-For", client)];
    for i in 0..3 {
        let status = login_from_with(
            &proxied,
            "127.0.0.1",
            &via("203.0.113.7"),
            &format!("x{i}"),
            "guess",
        );
        assert_eq!(status, 401);
    }
    let right = |from, headers: &[(&str, &str)]| {
        login_from_with(&proxied, from, headers, "zed", "secret-1")
    };
    assert_eq!(
        right("127.0.0.1", &via("203.0.113.7")),
        429,
        "the forwarded client waits"
    );
    assert_eq!(
        right("127.0.0.1", &via("203.0.113.8")),
        200,
        "another client of the proxy does not"
    );
    assert_eq!(right("127.0.0.1", &[]), 200, "nor the proxy itself");
    // A client that is no trusted proxy cannot choose its address.
    assert_eq!(right("127.0.0.77", &via("203.0.113.7")), 200);

    let dir = tempfile::tempdir().unwrap();
    let direct = Served::fresh(&dir, &limits);
    direct.text().ok("signup zed secret-1");
    for i in 0..3 {
        let forged = format!("203.0.113.{i}");
        let status = login_from_with(
            &direct,
            "127.0.0.66",
            &[("X-Forwarded-For", &forged)],
            &format!("x{i}"),
            "guess",
        );
        assert_eq!(status, 401);
    }
    let fresh_forgery = [("X-Forwarded-For", "203.0.113.99")];
    assert_eq!(
        login_from_with(&direct, "127.0.0.66", &fresh_forgery, "zed", "secret-1"),
        429
    );
}

/// GETs `path` as the trusted proxy's client `client` until one is refused: how many passed,
/// how long that took, and the refusal.
fn read_until_refused(server: &Served, path: &str, client: &str) -> (u32, Duration, Answer) {
    let started = Instant::now();
    for passed in 0..1000 {
        let answer = request(
            server,
            None,
            "GET",
            path,
            &[("X-Forwarded-For", client)],
            "",
        )
        .expect("an answer");
        if answer.status == 429 {
            return (passed, started.elapsed(), answer);
        }
        assert_eq!(answer.status, 200, "{path}: {}", answer.body);
    }
    panic!("{path}: 1,000 requests from {client} and none refused");
}

#[test]
fn the_expensive_public_reads_are_limited_per_client_address() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &["--trusted-proxy", "127.0.0.1"]);
    // (path, burst, seconds per request after it): docs/server.md's table.
    let families = [
        ("/api/games/search/pgn?player=zed", 5, 12.0),
        ("/api/explorer?game=ataxx", 60, 0.5),
        ("/api/games/search?player=zed", 30, 1.0),
    ];
    for (path, burst, period) in families {
        let (passed, took, refusal) = read_until_refused(&server, path, "203.0.113.7");
        // A burst, plus whatever came back while it was sent: no fewer, no more.
        let refilled = (took.as_secs_f64() / period).ceil() as u32;
        assert!(
            (burst..=burst + refilled).contains(&passed),
            "{path}: {passed} passed in {took:?}, the burst is {burst}"
        );
        assert_eq!(refusal.json()["error"]["code"], "rate_limited", "{path}");
        let retry_after: u64 = refusal
            .head
            .lines()
            .find_map(|line| line.strip_prefix("retry-after: "))
            .unwrap_or_else(|| panic!("{path}: no Retry-After in {}", refusal.head))
            .trim()
            .parse()
            .unwrap();
        assert!(
            (1..=period.ceil() as u64).contains(&retry_after),
            "{path}: {retry_after}"
        );
        let another = request(
            &server,
            None,
            "GET",
            path,
            &[("X-Forwarded-For", "203.0.113.8")],
            "",
        );
        assert_eq!(
            another.unwrap().status,
            200,
            "{path}: another client is not held back"
        );
        let proxy = request(&server, None, "GET", path, &[], "").unwrap();
        assert_eq!(proxy.status, 200, "{path}: nor the proxy itself");
    }
    // The PGN exports share one bucket; a single game's PGN is not limited.
    let tournament_pgn = request(
        &server,
        None,
        "GET",
        "/api/tournaments/1/pgn",
        &[("X-Forwarded-For", "203.0.113.7")],
        "",
    )
    .unwrap();
    assert_eq!(tournament_pgn.status, 429);
    // An IPv6 host is counted by its /64: another address of that /64 waits, the next /64 not.
    let (passed, _, _) = read_until_refused(&server, "/api/games/search/pgn", "2001:db8:0:7::1");
    assert!(passed >= 5);
    let same_64 = request(
        &server,
        None,
        "GET",
        "/api/games/search/pgn",
        &[("X-Forwarded-For", "2001:db8:0:7:abcd::2")],
        "",
    )
    .unwrap();
    assert_eq!(same_64.status, 429);
    let next_64 = request(
        &server,
        None,
        "GET",
        "/api/games/search/pgn",
        &[("X-Forwarded-For", "2001:db8:0:8::1")],
        "",
    )
    .unwrap();
    assert_eq!(next_64.status, 200);

    let dir = tempfile::tempdir().unwrap();
    let unlimited = Served::fresh(&dir, &["--no-rate-limits"]);
    for _ in 0..10 {
        let answer = request(&unlimited, None, "GET", "/api/games/search/pgn", &[], "").unwrap();
        assert_eq!(answer.status, 200, "--no-rate-limits limits no read");
    }
}

#[test]
fn an_accounts_failures_from_many_addresses_hold_back_only_addresses_it_never_signed_in_from() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &["--login-failures-per-account", "4"]);
    server.text().ok("signup zed secret-1");
    assert_eq!(
        login_from_with(&server, "127.0.0.9", &[], "zed", "secret-1"),
        200
    );
    // Four addresses, each far under its own limits, one wrong password each.
    for i in 20..24 {
        let status = login_from_with(&server, &format!("127.0.0.{i}"), &[], "zed", "guess");
        assert_eq!(status, 401);
    }
    assert_eq!(
        login_from_with(&server, "127.0.0.30", &[], "zed", "secret-1"),
        429
    );
    assert_eq!(
        login_from_with(&server, "127.0.0.9", &[], "zed", "secret-1"),
        200,
        "the owner's known address is let in"
    );
    // Other accounts are not held back.
    server.text().ok("signup amy secret-2");
    assert_eq!(
        login_from_with(&server, "127.0.0.30", &[], "amy", "secret-2"),
        200
    );
}

// ---------------------------------------------------------------------------------------------
// 3. Idle connections and running out of file descriptors

/// The text door's reply to `line` over a TLS session that trusts only `ca` (DER), as
/// `localhost`: the greeting, then the reply.
fn text_over_tls(addr: &str, ca: &rcgen::Certificate, line: &str) -> (String, String) {
    use std::sync::Arc;
    let mut roots = rustls::RootCertStore::empty();
    roots.add(ca.der().clone()).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let name = rustls::pki_types::ServerName::try_from("localhost").unwrap();
    let session = rustls::ClientConnection::new(Arc::new(config), name).unwrap();
    let tcp = std::net::TcpStream::connect(addr).unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let mut tls = std::io::BufReader::new(rustls::StreamOwned::new(session, tcp));
    let greeting = read_reply(&mut tls);
    tls.get_mut()
        .write_all(format!("{line}\r\n").as_bytes())
        .unwrap();
    tls.get_mut().flush().unwrap();
    (greeting, read_reply(&mut tls))
}

/// One framed reply of the text door.
fn read_reply(from: &mut impl std::io::BufRead) -> String {
    let mut text = String::new();
    loop {
        let mut line = String::new();
        assert!(
            from.read_line(&mut line).unwrap() > 0,
            "closed after {text:?}"
        );
        if line.trim_end() == "." {
            return text;
        }
        text.push_str(&line);
    }
}

#[test]
fn with_text_tls_the_text_door_speaks_only_tls() {
    let dir = tempfile::tempdir().unwrap();
    let certified = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let cert = dir.path().join("text-cert.pem");
    let key = dir.path().join("text-key.pem");
    std::fs::write(&cert, certified.cert.pem()).unwrap();
    std::fs::write(&key, certified.key_pair.serialize_pem()).unwrap();
    let (cert, key) = (cert.to_str().unwrap(), key.to_str().unwrap());
    let server = Served::fresh(&dir, &["--text-tls", cert, key]);

    let (greeting, reply) = text_over_tls(&server.text, &certified.cert, "signup zed secret-1");
    assert!(greeting.starts_with("ataxx server:"), "{greeting}");
    assert!(reply.contains("zed"), "{reply}");
    let (_, reply) = text_over_tls(
        &server.text,
        &certified.cert,
        "change password zed secret-1 secret-3",
    );
    assert!(!reply.starts_with("error"), "{reply}");

    // A client speaking plain text is neither greeted nor heard: the handshake fails and the
    // connection closes without a word of the door's.
    let mut plain = std::net::TcpStream::connect(&server.text).unwrap();
    plain
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    plain.write_all(b"signup eve secret-2\r\n").unwrap();
    let mut heard = Vec::new();
    let _ = plain.read_to_end(&mut heard);
    let heard = String::from_utf8_lossy(&heard);
    assert!(
        !heard.contains("ataxx server") && !heard.contains("eve"),
        "{heard}"
    );
    let (_, reply) = text_over_tls(&server.text, &certified.cert, "signup eve secret-2");
    assert!(
        !reply.starts_with("error"),
        "eve's plain signup never ran: {reply}"
    );

    // A key that is not one is refused at start, naming the file.
    let started = Command::new(env!("CARGO_BIN_EXE_ataxx"))
        .args(["serve", "--http", "off", "--text", "127.0.0.1:0", "--db"])
        .arg(dir.path().join("other.db"))
        .args(["--text-tls", cert, cert])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&started.stderr);
    assert!(!started.status.success());
    assert!(
        stderr.contains("--text-tls") && stderr.contains(cert),
        "{stderr}"
    );
}

#[test]
fn http_connections_are_capped_per_address_and_silent_ones_closed() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(
        &dir,
        &["--http-max-per-address", "3", "--http-idle-secs", "2"],
    );
    let opened = Instant::now();
    let mut silent: Vec<_> = (0..3)
        .map(|_| connect_from(&server.http, Some("127.0.0.7")))
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    // A fourth from the same address is turned away (503, or closed before it could be told).
    let fourth = request(&server, Some("127.0.0.7"), "GET", "/api/kinds", &[], "");
    assert!(
        fourth.as_ref().is_none_or(|a| a.status == 503),
        "{:?}",
        fourth.map(|a| (a.status, a.body))
    );
    // Another address is served.
    let other = request(&server, Some("127.0.0.8"), "GET", "/api/kinds", &[], "").unwrap();
    assert_eq!(other.status, 200);
    // The silent ones are closed after 2 s without a request.
    for stream in &mut silent {
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut byte = [0u8; 1];
        let read = stream.read(&mut byte);
        assert!(
            matches!(read, Ok(0) | Err(_)) && opened.elapsed() < Duration::from_secs(8),
            "a silent connection was closed: {read:?} after {:?}",
            opened.elapsed()
        );
    }
    assert!(opened.elapsed() >= Duration::from_millis(1900));
    // Their places are free again.
    std::thread::sleep(Duration::from_millis(300));
    let again = request(&server, Some("127.0.0.7"), "GET", "/api/kinds", &[], "").unwrap();
    assert_eq!(again.status, 200);
}

#[test]
fn running_out_of_file_descriptors_neither_floods_the_log_nor_stops_the_doors() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("server.log");
    // The server, with few file descriptors and its log in a file.
    let wrapper = dir.path().join("ataxx-few-files");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nulimit -n 128\nexec {} \"$@\" 2>{}\n",
            env!("CARGO_BIN_EXE_ataxx"),
            log.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(
        &wrapper,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let server = Served::fresh_from(&wrapper, &dir, &[]);
    // 200 connections from ten addresses (under each door's cap per address): past the limit
    // the server cannot accept, and the rest wait in the listen queue.
    let mut held = vec![];
    for i in 0..200 {
        let from = format!("127.0.1.{}", i % 10 + 1);
        let to = match i % 2 {
            0 => &server.text,
            _ => &server.http,
        };
        held.push(connect_from(to, Some(&from)));
    }
    std::thread::sleep(Duration::from_secs(3));
    let lines = std::fs::read_to_string(&log).unwrap_or_default();
    let accept_lines = lines.lines().filter(|l| l.contains("accept")).count();
    assert!(
        (1..=12).contains(&accept_lines),
        "{accept_lines} accept warnings in 3 s, {} bytes of log",
        lines.len()
    );
    // Once they go, both doors answer again.
    drop(held);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let text_ok = std::panic::catch_unwind(|| server.text().ok("help")).is_ok();
        let http_ok =
            request(&server, None, "GET", "/api/kinds", &[], "").is_some_and(|a| a.status == 200);
        if text_ok && http_ok {
            break;
        }
        assert!(Instant::now() < deadline, "the doors answer again");
        std::thread::sleep(Duration::from_millis(200));
    }
}

// ---------------------------------------------------------------------------------------------
// 11. Origin and Secure

#[test]
fn the_session_cookie_is_refused_from_another_sites_page() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &[]);
    let token = signup_and_login(&server, "alice", "secret-1");
    signup_and_login(&server, "bob", "secret-2");
    let cookie = format!("ataxx_session={token}");
    let own = format!("http://{}", server.http);
    let challenge = |headers: &[(&str, &str)]| {
        let mut all = vec![("Content-Type", "application/json")];
        all.extend_from_slice(headers);
        let body = json!({"opponent": "bob"}).to_string();
        request(&server, None, "POST", "/api/games", &all, &body).unwrap()
    };
    let evil = challenge(&[("Cookie", &cookie), ("Origin", "https://evil.example")]);
    assert_eq!(evil.status, 403, "{}", evil.body);
    assert_eq!(evil.json()["error"]["code"], "foreign_origin");
    let null = challenge(&[("Cookie", &cookie), ("Origin", "null")]);
    assert_eq!(null.status, 403, "{}", null.body);
    // The site's own pages, and API clients with a bearer token, go on working.
    let mine = challenge(&[("Cookie", &cookie), ("Origin", &own)]);
    assert_eq!(mine.status, 201, "{}", mine.body);
    let bearer = format!("Bearer {token}");
    let client = challenge(&[
        ("Authorization", &bearer),
        ("Origin", "https://evil.example"),
    ]);
    assert_eq!(client.status, 201, "{}", client.body);

    // A WebSocket opened with the cookie from another site's page is refused too.
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let open = |origin: &str| {
        let mut request = server.ws("/api/ws").into_client_request().unwrap();
        request
            .headers_mut()
            .insert("Cookie", cookie.parse().unwrap());
        request
            .headers_mut()
            .insert("Origin", origin.parse().unwrap());
        runtime.block_on(tokio_tungstenite::connect_async(request))
    };
    match open("https://evil.example") {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), 403)
        }
        other => panic!("a foreign origin's socket opened: {:?}", other.map(|_| ())),
    }
    assert!(open(&own).is_ok());
}

#[test]
fn the_session_cookie_is_secure_when_the_public_url_is_https() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &["--public-url", "https://ataxx.example.org/"]);
    server.text().ok("signup zed secret-1");
    let answer = post_json(
        &server,
        "127.0.0.1",
        "/api/login",
        json!({"userid": "zed", "password": "secret-1"}),
    );
    assert_eq!(answer.status, 200);
    let cookie = answer
        .head
        .lines()
        .find(|l| l.starts_with("set-cookie:"))
        .unwrap()
        .to_string();
    assert!(cookie.contains("; secure"), "{cookie}");
    assert!(cookie.contains("httponly") && cookie.contains("samesite=strict"));
    // The public URL's origin may use the cookie, though the Host header names another.
    let token = login(&server, "zed", "secret-1");
    let cookie = format!("ataxx_session={token}");
    let answer = request(
        &server,
        None,
        "POST",
        "/api/presence",
        &[("Cookie", &cookie), ("Origin", "https://ataxx.example.org")],
        "",
    )
    .unwrap();
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(answer.json()["online"], json!(["zed"]));
    // Without a public URL (the other tests' servers) the cookie has no Secure: plain http
    // would not send it back.
}

// ---------------------------------------------------------------------------------------------
// 12. /api/command's refusals and the API document

#[test]
fn api_command_refuses_in_text_unless_json_is_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &[]);
    let text = request(&server, None, "POST", "/api/command", &[], "ataxx show 999").unwrap();
    assert_eq!(text.status, 400);
    assert!(
        text.head.contains("content-type: text/plain"),
        "{}",
        text.head
    );
    assert!(
        text.body.starts_with("error: no board 999"),
        "{}",
        text.body
    );
    // As the text door answers.
    let mut door = TextDoor::connect(&server.text, None);
    assert_eq!(door.send("ataxx show 999"), text.body);
    // JSON when asked for, by --json or Accept.
    let json = request(
        &server,
        None,
        "POST",
        "/api/command",
        &[],
        "ataxx show 999 --json",
    )
    .unwrap();
    assert_eq!(json.json()["ok"], false, "{}", json.body);
    // `ataxx client` prints the refusal as the text door does.
    let out = Command::new(env!("CARGO_BIN_EXE_ataxx"))
        .args([
            "client",
            "--server",
            &server.url(""),
            "ataxx",
            "show",
            "999",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(printed.starts_with("error: no board 999"), "{printed}");
}

#[test]
fn the_api_document_lists_the_pages_helpers_and_board_images() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &[]);
    let (status, spec) = api("GET", &server.url("/api/openapi.json"), None, None);
    assert_eq!(status, 200);
    for path in [
        "/api/analysis",
        "/api/layout/{text}",
        "/api/presence",
        "/board/{image}",
    ] {
        assert!(spec["paths"][path].is_object(), "{path} is documented");
    }
    // Each documented answer is what the server gives.
    let layout = request(&server, None, "GET", "/api/layout/0x0", &[], "").unwrap();
    let required = &spec["paths"]["/api/layout/{text}"]["get"]["responses"]["200"]["content"]
        ["application/json"]["schema"]["required"];
    for field in required.as_array().unwrap() {
        assert!(
            layout.json().get(field.as_str().unwrap()).is_some(),
            "{field} in {}",
            layout.body
        );
    }
}
