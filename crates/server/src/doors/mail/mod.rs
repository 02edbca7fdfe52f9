//! The mail door (pbmserv's own transport, spec section 1): a message's Subject is one command of
//! the pbmserv language, its plain-text body the comment; replies and board mails go out by mail.
//!
//! * [`smtp`]: an SMTP listener (`ataxx serve --smtp`); the inbox it stores into
//!   ([`crate::domain::messages::Messages::store_inbound`]) is also the way in of `ataxx mail-in`
//!   ([`crate::offline::mail_in`]), for any MTA that can pipe a message to a program.
//! * [`inbound`]: stored messages are parsed ([`parse`]), filtered (auto-replies, bounces, size,
//!   rate) and run through [`crate::doors::command`] like a text-door line.
//! * [`notify`]: board mails, challenge notices, nags, chats and game ends, composed from what
//!   changed on each board since its last mail (a cursor per board, so nothing is missed across
//!   a crash, whatever door made the change).
//! * [`relay`]: every outbound mail is a row first (queued through the domain's
//!   [`Outbox`]), then sent through an SMTP relay or a local `sendmail`, retried with backoff,
//!   marked sent once.
//!
//! Nothing is lost: a message is in the database before the SMTP `250`, and a processed message's
//! replies are queued in the same transaction that marks it done.

pub mod inbound;
pub mod notify;
pub mod parse;
pub mod relay;
pub mod smtp;

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{watch, Notify};

use crate::domain::outbox::Outbox;
use crate::App;

/// How the mail door runs.
#[derive(Clone, Debug)]
pub struct MailConfig {
    /// Where outbound mail goes; None = queued only (see `ataxx mailq`).
    pub transport: Option<relay::Transport>,
    /// The From address of the server's mails; its domain names the Message-IDs.
    pub from: String,
    /// Larger messages are refused with a polite reply.
    pub max_bytes: usize,
    /// Messages per sender per hour; more are ignored.
    pub per_sender_per_hour: i64,
    /// Replies per hour to an address no account has (errors, help).
    pub stranger_replies_per_hour: i64,
    /// Users who may `broadcast`.
    pub admins: Vec<String>,
    /// How often the outbox, the inbox and the boards are looked at.
    pub interval: Duration,
    /// A failed send waits this long before its first retry (doubling after).
    pub retry: Duration,
    /// Testing only: store inbound mail but do not process it (crash tests).
    pub hold_inbound: bool,
    /// The site's public URL (`serve --public-url`): password reset mails link to its page.
    pub site_url: Option<String>,
}

impl Default for MailConfig {
    fn default() -> Self {
        MailConfig {
            transport: None,
            from: "ataxx@localhost".into(),
            max_bytes: 256 * 1024,
            per_sender_per_hour: 60,
            stranger_replies_per_hour: 5,
            admins: vec![],
            interval: Duration::from_millis(500),
            retry: relay::RETRY,
            hold_inbound: false,
            site_url: None,
        }
    }
}

impl MailConfig {
    /// The domain of the From address (Message-IDs, the board threads).
    pub fn domain(&self) -> &str {
        self.from.rsplit('@').next().unwrap_or("localhost")
    }
}

/// The mail door's shared state: its configuration, a bell rung when a message is stored, and
/// the outbox the domain queues mail through (its bell rung when mail is queued).
#[derive(Clone)]
pub struct Mail {
    pub config: Arc<MailConfig>,
    pub bell: Arc<Notify>,
    pub outbox: Outbox,
}

impl Mail {
    pub fn new(config: MailConfig) -> Mail {
        let outbox = Outbox::new(config.domain(), &config.admins, config.site_url.as_deref());
        Mail {
            config: Arc::new(config),
            bell: Arc::new(Notify::new()),
            outbox,
        }
    }
}

/// Runs the mail worker until stopped: processes the inbox and composes board mails. The relay
/// ([`relay::run`]) sends in its own task, so a slow relay never holds up commands. Of several
/// nodes on one database only the leader works the mail (any node's `--smtp` stores into the
/// shared inbox), so no message is run twice and no board mail composed twice.
pub async fn work(app: App, mail: Mail, mut stopped: watch::Receiver<bool>) {
    let mut ticker = tokio::time::interval(mail.config.interval);
    loop {
        tokio::select! {
            _ = ticker.tick() => {}
            _ = mail.bell.notified() => {}
            _ = stopped.changed() => return,
        }
        if !app.leader.leads() {
            continue;
        }
        if !mail.config.hold_inbound {
            if let Err(err) = inbound::process(&app, &mail).await {
                tracing::warn!(%err, "mail inbox");
            }
        }
        match notify::compose(&app, &mail).await {
            Ok(0) => {}
            Ok(_) => mail.outbox.ring(),
            Err(err) => tracing::warn!(%err, "board mails"),
        }
    }
}
