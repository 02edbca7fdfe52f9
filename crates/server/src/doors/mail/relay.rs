//! Sending the outbox: through an SMTP relay (lettre) or a local `sendmail` binary. A mail is
//! marked sent once the relay took it; a failed try waits (doubling from `retry`, at most an
//! hour) and a permanent refusal, or a day of failures, marks it failed. Each mail keeps the
//! Message-ID it was queued with, so a mail sent again after a crash between the relay's
//! acceptance and the mark is recognisable as the same message.

use std::path::{Path, PathBuf};
use std::time::Duration;

use lettre::message::header::{ContentType, HeaderName, HeaderValue, MIME_VERSION_1_0};
use lettre::message::Mailbox;
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use tokio::sync::watch;

use super::Mail;
use crate::error::{Error, Result};
use crate::model::OutboxRow;
use crate::App;

/// Where outbound mail goes.
#[derive(Clone, Debug)]
pub enum Transport {
    Smtp {
        host: String,
        port: u16,
        /// STARTTLS before sending (needs the `mail-tls` feature, on by default).
        starttls: bool,
        /// A PEM certificate to trust besides the public roots (a relay with a private CA).
        ca: Option<PathBuf>,
        /// AUTH user and password.
        credentials: Option<(String, String)>,
    },
    /// A sendmail-compatible program (`sendmail -i -f FROM -- TO`, the message on stdin).
    Sendmail(PathBuf),
}

impl Transport {
    /// Checks what can be checked before the first mail (STARTTLS compiled in).
    pub fn check(&self) -> Result<()> {
        match self {
            Transport::Smtp { starttls: true, .. } if !cfg!(feature = "mail-tls") => {
                Err(Error::Config(
                    "STARTTLS to the relay needs a server built with the mail-tls feature \
                 (a default build has it)"
                        .into(),
                ))
            }
            Transport::Smtp { ca: Some(ca), .. } => std::fs::read(ca)
                .map(|_| ())
                .map_err(|e| Error::Config(format!("--relay-ca {}: {e}", ca.display()))),
            _ => Ok(()),
        }
    }
}

/// Failed tries wait this long at first, doubling each time.
pub const RETRY: Duration = Duration::from_secs(30);
/// A mail failing for this long is given up.
const GIVE_UP_MS: i64 = 24 * 3600 * 1000;

/// How long a claimed mail is left to its sender before another try (a sender that hangs
/// longer than the relay's timeouts allow).
const CLAIM_LEASE_MS: i64 = 10 * 60 * 1000;

/// Sends due mail through the configured transport until stopped, while this node leads: of
/// several nodes on one database only one drains the outbox.
pub async fn run(app: App, mail: Mail, mut stopped: watch::Receiver<bool>) {
    let Some(transport) = mail.config.transport.clone() else {
        return;
    };
    let mut ticker = tokio::time::interval(mail.config.interval);
    let mut leading = false;
    loop {
        tokio::select! {
            _ = ticker.tick() => {}
            _ = mail.outbox.rung() => {}
            _ = stopped.changed() => return,
        }
        if !app.leader.leads() {
            leading = false;
            continue;
        }
        if !leading {
            leading = take_over(&app).await;
        }
        if let Err(err) = send_due(&app, &mail, &transport, mail.config.retry).await {
            tracing::warn!(%err, "mail relay");
        }
    }
}

/// A new sender (this process started, or this node became the leader) sends at once what a
/// dead one had claimed; true once done.
async fn take_over(app: &App) -> bool {
    match app.messages.reclaim_sending(app.clock.now_ms()).await {
        Ok(n) => {
            if n > 0 {
                tracing::warn!(n, "mail a stopped sender was handing over goes again");
            }
            true
        }
        Err(err) => {
            tracing::warn!(%err, "mail relay");
            false
        }
    }
}

/// Each due mail: claimed (committed), handed to the relay, then marked sent or failed. A crash
/// between the relay's acceptance and the mark leaves it claimed; it is sent again, with the
/// same Message-ID, by the next sender (see docs/mail.md, "Sent once").
async fn send_due(app: &App, mail: &Mail, transport: &Transport, retry: Duration) -> Result<()> {
    let due = app.messages.due(app.clock.now_ms(), 100).await?;
    for row in due {
        let now = app.clock.now_ms();
        let claimed = app
            .messages
            .claim(row.id, now, now + CLAIM_LEASE_MS)
            .await?;
        if !claimed {
            continue;
        }
        let sent = match message(mail, &row) {
            Ok(message) => send(mail, transport, message, &row.recipient).await,
            Err(err) => Err((err, true)),
        };
        let now = app.clock.now_ms();
        match sent {
            Ok(()) => app.messages.mark_sent(row.id, now).await?,
            Err((err, permanent)) => {
                let wait = retry.as_millis() as i64 * (1i64 << row.attempts.min(20));
                let give_up = permanent || now - row.created_ms > GIVE_UP_MS;
                tracing::warn!(id = row.id, to = %row.recipient, %err, give_up, "mail not sent");
                app.messages
                    .mark_failed(row.id, &err, now + wait.min(3_600_000), give_up)
                    .await?;
            }
        }
    }
    Ok(())
}

/// The mail as RFC 5322: plain text, threaded, marked automatic (RFC 3834) so that vacation
/// responders do not answer it.
fn message(mail: &Mail, row: &OutboxRow) -> std::result::Result<Message, String> {
    let from: Mailbox = format!("Ataxx server <{}>", mail.config.from)
        .parse()
        .map_err(|e| format!("--mail-from {:?}: {e}", mail.config.from))?;
    let to: Mailbox = row
        .recipient
        .parse()
        .map_err(|e| format!("recipient {:?}: {e}", row.recipient))?;
    let mut builder = Message::builder()
        .from(from)
        .to(to)
        .subject(row.subject.clone())
        .message_id(Some(row.message_id.clone()))
        // The body may go out quoted-printable: without MIME-Version readers show it raw.
        .header(MIME_VERSION_1_0)
        .header(ContentType::TEXT_PLAIN)
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("Auto-Submitted"),
            if matches!(row.kind.as_str(), "reply" | "error" | "refusal") {
                "auto-replied"
            } else {
                "auto-generated"
            }
            .into(),
        ));
    if !row.in_reply_to.is_empty() {
        builder = builder.in_reply_to(row.in_reply_to.clone());
    }
    if !row.refs.is_empty() {
        builder = builder.references(row.refs.clone());
    }
    builder.body(row.body.clone()).map_err(|e| e.to_string())
}

/// Sends one message; Err((why, permanent)).
async fn send(
    mail: &Mail,
    transport: &Transport,
    message: Message,
    to: &str,
) -> std::result::Result<(), (String, bool)> {
    match transport {
        Transport::Smtp {
            host,
            port,
            starttls,
            ca,
            credentials,
        } => {
            let mut builder = smtp_builder(host, *starttls, ca.as_deref())?
                .port(*port)
                .timeout(Some(Duration::from_secs(30)));
            if let Some((user, password)) = credentials {
                builder = builder.credentials(Credentials::new(user.clone(), password.clone()));
            }
            let smtp: AsyncSmtpTransport<Tokio1Executor> = builder.build();
            smtp.send(message).await.map(|_| ()).map_err(|e| {
                // A refused login (530, 534, 535, 538) is this server's configuration, not the
                // message: it waits for the operator rather than being given up.
                let login_refused = e
                    .status()
                    .is_some_and(|code| matches!(u16::from(code), 530 | 534 | 535 | 538));
                (e.to_string(), e.is_permanent() && !login_refused)
            })
        }
        Transport::Sendmail(program) => {
            let program = program.clone();
            let from = mail.config.from.clone();
            let to = to.to_string();
            let bytes = message.formatted();
            tokio::task::spawn_blocking(move || sendmail(&program, &from, &to, &bytes))
                .await
                .map_err(|e| (e.to_string(), false))?
                .map_err(|e| (e, false))
        }
    }
}

/// The relay's transport builder: plain, or STARTTLS required (never falling back to plain
/// text once asked for), trusting `ca` besides the public roots.
#[cfg(feature = "mail-tls")]
fn smtp_builder(
    host: &str,
    starttls: bool,
    ca: Option<&Path>,
) -> std::result::Result<lettre::transport::smtp::AsyncSmtpTransportBuilder, (String, bool)> {
    use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
    let builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host);
    if !starttls {
        return Ok(builder);
    }
    let mut tls = TlsParameters::builder(host.to_string());
    if let Some(ca) = ca {
        let pem = std::fs::read(ca).map_err(|e| (format!("{}: {e}", ca.display()), false))?;
        let certificate = Certificate::from_pem(&pem).map_err(|e| {
            (
                format!("{}: not a PEM certificate: {e}", ca.display()),
                true,
            )
        })?;
        tls = tls.add_root_certificate(certificate);
    }
    let tls = tls.build().map_err(|e| (e.to_string(), true))?;
    Ok(builder.tls(Tls::Required(tls)))
}

#[cfg(not(feature = "mail-tls"))]
fn smtp_builder(
    host: &str,
    _starttls: bool,
    _ca: Option<&Path>,
) -> std::result::Result<lettre::transport::smtp::AsyncSmtpTransportBuilder, (String, bool)> {
    // Transport::check refused STARTTLS at start.
    Ok(AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(
        host,
    ))
}

/// Pipes a message to a sendmail-compatible program.
fn sendmail(
    program: &Path,
    from: &str,
    to: &str,
    message: &[u8],
) -> std::result::Result<(), String> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(program)
        .args(["-i", "-f", from, "--", to])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(message)
        .map_err(|e| format!("writing to {}: {e}", program.display()))?;
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    match out.status.success() {
        true => Ok(()),
        false => Err(format!(
            "{} exited with {}: {}",
            program.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        )),
    }
}
