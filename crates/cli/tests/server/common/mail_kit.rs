//! What the mail tests run against: a real `ataxx serve` with its mail door, a real SMTP server
//! catching its outbound mail (aiosmtpd, `tests/python/smtp_sink.py`, from the `.venv` that
//! `scripts/test.sh` makes, or `ATAXX_PYTHON`), a real SMTP client (lettre) writing to the
//! server's `--smtp` port, and `ataxx mail-in` fed raw messages.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::time::{Duration, Instant};

use lettre::{Message, SmtpTransport, Transport};
use mail_parser::MessageParser;

use super::python;
use super::served::{free_port, Served};
use super::{ataxx_command, stdout_of};

/// What most mail tests start from: a temporary folder with the database and the folder the
/// relay catches mail into, and the relay's address (nothing listens there until
/// [`MailTest::relay`] starts it).
pub struct MailTest {
    pub dir: tempfile::TempDir,
    pub db: PathBuf,
    pub caught: PathBuf,
    port: u16,
}

impl MailTest {
    pub fn new() -> MailTest {
        let dir = tempfile::tempdir().unwrap();
        let caught = dir.path().join("caught");
        std::fs::create_dir(&caught).unwrap();
        MailTest {
            db: dir.path().join("ataxx.db"),
            caught,
            port: free_port(),
            dir,
        }
    }

    /// The database as `--db` and `mailq` take it.
    pub fn db_arg(&self) -> &str {
        self.db.to_str().unwrap()
    }

    /// Starts the relay with smtp_sink.py's `options` (see [`Sink::start_with`]).
    pub fn relay(&self, options: &[&str]) -> Sink {
        Sink::start_with(&self.caught, self.port, options)
    }

    /// Starts `ataxx serve` on the database, sending through the relay, with `extra` arguments.
    pub fn serve(&self, extra: &[&str]) -> Served {
        self.serve_with_env(extra, &[])
    }

    /// [`MailTest::serve`] with environment variables (the relay password).
    pub fn serve_with_env(&self, extra: &[&str], env: &[(&str, &str)]) -> Served {
        let mut command = ataxx_command();
        command.envs(env.iter().copied());
        self.node(command, self.db.as_os_str(), extra)
    }

    /// A server on another database (a PostgreSQL URL that several nodes share), sending
    /// through the relay.
    pub fn serve_on(&self, db: &str, extra: &[&str]) -> Served {
        self.node(ataxx_command(), db.as_ref(), extra)
    }

    fn node(&self, command: Command, db: &std::ffi::OsStr, extra: &[&str]) -> Served {
        let relay = format!("127.0.0.1:{}", self.port);
        mail_server(command, db, &[&["--relay", &relay], extra].concat())
    }

    /// Pipes `raw` into `ataxx mail-in`, which must take it.
    pub fn deliver(&self, raw: &[u8]) {
        let out = mail_in(&self.db, raw);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// `command` (the test build, or a copy run as another user) serving with its mail door on `db`
/// as given: a SQLite file, which `mail-in` and `mailq` open too (so never a PostgreSQL
/// database named after it), or a database URL. It sends as ataxx@games.test, looking at its
/// outbox every 50 ms.
pub fn mail_server(command: Command, db: impl Into<OsString>, extra: &[&str]) -> Served {
    let mail = [
        "--mail-from",
        "ataxx@games.test",
        "--mail-interval-ms",
        "50",
    ];
    Served::launch(command, db, "127.0.0.1:0", &[&mail[..], extra].concat())
}

/// The relay: aiosmtpd writing each message it receives into a folder.
pub struct Sink {
    child: Child,
    _stdin: ChildStdin,
}

impl Sink {
    /// With smtp_sink.py's options: `--tls CERT KEY`, `--auth USER:PASSWORD`,
    /// `--kill-pid-file FILE`.
    pub fn start_with(folder: &Path, port: u16, options: &[&str]) -> Sink {
        let mut child = python::script("smtp_sink.py")
            .arg(folder)
            .arg(port.to_string())
            .args(options)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("{}", python::cannot_run(e)));
        let mut ready = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut ready)
            .unwrap();
        assert_eq!(
            ready.trim(),
            "ready",
            "aiosmtpd did not start (pip install aiosmtpd into .venv)"
        );
        let stdin = child.stdin.take().unwrap();
        Sink {
            child,
            _stdin: stdin,
        }
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Served {
    /// Sends a mail into the `--smtp` door with a real SMTP client.
    pub fn mail(&self, from: &str, subject: &str, body: &str) {
        let smtp = self.smtp.as_deref().expect("started with --smtp");
        let (host, port) = smtp.rsplit_once(':').unwrap();
        let message = Message::builder()
            .from(from.parse().unwrap())
            .to("ataxx@games.test".parse().unwrap())
            .subject(subject)
            .body(body.to_string())
            .unwrap();
        SmtpTransport::builder_dangerous(host)
            .port(port.parse().unwrap())
            .build()
            .send(&message)
            .expect("the server's SMTP door takes the mail");
    }
}

/// `ataxx mail-in --db DB` with `raw` on standard input.
pub fn mail_in(db: &Path, raw: &[u8]) -> Output {
    mail_in_from(db, "someone@example.org", raw)
}

/// [`mail_in`] with this envelope sender (`--sender`, what Postfix's pipe passes).
pub fn mail_in_from(db: &Path, sender: &str, raw: &[u8]) -> Output {
    let mut child = ataxx_command()
        .arg("mail-in")
        .arg("--db")
        .arg(db)
        .args(["--sender", sender])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(raw).unwrap();
    child.wait_with_output().unwrap()
}

/// A mail the relay caught, decoded.
#[derive(Clone, Debug)]
pub struct Caught {
    pub to: String,
    pub subject: String,
    pub body: String,
    pub message_id: String,
    pub in_reply_to: String,
    pub references: String,
    pub auto_submitted: String,
    pub mime_version: String,
    /// Whether it came over STARTTLS ("yes"/"no"), and as which AUTH user (smtp_sink.py).
    pub relay_tls: String,
    pub relay_auth: String,
}

/// Every mail caught so far, in arrival order.
pub fn caught(folder: &Path) -> Vec<Caught> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "eml"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|path| {
            let raw = std::fs::read(path).unwrap();
            let message = MessageParser::default().parse(&raw[..]).unwrap();
            let header = |name: &str| {
                message
                    .header_raw(name)
                    .unwrap_or_default()
                    .trim()
                    .to_string()
            };
            Caught {
                to: header("X-Envelope-To"),
                subject: message.subject().unwrap_or_default().to_string(),
                body: message
                    .body_text(0)
                    .unwrap_or_default()
                    .replace("\r\n", "\n"),
                message_id: header("Message-ID"),
                in_reply_to: header("In-Reply-To"),
                references: header("References"),
                auto_submitted: header("Auto-Submitted"),
                mime_version: header("MIME-Version"),
                relay_tls: header("X-Relay-TLS"),
                relay_auth: header("X-Relay-Auth"),
            }
        })
        .collect()
}

/// Waits (up to 30 s) for a mail to `to` whose subject contains `subject`, and returns it.
pub fn wait_for(folder: &Path, to: &str, subject: &str) -> Caught {
    wait_until(folder, to, subject, |m| m.subject.contains(subject))
}

/// Waits (up to 30 s) for a mail to `to` with exactly this subject, and returns it.
pub fn wait_for_subject(folder: &Path, to: &str, subject: &str) -> Caught {
    wait_until(folder, to, subject, |m| m.subject == subject)
}

fn wait_until(folder: &Path, to: &str, subject: &str, want: impl Fn(&Caught) -> bool) -> Caught {
    let start = Instant::now();
    loop {
        if let Some(mail) = caught(folder).into_iter().find(|m| m.to == to && want(m)) {
            return mail;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no mail to {to} about {subject:?}; caught: {:#?}",
            caught(folder)
                .iter()
                .map(|m| (&m.to, &m.subject))
                .collect::<Vec<_>>()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Signs `user` up as a new player does by mail: `signup USER PASSWORD` sent from `address`
/// (by `send(from, subject)`), then the answer to the confirmation mail that comes to it. The
/// welcome (`signed up USER`) follows.
pub fn sign_up(
    folder: &Path,
    address: &str,
    user: &str,
    password: &str,
    send: impl Fn(&str, &str),
) {
    send(address, &format!("signup {user} {password}"));
    let confirm = wait_for(folder, address, &format!("confirm address {user} "));
    send(address, &format!("Re: {}", confirm.subject));
}

/// The mails to `to` whose subject contains `subject`.
pub fn count(folder: &Path, to: &str, subject: &str) -> usize {
    caught(folder)
        .iter()
        .filter(|m| m.to == to && m.subject.contains(subject))
        .count()
}

/// Waits (up to 30 s) for the mail to `to` about `subject` after the first `seen` such, and
/// returns it.
pub fn wait_for_nth(folder: &Path, to: &str, subject: &str, seen: usize) -> Caught {
    let start = Instant::now();
    loop {
        let about: Vec<Caught> = mails_to(folder, to)
            .into_iter()
            .filter(|m| m.subject.contains(subject))
            .collect();
        if let Some(mail) = about.into_iter().nth(seen) {
            return mail;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no new mail to {to} about {subject:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The mails caught for `to`, in arrival order.
pub fn mails_to(folder: &Path, to: &str) -> Vec<Caught> {
    caught(folder).into_iter().filter(|m| m.to == to).collect()
}

/// Waits (up to 30 s) for the mail to `to` after the first `seen`, and returns it.
pub fn next_mail(folder: &Path, to: &str, seen: usize) -> Caught {
    let start = Instant::now();
    loop {
        if let Some(mail) = mails_to(folder, to).into_iter().nth(seen) {
            return mail;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no mail {} to {to}; caught: {:#?}",
            seen + 1,
            caught(folder)
                .iter()
                .map(|m| (&m.to, &m.subject))
                .collect::<Vec<_>>()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `ataxx mailq --json --db DB`: every mail in the outbox, one JSON object each.
pub fn mailq(db: &str) -> Vec<serde_json::Value> {
    stdout_of(&["mailq", "--json", "--limit", "1000", "--db", db])
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// Waits (up to 30 s) until the outbox satisfies `done`, and returns it.
pub fn wait_for_queue(
    db: &str,
    what: &str,
    done: impl Fn(&[serde_json::Value]) -> bool,
) -> Vec<serde_json::Value> {
    let start = Instant::now();
    loop {
        let queue = mailq(db);
        if done(&queue) {
            return queue;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the queue never came to {what}: {queue:#?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}
