//! The mail door behind Debian's Postfix, set up as docs/mail.md's Postfix section says: the
//! `ataxx` user, a folder of its own, the server run as that user, the `pipe` transport with
//! `null_sender=` running `ataxx mail-in --sender=${sender}`, `relay_domains` and a hashed
//! `transport_maps`. Mail comes in over SMTP from another address (127.0.0.2, outside
//! `mynetworks`, as from the internet), and the server's answers go out through the same Postfix,
//! which relays the players' domain to a real SMTP server (aiosmtpd) that catches them.
//!
//! Postfix runs as its own instance (`postfix -c DIR`), in a temporary folder, on a free port, so
//! the machine's own mail system is never touched. It needs root (Postfix's master runs as root
//! and the pipe changes user). `scripts/test.sh` installs Postfix from Debian's packages; where it
//! is missing or we are not root, the test says so and passes, except under CI, where it fails.

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::mail_kit::{mail_server, mails_to, sign_up, wait_for, Sink};
use crate::common::served::free_port;
use crate::common::{mail_kit, python};

const GAME_DOMAIN: &str = "games.test";
const SERVER: &str = "ataxx@games.test";
const ALICE: &str = "alice@players.test";

fn run(program: &str, args: &[&str]) -> String {
    let out = Command::new(program).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{program} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// Whether this machine can run the test: Postfix installed and we are root. Under CI it must.
fn postfix_here() -> bool {
    let root = run("id", &["-u"]) == "0";
    let installed = Path::new("/usr/sbin/postfix").exists();
    if root && installed {
        return true;
    }
    let why = if installed {
        "we are not root"
    } else {
        "Postfix is not installed"
    };
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "CI must run the Postfix test, but {why} (scripts/test.sh installs it)"
    );
    eprintln!("NOTICE: the Postfix test is skipped: {why}");
    false
}

/// The documented `ataxx` system user (made when missing), as (uid, gid).
fn ataxx_user() -> (u32, u32) {
    if !Command::new("id")
        .arg("ataxx")
        .output()
        .unwrap()
        .status
        .success()
    {
        run(
            "adduser",
            &["--system", "--group", "--no-create-home", "ataxx"],
        );
    }
    let uid = run("id", &["-u", "ataxx"]).parse().unwrap();
    let gid = run("id", &["-g", "ataxx"]).parse().unwrap();
    (uid, gid)
}

/// A Postfix instance in its own folder: `postfix -c conf`.
struct Postfix {
    dir: PathBuf,
    port: u16,
}

impl Postfix {
    /// Writes the configuration and starts it. `pipes` are the master.cf pipe entries of the
    /// game's transports; `transport` the lines of the transport map.
    fn start(dir: &Path, sink_port: u16, pipes: &str, transport: &str) -> Postfix {
        let port = free_port();
        let conf = dir.join("conf");
        let data = dir.join("data");
        for folder in [&conf, &dir.join("queue"), &data] {
            std::fs::create_dir_all(folder).unwrap();
        }
        run("chown", &["postfix", data.to_str().unwrap()]);
        let d = dir.display();
        std::fs::write(
            conf.join("main.cf"),
            format!(
                "compatibility_level = 3.6\n\
                 queue_directory = {d}/queue\n\
                 data_directory = {d}/data\n\
                 mail_owner = postfix\n\
                 setgid_group = postdrop\n\
                 maillog_file_prefixes = {d}\n\
                 maillog_file = {d}/maillog\n\
                 myhostname = mx.{GAME_DOMAIN}\n\
                 mydestination =\n\
                 inet_interfaces = 127.0.0.1\n\
                 inet_protocols = ipv4\n\
                 mynetworks = 127.0.0.1/32\n\
                 smtpd_peername_lookup = no\n\
                 queue_run_delay = 1s\n\
                 minimal_backoff_time = 1s\n\
                 maximal_backoff_time = 2s\n\
                 relay_domains = {GAME_DOMAIN}\n\
                 transport_maps = hash:{d}/conf/transport\n"
            ),
        )
        .unwrap();
        // Debian's master.cf without chroot (the instance has no chroot tree) and with smtpd on
        // this test's port; then the game's pipes exactly as docs/mail.md writes them.
        let services = [
            ("pickup", "unix  n - n 60 1", "pickup"),
            ("cleanup", "unix  n - n - 0", "cleanup"),
            ("qmgr", "unix  n - n 300 1", "qmgr"),
            ("rewrite", "unix  - - n - -", "trivial-rewrite"),
            ("bounce", "unix  - - n - 0", "bounce"),
            ("defer", "unix  - - n - 0", "bounce"),
            ("trace", "unix  - - n - 0", "bounce"),
            ("verify", "unix  - - n - 1", "verify"),
            ("flush", "unix  n - n 1000? 0", "flush"),
            ("proxymap", "unix  - - n - -", "proxymap"),
            ("smtp", "unix  - - n - -", "smtp"),
            ("relay", "unix  - - n - -", "smtp"),
            ("showq", "unix  n - n - -", "showq"),
            ("error", "unix  - - n - -", "error"),
            ("retry", "unix  - - n - -", "error"),
            ("discard", "unix  - - n - -", "discard"),
            ("anvil", "unix  - - n - 1", "anvil"),
            ("scache", "unix  - - n - 1", "scache"),
            ("postlog", "unix-dgram n - n - 1", "postlogd"),
        ];
        let mut master = format!("127.0.0.1:{port} inet n - n - - smtpd\n");
        for (name, columns, command) in services {
            master += &format!("{name} {columns} {command}\n");
        }
        master += pipes;
        std::fs::write(conf.join("master.cf"), master).unwrap();
        let transport = format!("{transport}players.test smtp:[127.0.0.1]:{sink_port}\n");
        std::fs::write(conf.join("transport"), transport).unwrap();
        run(
            "postmap",
            &[
                "-c",
                conf.to_str().unwrap(),
                &format!("{}/transport", conf.display()),
            ],
        );
        let postfix = Postfix {
            dir: dir.to_path_buf(),
            port,
        };
        postfix.control("start");
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "Postfix did not start:\n{}",
                postfix.log()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        postfix
    }

    fn control(&self, verb: &str) {
        let conf = self.dir.join("conf");
        let out = Command::new("postfix")
            .args(["-c", conf.to_str().unwrap(), verb])
            .output()
            .unwrap();
        assert!(out.status.success(), "postfix {verb}:\n{}", self.log());
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("maillog")).unwrap_or_default()
    }

    /// Sends `message` from 127.0.0.2, outside `mynetworks`: "sent" or "refused CODE TEXT".
    fn send(&self, envelope_sender: &str, recipient: &str, message: &str) -> String {
        let mut child = python::script("smtp_send.py")
            .args(["127.0.0.1", &self.port.to_string(), "127.0.0.2"])
            .args([envelope_sender, recipient])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{}", python::cannot_run(e)));
        child
            .stdin
            .take()
            .unwrap()
            .write_all(message.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "smtp_send.py failed");
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    }

    /// Waits (up to 30 s) until the mail log has a line with every one of `words`.
    fn wait_for_log(&self, words: &[&str]) -> String {
        let start = Instant::now();
        loop {
            if let Some(line) = self
                .log()
                .lines()
                .find(|line| words.iter().all(|w| line.contains(w)))
            {
                return line.to_string();
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "no log line with {words:?}:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Postfix {
    fn drop(&mut self) {
        let conf = self.dir.join("conf");
        let _ = Command::new("postfix")
            .args(["-c", conf.to_str().unwrap(), "stop"])
            .output();
    }
}

fn message(from: &str, subject: &str, message_id: &str) -> String {
    format!(
        "From: {from}\r\nTo: {SERVER}\r\nSubject: {subject}\r\nMessage-ID: <{message_id}>\r\n\
         Date: Fri, 27 Nov 2026 08:00:00 +0000\r\n\r\nhello\r\n"
    )
}

/// The mails the inbox has stored, as `ataxx mailq --inbox --json` run as the server's user
/// lists them.
fn inbox(program: &Path, (uid, gid): (u32, u32), db: &Path) -> Vec<serde_json::Value> {
    let out = Command::new(program)
        .uid(uid)
        .gid(gid)
        .args(["mailq", "--inbox", "--json", "--db", db.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn the_documented_postfix_setup_delivers_answers_refuses_relaying_and_drops_bounces_and_duplicates()
{
    if !postfix_here() {
        return;
    }
    let user = ataxx_user();
    // Postfix's daemons and the pipe's user walk into this folder: it cannot be mode 0700.
    let dir = tempfile::tempdir().unwrap();
    run("chmod", &["0755", dir.path().to_str().unwrap()]);
    // The binary where the pipe's user can run it (/usr/local/bin in the docs): the build folder
    // may sit under a folder only root may enter.
    let program = dir.path().join("ataxx");
    std::fs::copy(env!("CARGO_BIN_EXE_ataxx"), &program).unwrap();
    run("chmod", &["0755", program.to_str().unwrap()]);
    // `install -d -o ataxx -g ataxx -m 0750 /var/lib/ataxx`, as docs/mail.md says.
    let home = dir.path().join("lib-ataxx");
    run(
        "install",
        &[
            "-d",
            "-o",
            "ataxx",
            "-g",
            "ataxx",
            "-m",
            "0750",
            home.to_str().unwrap(),
        ],
    );
    let db = home.join("ataxx.db");
    let caught = dir.path().join("caught");
    std::fs::create_dir(&caught).unwrap();
    let sink_port = free_port();
    let _sink = Sink::start_with(&caught, sink_port, &[]);
    let pipe = |name: &str, db: &Path| {
        format!(
            "{name}     unix  -       n       n       -       -       pipe\n  flags=Rq user=ataxx \
             null_sender= argv={} mail-in --db {} --sender=${{sender}}\n",
            program.display(),
            db.display()
        )
    };
    // A second domain whose pipe names a database that does not exist: a typo in master.cf.
    let pipes = pipe("ataxx", &db) + &pipe("ataxxtypo", &home.join("typo.db"));
    let transport = format!("{GAME_DOMAIN} ataxx:\ntypo.{GAME_DOMAIN} ataxxtypo:\n");
    let postfix = Postfix::start(dir.path(), sink_port, &pipes, &transport);
    let relay = format!("127.0.0.1:{}", postfix.port);
    // The server runs as the pipe's user, as a server behind an MTA does.
    let mut as_ataxx = Command::new(&program);
    as_ataxx.uid(user.0).gid(user.1);
    let _server = mail_server(as_ataxx, &db, &["--relay", &relay]);

    // Not an open relay: mail from outside for another domain is refused; for the game's
    // domain (relay_domains) it is taken.
    let refused = postfix.send(
        ALICE,
        "someone@elsewhere.test",
        &message(ALICE, "help", "r1@p"),
    );
    assert!(
        refused.starts_with("refused 454") && refused.contains("Relay access denied"),
        "{refused}"
    );

    // Signing up by mail: in through Postfix's pipe and mail-in, out through Postfix's relay.
    let sent_count = std::cell::Cell::new(0);
    let send = |from: &str, subject: &str| {
        sent_count.set(sent_count.get() + 1);
        let id = format!("m{}@players.test", sent_count.get());
        let sent = postfix.send(from, SERVER, &message(from, subject, &id));
        assert_eq!(sent, "sent");
    };
    sign_up(&caught, ALICE, "alice", "postfix-password-1", send);
    wait_for(&caught, ALICE, "signed up alice");

    // A bounce: Postfix passes the empty sender as empty (null_sender=), and the server never
    // answers it.
    let bounce = format!(
        "From: MAILER-DAEMON@players.test\r\nTo: {SERVER}\r\nSubject: Undelivered Mail\r\n\
         Message-ID: <bounce1@players.test>\r\n\r\nhelp\r\n"
    );
    assert_eq!(postfix.send("", SERVER, &bounce), "sent");
    // The same message twice (one Message-ID): stored once, answered once.
    let twice = message(ALICE, "help", "twice@players.test");
    assert_eq!(postfix.send(ALICE, SERVER, &twice), "sent");
    assert_eq!(postfix.send(ALICE, SERVER, &twice), "sent");
    postfix.wait_for_log(&["relay=ataxx", "already stored as message"]);
    let help = wait_for(&caught, ALICE, "help");
    // A mail sent after them, answered, so that anything wrongly sent before it has arrived.
    let last = message(ALICE, "list", "last@players.test");
    assert_eq!(postfix.send(ALICE, SERVER, &last), "sent");
    wait_for(&caught, ALICE, "list");
    let helps = mails_to(&caught, ALICE)
        .into_iter()
        .filter(|m| m.subject == help.subject)
        .count();
    assert_eq!(helps, 1, "the duplicate was answered again");
    assert!(
        mail_kit::caught(&caught)
            .iter()
            .all(|m| !m.to.to_lowercase().contains("mailer-daemon") && !m.to.is_empty()),
        "a bounce was answered"
    );
    // Five messages came through the pipe and were stored: signup, its confirmation, the
    // bounce, the duplicated help (once) and list. The bounce's envelope sender is empty.
    let stored = inbox(&program, user, &db);
    assert_eq!(stored.len(), 5, "{stored:#?}");
    let bounces: Vec<_> = stored
        .iter()
        .filter(|row| row["note"].as_str().unwrap().contains("a bounce"))
        .collect();
    assert_eq!(bounces.len(), 1, "{stored:#?}");
    assert_eq!(bounces[0]["envelope_from"], "", "{stored:#?}");

    // A pipe naming a database that does not exist: mail-in exits 75 and Postfix keeps the mail
    // (deferred, "temporary failure") instead of losing it; nothing is made at that path.
    let typo = format!("ataxx@typo.{GAME_DOMAIN}");
    assert_eq!(
        postfix.send(ALICE, &typo, &message(ALICE, "help", "typo@p")),
        "sent"
    );
    let deferred = postfix.wait_for_log(&["relay=ataxxtypo", "status=deferred"]);
    assert!(deferred.contains("temporary failure"), "{deferred}");
    assert!(!home.join("typo.db").exists());
}
