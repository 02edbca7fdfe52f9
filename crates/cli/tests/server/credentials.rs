//! Issue #49: a forgotten password is reset through a token mailed to a confirmed address, and
//! an account can ask for a second factor (TOTP). Each test runs a real `ataxx serve` with its
//! mail door, a real SMTP relay catching its mail (aiosmtpd) and the HTTP API; the tokens are
//! read from the mails the relay caught.

use std::time::Duration;

use serde_json::{json, Value};

use crate::common::mail_kit::{count, sign_up, wait_for, wait_for_nth, MailTest};
use crate::common::served::{api, http, signup_and_login, Served};

const ALICE: &str = "alice@a.test";
const NEW: &str = "new-password-1";

/// The token a reset mail carries in its link.
fn token_in(body: &str) -> String {
    let start = body
        .find("/#/reset?token=")
        .unwrap_or_else(|| panic!("no reset link in {body}"))
        + "/#/reset?token=".len();
    let token: String = body[start..]
        .chars()
        .take_while(char::is_ascii_hexdigit)
        .collect();
    assert_eq!(token.len(), 64, "{body}");
    assert!(
        body.contains(&format!("reset {token} <new password>")),
        "{body}"
    );
    token
}

fn post(server: &Served, path: &str, token: Option<&str>, body: Value) -> (u16, Value) {
    api("POST", &server.url(path), token, Some(body))
}

fn login(server: &Served, userid: &str, password: &str) -> (u16, Value) {
    post(
        server,
        "/api/login",
        None,
        json!({"userid": userid, "password": password}),
    )
}

fn ask_reset(server: &Served, who: &str) -> (u16, Value) {
    post(server, "/api/password-reset", None, json!({"user": who}))
}

fn confirm(server: &Served, token: &str, password: &str) -> (u16, Value) {
    post(
        server,
        "/api/password-reset/confirm",
        None,
        json!({"token": token, "password": password}),
    )
}

/// The reset mails alice has had so far.
fn resets(test: &MailTest) -> usize {
    count(&test.caught, ALICE, "password reset for alice")
}

/// The token of alice's reset mail after the first `seen`.
fn next_reset(test: &MailTest, seen: usize) -> String {
    token_in(&wait_for_nth(&test.caught, ALICE, "password reset for alice", seen).body)
}

#[test]
fn a_forgotten_password_is_reset_once_by_a_mailed_token_and_every_session_ends() {
    let test = MailTest::new();
    let _sink = test.relay(&[]);
    let server = test.serve(&[
        "--smtp",
        "127.0.0.1:0",
        "--test-clock",
        "--admin",
        "root",
        "--public-url",
        "http://games.test",
        "--password-resets-per-address",
        "50",
    ]);
    let send = |from: &str, subject: &str| server.mail(from, subject, "");
    sign_up(&test.caught, ALICE, "alice", "password1", send);
    wait_for(&test.caught, ALICE, "signed up alice");
    let (status, session) = login(&server, "alice", "password1");
    assert_eq!(status, 200, "{session}");
    let old_session = session["token"].as_str().unwrap().to_string();

    // The same answer for an account, an unknown userid and an unknown address; one mail.
    let (status, answer) = ask_reset(&server, "alice");
    assert_eq!(status, 202, "{answer}");
    assert!(
        answer["message"]
            .as_str()
            .unwrap()
            .starts_with("If that account has a confirmed address, a reset mail is on its way"),
        "{answer}"
    );
    assert_eq!(ask_reset(&server, "nobody"), (202, answer.clone()));
    assert_eq!(ask_reset(&server, "nobody@n.test"), (202, answer.clone()));
    let token = next_reset(&test, 0);

    // Wrong tokens and weak passwords are refused, saying what was wrong.
    let (status, refused) = confirm(&server, &"0".repeat(64), NEW);
    assert_eq!(status, 400, "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("reset token is unknown, used or expired"),
        "{refused}"
    );
    let (status, refused) = confirm(&server, &token, "short");
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (400, Some("invalid_password"))
    );

    // The token sets the password once; the old password and the old session are refused.
    assert_eq!(
        confirm(&server, &token, NEW),
        (200, json!({"userid": "alice"}))
    );
    let (status, _) = api("GET", &server.url("/api/me"), Some(&old_session), None);
    assert_eq!(status, 401, "the session from before the reset still works");
    assert_eq!(login(&server, "alice", "password1").0, 401);
    assert_eq!(login(&server, "alice", NEW).0, 200);
    let (status, refused) = confirm(&server, &token, "another-password-2");
    assert_eq!(status, 400, "a used token worked again: {refused}");
    assert_eq!(login(&server, "alice", NEW).0, 200);

    // A token is good for an hour.
    assert_eq!(ask_reset(&server, "alice").0, 202);
    let late = next_reset(&test, 1);
    let command = b"clock advance 3601 --json".to_vec();
    let (status, _, moved) = http("POST", &server.url("/api/command"), None, Some(command));
    assert_eq!(status, 200, "{moved}");
    let (status, refused) = confirm(&server, &late, "another-password-2");
    assert_eq!(status, 400, "an expired token worked: {refused}");

    // An admin sends the mail (and learns no password); the admin log says so. Not a player.
    let (status, _) = post(
        &server,
        "/api/signup",
        None,
        json!({"userid": "root", "password": "root-password"}),
    );
    assert_eq!(status, 201);
    let root = login(&server, "root", "root-password").1["token"]
        .as_str()
        .unwrap()
        .to_string();
    let alice = login(&server, "alice", NEW).1["token"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, refused) = post(
        &server,
        "/api/admin/users/root/reset",
        Some(&alice),
        json!({}),
    );
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (403, Some("not_an_admin"))
    );
    let (status, sent) = post(
        &server,
        "/api/admin/users/alice/reset",
        Some(&root),
        json!({"reason": "asked by phone"}),
    );
    assert_eq!(status, 200, "{sent}");
    assert_eq!(sent, json!({"user": "alice", "addresses": [ALICE]}));
    let by_admin = next_reset(&test, 2);
    let (status, log) = api("GET", &server.url("/api/admin/log"), Some(&root), None);
    assert_eq!(status, 200);
    assert_eq!(
        (
            &log["acts"][0]["act"],
            &log["acts"][0]["target"],
            &log["acts"][0]["reason"]
        ),
        (&json!("reset"), &json!("alice"), &json!("asked by phone")),
        "{log}"
    );

    // By mail: `reset <token> <password>` from any address sets it too.
    server.mail(
        "someone@s.test",
        &format!("reset {by_admin} mailed-password-3"),
        "",
    );
    let answer = wait_for(&test.caught, "someone@s.test", "password set");
    assert!(
        answer.body.contains("every session of alice has ended"),
        "{}",
        answer.body
    );
    assert_eq!(login(&server, "alice", "mailed-password-3").0, 200);

    // Three resets an hour per account: two more (one asked by address), then no mail, and
    // the answer is the same.
    assert_eq!(ask_reset(&server, ALICE).0, 202);
    next_reset(&test, 3);
    assert_eq!(ask_reset(&server, "alice").0, 202);
    next_reset(&test, 4);
    assert_eq!(ask_reset(&server, "alice"), (202, answer_of(&server)));
    std::thread::sleep(Duration::from_secs(2));
    assert_eq!(
        resets(&test),
        5,
        "a fourth reset mail went out within the hour"
    );
}

/// The answer every reset request gets (asked for a name no account has).
fn answer_of(server: &Served) -> Value {
    ask_reset(server, "nobody-at-all").1
}

#[test]
fn reset_requests_are_throttled_per_client_address_whatever_the_account() {
    let test = MailTest::new();
    let server = test.serve(&["--password-resets-per-address", "2"]);
    assert_eq!(ask_reset(&server, "nobody").0, 202);
    assert_eq!(ask_reset(&server, "somebody").0, 202);
    let (status, refused) = ask_reset(&server, "anybody");
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (429, Some("rate_limited")),
        "{refused}"
    );
}

/// RFC 6238's code of a base32 secret for a time step: HMAC-SHA1, dynamic truncation, six
/// digits. Computed here, apart from the server's code.
fn totp(secret: &str, step: u64) -> String {
    use hmac::{Hmac, Mac};
    let key = data_encoding::BASE32_NOPAD
        .decode(secret.as_bytes())
        .unwrap();
    let mut mac = Hmac::<sha1::Sha1>::new_from_slice(&key).unwrap();
    mac.update(&step.to_be_bytes());
    let digest = mac.finalize().into_bytes();
    let offset = usize::from(digest[19] & 0x0f);
    let word = u32::from_be_bytes([
        digest[offset] & 0x7f,
        digest[offset + 1],
        digest[offset + 2],
        digest[offset + 3],
    ]);
    format!("{:06}", word % 1_000_000)
}

fn step_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        / 30
}

#[test]
fn the_tests_own_totp_gives_rfc_6238_s_code() {
    // Appendix B's SHA-1 secret "12345678901234567890" in base32; at T = 59 s the eight-digit
    // code is 94287082, whose last six digits are the six-digit code.
    assert_eq!(totp("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", 59 / 30), "287082");
}

#[test]
fn a_second_factor_guards_sign_in_on_every_door_and_admin_powers_with_admin_2fa() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::start(
        &dir.path().join("ataxx.db"),
        &["--admin", "root", "--admin-2fa"],
    );
    let password = "root-password-1";
    let session = signup_and_login(&server, "root", password);
    let post = |path: &str, token: Option<&str>, body: Value| {
        api("POST", &server.url(path), token, Some(body))
    };
    let log = || api("GET", &server.url("/api/admin/log"), Some(&session), None);

    // --admin-2fa: no admin act until the admin's second factor is on.
    let (status, refused) = log();
    assert_eq!(status, 400, "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("must turn on a second factor"),
        "{refused}"
    );

    // Enabling: a secret and its otpauth:// URI (drawn as a QR code too, for the site's page);
    // it is on only once a current code confirms it.
    let me = || api("GET", &server.url("/api/me"), Some(&session), None).1;
    assert_eq!(me()["second_factor"], false);
    let (status, setup) = post("/api/totp", Some(&session), json!({}));
    assert_eq!(status, 200, "{setup}");
    let secret = setup["secret"].as_str().unwrap().to_string();
    assert!(
        setup["uri"]
            .as_str()
            .unwrap()
            .starts_with(&format!("otpauth://totp/ataxx:root?secret={secret}&")),
        "{setup}"
    );
    let svg = setup["svg"].as_str().unwrap();
    assert!(svg.contains("<svg ") && svg.ends_with("</svg>"), "{svg}");
    assert_eq!(
        login_code(&server, "root", password, None).0,
        200,
        "on before confirmed"
    );
    let now = step_now();
    let valid: Vec<String> = (now - 1..=now + 2).map(|s| totp(&secret, s)).collect();
    let wrong = (0..10)
        .map(|d| format!("{d}{d}{d}{d}{d}{d}"))
        .find(|code| !valid.contains(code))
        .unwrap();
    let (status, _) = post("/api/totp/confirm", Some(&session), json!({"code": wrong}));
    assert_eq!(status, 400, "a wrong code turned the second factor on");
    let (status, confirmed) = post(
        "/api/totp/confirm",
        Some(&session),
        json!({"code": totp(&secret, step_now())}),
    );
    assert_eq!(status, 200, "{confirmed}");
    let recovery: Vec<String> = confirmed["recovery_codes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    assert_eq!(recovery.len(), 10);
    assert_eq!(me()["second_factor"], true);
    assert_eq!(
        log().0,
        200,
        "the admin with a second factor is still refused"
    );

    // Sign-in: the password alone is refused; a code works once; a recovery code works once.
    let (status, refused) = login_code(&server, "root", password, None);
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (401, Some("second_factor")),
        "{refused}"
    );
    let next = totp(&secret, step_now() + 1);
    assert_eq!(
        login_code(&server, "root", "wrong-password", Some(&next)).0,
        401
    );
    assert_eq!(login_code(&server, "root", password, Some(&next)).0, 200);
    let (status, refused) = login_code(&server, "root", password, Some(&next));
    assert_eq!(status, 400, "a used code signed in again: {refused}");
    assert_eq!(
        login_code(&server, "root", password, Some(&recovery[0])).0,
        200
    );
    assert_eq!(
        login_code(&server, "root", password, Some(&recovery[0])).0,
        400,
        "a used recovery code signed in again"
    );

    // The command language carries the code after the password and a colon.
    let mut door = server.text();
    let refused = door.send(&format!("ataxx limit root {password} 5"));
    assert!(refused.contains("has a second factor on"), "{refused}");
    door.ok(&format!("ataxx limit root {password}:{} 5", recovery[1]));

    // Turning it off needs a code; then the password alone signs in again.
    let (status, _) = post("/api/totp/disable", Some(&session), json!({"code": wrong}));
    assert_eq!(status, 400);
    let (status, off) = post(
        "/api/totp/disable",
        Some(&session),
        json!({"code": recovery[2]}),
    );
    assert_eq!(status, 200, "{off}");
    assert_eq!(login_code(&server, "root", password, None).0, 200);
}

fn login_code(server: &Served, userid: &str, password: &str, code: Option<&str>) -> (u16, Value) {
    api(
        "POST",
        &server.url("/api/login"),
        None,
        Some(json!({"userid": userid, "password": password, "code": code})),
    )
}
