//! The mail door from the command line: `ataxx serve`'s mail flags, `ataxx mail-in` (one message
//! on stdin, stored in the server's database for its mail worker, as an MTA's pipe delivery) and
//! `ataxx mailq` (the outbound queue).

use std::io::Read;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context};
use ataxx_server::offline::{self, InboxRow, Stored};
use ataxx_server::{MailConfig, Transport};
use clap::Args as ClapArgs;

/// The mail flags of `ataxx serve`.
#[derive(ClapArgs)]
pub struct ServeArgs {
    /// Address of the SMTP listener (mail in without other mail software), or `off`.
    #[arg(long, default_value = "off")]
    pub smtp: String,
    /// SMTP relay for outbound mail, HOST:PORT.
    #[arg(long, conflicts_with = "sendmail")]
    relay: Option<String>,
    /// STARTTLS to the relay, required: mail waits rather than go out in plain text.
    #[arg(long, requires = "relay")]
    relay_starttls: bool,
    /// A PEM certificate to trust for the relay's STARTTLS besides the public roots.
    #[arg(long, requires = "relay_starttls")]
    relay_ca: Option<PathBuf>,
    /// AUTH user at the relay (the password from the environment variable ATAXX_RELAY_PASSWORD).
    #[arg(long, requires = "relay")]
    relay_user: Option<String>,
    /// Send outbound mail through this sendmail-compatible program instead of a relay.
    #[arg(long)]
    sendmail: Option<PathBuf>,
    /// The From address of the server's mails.
    #[arg(long, default_value = "ataxx@localhost")]
    mail_from: String,
    /// Larger inbound messages are refused with a polite reply.
    #[arg(long, default_value_t = 256 * 1024)]
    mail_max_bytes: usize,
    /// Inbound messages per sender per hour; more are ignored.
    #[arg(long, default_value_t = 60)]
    mail_per_hour: i64,
    /// A user allowed to `broadcast`, and a moderator (repeat for more).
    #[arg(long = "admin")]
    admins: Vec<String>,
    /// Run the mail door (inbox, board mails, queue) even without --smtp, --relay or --sendmail:
    /// mail arrives by `ataxx mail-in` and waits in the queue.
    #[arg(long)]
    mail: bool,
    /// How often the mail worker looks at the inbox, the boards and the queue, in milliseconds.
    #[arg(long, hide = true, default_value_t = 500)]
    mail_interval_ms: u64,
    /// First retry of a failed send after this many milliseconds (doubling after).
    #[arg(long, hide = true, default_value_t = 30_000)]
    mail_retry_ms: u64,
    /// Testing only: store inbound mail without processing it (crash tests).
    #[arg(long, hide = true)]
    mail_hold: bool,
}

impl ServeArgs {
    /// The server's admins (`--admin`), lower case: they may `broadcast` and are moderators.
    pub fn admins(&self) -> Vec<String> {
        self.admins.iter().map(|a| a.to_ascii_lowercase()).collect()
    }

    /// The mail door's configuration; None when no mail flag asks for it.
    pub fn config(&self) -> anyhow::Result<Option<MailConfig>> {
        let transport = match (&self.relay, &self.sendmail) {
            (Some(relay), _) => {
                let (host, port) = relay
                    .rsplit_once(':')
                    .and_then(|(h, p)| Some((h.to_string(), p.parse::<u16>().ok()?)))
                    .with_context(|| {
                        format!("--relay {relay:?}: give HOST:PORT, e.g. localhost:25")
                    })?;
                let credentials = match &self.relay_user {
                    Some(user) => Some((
                        user.clone(),
                        std::env::var("ATAXX_RELAY_PASSWORD")
                            .context("--relay-user needs the password in ATAXX_RELAY_PASSWORD")?,
                    )),
                    None => None,
                };
                Some(Transport::Smtp {
                    host,
                    port,
                    starttls: self.relay_starttls,
                    ca: self.relay_ca.clone(),
                    credentials,
                })
            }
            (None, Some(program)) => Some(Transport::Sendmail(program.clone())),
            (None, None) => None,
        };
        if transport.is_none() && self.smtp == "off" && !self.mail {
            return Ok(None);
        }
        if !self.mail_from.contains('@') {
            bail!("--mail-from {:?}: give a mail address", self.mail_from);
        }
        Ok(Some(MailConfig {
            transport,
            from: self.mail_from.clone(),
            max_bytes: self.mail_max_bytes.max(1024),
            per_sender_per_hour: self.mail_per_hour.max(1),
            admins: self.admins(),
            interval: Duration::from_millis(self.mail_interval_ms.max(10)),
            retry: Duration::from_millis(self.mail_retry_ms.max(10)),
            hold_inbound: self.mail_hold,
            ..MailConfig::default()
        }))
    }
}

#[derive(ClapArgs)]
pub struct MailInArgs {
    /// The server's database (the running server's mail worker picks the message up).
    #[arg(long, default_value = "ataxx.db")]
    db: String,
    /// The envelope sender (Postfix pipe: `${sender}`); empty marks a bounce.
    #[arg(long)]
    sender: Option<String>,
    /// Messages larger than this are kept only in part and refused politely.
    #[arg(long, default_value_t = 256 * 1024)]
    max_bytes: usize,
}

/// EX_TEMPFAIL (sysexits.h): the MTA keeps the message and tries again.
const EX_TEMPFAIL: i32 = 75;

pub fn mail_in(args: MailInArgs) -> anyhow::Result<()> {
    let mut raw = Vec::new();
    std::io::stdin()
        .read_to_end(&mut raw)
        .context("reading the message from standard input")?;
    if raw.is_empty() {
        bail!("no message on standard input");
    }
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    let sender = args.sender.as_deref().unwrap_or("unknown");
    let stored = runtime.block_on(offline::mail_in(
        &args.db,
        sender,
        &raw,
        args.max_bytes.max(1024),
    ));
    match stored {
        Ok(Stored {
            id,
            duplicate: true,
        }) => {
            println!("already stored as message {id} (the same Message-ID): dropped");
            Ok(())
        }
        Ok(Stored { id, .. }) => {
            println!("stored as message {id}");
            Ok(())
        }
        Err(err) => {
            eprintln!("ataxx mail-in: {err:#} (the MTA should try again)");
            std::process::exit(EX_TEMPFAIL);
        }
    }
}

#[derive(ClapArgs)]
pub struct MailqArgs {
    /// The server's database.
    #[arg(long, default_value = "ataxx.db")]
    db: String,
    /// At most this many mails (queued and failed first, then the latest sent).
    #[arg(long, default_value_t = 50)]
    limit: i64,
    /// Print JSON, one object per mail.
    #[arg(long)]
    json: bool,
    /// List the inbound messages instead (newest first): what became of each, and how many bytes
    /// of it are still kept (none once processed).
    #[arg(long)]
    inbox: bool,
}

/// `ataxx mailq --inbox`.
fn print_inbox(rows: &[InboxRow], args: &MailqArgs) {
    for row in rows {
        let kept = row.raw.len();
        if args.json {
            let object = serde_json::json!({
                "id": row.id, "received_ms": row.received_ms, "envelope_from": row.envelope_from,
                "size": row.size, "kept_bytes": kept, "status": row.status, "note": row.note,
            });
            println!("{object}");
        } else {
            println!(
                "{:>6}  {:<7}  {:>8} bytes, {kept} kept  {}",
                row.id, row.status, row.size, row.note
            );
        }
    }
}

pub fn mailq(args: MailqArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async {
        let limit = args.limit.max(1);
        if args.inbox {
            print_inbox(&offline::mail_inbox(&args.db, limit).await?, &args);
            return anyhow::Ok(());
        }
        let rows = offline::mailq(&args.db, limit).await?;
        if args.json {
            for row in &rows {
                println!("{}", serde_json::to_string(row)?);
            }
            return anyhow::Ok(());
        }
        if rows.is_empty() {
            println!("The mail queue is empty.");
        }
        for row in &rows {
            println!(
                "{:>6}  {:<7}  tries {:<2}  {:<28}  {}",
                row.id, row.status, row.attempts, row.recipient, row.subject
            );
            if !row.last_error.is_empty() && row.status != "sent" {
                println!("        last error: {}", row.last_error);
            }
        }
        anyhow::Ok(())
    })
}
