//! Inbound mail: stored first ([`crate::domain::messages::Messages::store_inbound`], before the
//! SMTP `250` or `mail-in`'s exit status), then processed ([`process`]): filtered, its Subject
//! read once and run as a command, answered.
//!
//! The From address is never authentication (the password in the command is): the reply to a
//! command naming an account goes to that account's addresses. Only a sender no account
//! matches gets an answer at its From address (help, errors), a few per hour.

use std::net::IpAddr;

use crate::doors::command::{self, Command, Reply, Request};
use crate::error::Result;
use crate::model::Status;
use crate::App;

use super::parse::{self, Inbound};
use super::Mail;
use crate::domain::outbox::Outgoing;
use crate::model::InboxRow;

/// Processes every stored message not yet processed, oldest first.
pub async fn process(app: &App, mail: &Mail) -> Result<usize> {
    let rows = app.messages.unprocessed(100).await?;
    for row in &rows {
        process_one(app, mail, row).await?;
        mail.outbox.ring();
    }
    Ok(rows.len())
}

/// What became of a message, for the inbox's note and the reply.
struct Outcome {
    status: &'static str,
    note: String,
    replies: Vec<(Vec<String>, Outgoing)>,
}

async fn process_one(app: &App, mail: &Mail, row: &InboxRow) -> Result<()> {
    let now = app.games.now_ms();
    let outcome = match parse::parse(&row.raw, Some(&row.envelope_from)) {
        None => Outcome {
            status: "ignored",
            note: "from ?: not a mail message".into(),
            replies: vec![],
        },
        Some(inbound) => answer(app, mail, row, &inbound, now).await?,
    };
    let sender = mail.outbox.sender(now);
    app.messages
        .finish_inbound(
            &sender,
            row.id,
            outcome.status,
            &outcome.note,
            &outcome.replies,
        )
        .await?;
    tracing::info!(id = row.id, note = %outcome.note, "mail processed");
    Ok(())
}

async fn answer(
    app: &App,
    mail: &Mail,
    row: &InboxRow,
    inbound: &Inbound,
    now: i64,
) -> Result<Outcome> {
    let from = &inbound.from;
    if let Some(why) = &inbound.automatic {
        return Ok(ignored(from, format!("automatic ({why})")));
    }
    let recent = app.messages.received_since(from, now - HOUR_MS).await?;
    if recent >= mail.config.per_sender_per_hour {
        return Ok(ignored(
            from,
            format!(
                "over {} messages in an hour",
                mail.config.per_sender_per_hour
            ),
        ));
    }
    if row.truncated || row.size > mail.config.max_bytes as i64 {
        return refuse_large(app, mail, row, inbound, now).await;
    }
    let (command, reply) = run_subject(app, inbound).await;
    let command = command.as_ref();
    let note = format!(
        "from {from}: {} {}",
        if reply.ok { "ok" } else { "error" },
        reply.subject
    );
    if !reply.ok && answers_an_error(app, inbound).await? {
        return Ok(ignored(
            from,
            format!("an answer to this server's error mail ({})", reply.subject),
        ));
    }
    // A signup's answer is the confirmation mail to its addresses, nothing to the From. Board
    // mails answer a move, a chat, the acceptance that starts or ends a challenge, and a
    // challenge to the players it names: no second copy.
    let told_otherwise = reply.ok
        && (matches!(command, Some(Command::Signup { .. }))
            || told_by_board_mail(app, from, &reply, command).await?);
    let replies = match told_otherwise {
        true => vec![],
        false => vec![reply_mail(app, mail, inbound, command, &reply, now).await?],
    };
    Ok(Outcome {
        status: "done",
        note,
        replies,
    })
}

/// A message left unanswered, and why.
fn ignored(from: &str, why: String) -> Outcome {
    Outcome {
        status: "ignored",
        note: format!("from {from}: ignored, {why}"),
        replies: vec![],
    }
}

/// An answer to `inbound` in its thread (`refs`: the board's, if any).
fn in_thread(inbound: &Inbound, refs: String) -> Outgoing {
    Outgoing {
        in_reply_to: inbound
            .message_id
            .as_ref()
            .map(|id| format!("<{id}>"))
            .unwrap_or_default(),
        refs,
        ..Default::default()
    }
}

/// Runs the Subject as a command, read once: the command (when it parsed) and its reply. A
/// signup without addresses takes the sending address (pbmserv); a move's comment goes on the
/// board, for its next board mail.
async fn run_subject(app: &App, inbound: &Inbound) -> (Option<Command>, Reply) {
    let mut parsed = command::parse(inbound.subject.trim());
    if let Ok(Command::Signup { addresses, .. }) = &mut parsed {
        if addresses.is_empty() {
            addresses.push(inbound.from.clone());
        }
    }
    let comment = (!inbound.comment.is_empty()).then(|| inbound.comment.clone());
    let request = Request {
        line: inbound.subject.clone(),
        body: comment.clone(),
        peer: Some(sender_peer(&inbound.from, inbound.origin)),
    };
    let id = crate::doors::request_id::new_id();
    let span = crate::doors::request_id::span("mail", &id);
    let command = match parsed {
        Ok(command) => command,
        Err(err) => return (None, Reply::error(&err, None)),
    };
    let reply = command::execute_parsed(app, &request, &command);
    let reply = tracing::Instrument::instrument(reply, span).await;
    if let (true, Command::Act { board, userid, .. }, Some(comment)) =
        (reply.ok, &command, &comment)
    {
        if let Err(err) = app
            .games
            .chat(*board, &userid.to_ascii_lowercase(), comment)
            .await
        {
            tracing::warn!(%err, board, "the comment of a mailed move");
        }
    }
    (Some(command), reply)
}

/// The reply mailed for a command: to the addresses of the account it names, else to a
/// stranger's From (a few an hour); error replies only to addresses under their hourly cap.
async fn reply_mail(
    app: &App,
    mail: &Mail,
    inbound: &Inbound,
    command: Option<&Command>,
    reply: &Reply,
    now: i64,
) -> Result<(Vec<String>, Outgoing)> {
    let refs = match command.and_then(Command::board) {
        Some(board) => mail.outbox.board_thread(board),
        None => String::new(),
    };
    let mail_reply = Outgoing {
        kind: if reply.ok { "reply" } else { "error" }.into(),
        subject: reply.subject.clone(),
        body: reply.text.clone(),
        ..in_thread(inbound, refs)
    };
    let account = match command.and_then(Command::userid) {
        Some(name) => {
            app.messages
                .addresses_of(&name.to_ascii_lowercase())
                .await?
        }
        None => None,
    };
    let mut to = match account {
        Some(addresses) => addresses,
        None => stranger_addresses(app, mail, &inbound.from, now).await?,
    };
    if !reply.ok {
        to = under_error_cap(app, to, now).await?;
    }
    Ok((to, mail_reply))
}

/// Whether the board mail of a command's change tells its sender what the reply would.
async fn told_by_board_mail(
    app: &App,
    from: &str,
    reply: &Reply,
    parsed: Option<&Command>,
) -> Result<bool> {
    Ok(match parsed {
        Some(Command::Act { .. } | Command::Chat { .. }) => true,
        Some(Command::Answer { .. }) => reply.data["status"] != Status::Challenge.as_str(),
        Some(Command::Challenge { players, .. }) => {
            let sender = app.messages.user_by_address(from).await?;
            sender.is_some_and(|s| players.iter().any(|p| p.eq_ignore_ascii_case(&s)))
        }
        _ => false,
    })
}

const HOUR_MS: i64 = 3600 * 1000;

/// The client address a mail's failed logins and signups are counted under: one per sender
/// address and the network it came from (`origin`, the topmost `Received:` header's address,
/// by its /24 or /64, since a mail provider sends from a range), as an address of the IETF's
/// reserved `0100::/16` (past RFC 6666's discard-only `0100::/64`), which no real client has;
/// the digest fills bits 16 to 127, so that keys taken by /64 stay apart.
///
/// Before issue #28 every mail counted as the one client `local`, so eleven forged mails with a
/// wrong password locked the owner's mail out; before issue #50 (finding 6) the key was the
/// From alone, so mails forging the owner's own From still did. Now a forger locks out only
/// what it sends from its own network.
pub fn sender_peer(from: &str, origin: Option<IpAddr>) -> IpAddr {
    use sha2::{Digest, Sha256};
    let network = match origin {
        Some(IpAddr::V4(ip)) => {
            let [a, b, c, _] = ip.octets();
            format!("{a}.{b}.{c}.0/24")
        }
        Some(IpAddr::V6(ip)) => {
            let s = ip.segments();
            format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
        None => "local".to_string(),
    };
    let key = format!("{}|{network}", from.to_ascii_lowercase());
    let digest = Sha256::digest(key.as_bytes());
    let mut octets = [0u8; 16];
    octets[0] = 0x01; // 0100::/16
    octets[2..].copy_from_slice(&digest[..14]);
    IpAddr::from(octets)
}

/// The From address, unless no account has it and it has had its share of answers this hour.
async fn stranger_addresses(app: &App, mail: &Mail, from: &str, now: i64) -> Result<Vec<String>> {
    if app.messages.user_by_address(from).await?.is_some() {
        return Ok(vec![from.to_string()]);
    }
    let sent = app.messages.sent_since(from, "", now - HOUR_MS).await?;
    Ok(match sent < mail.config.stranger_replies_per_hour {
        true => vec![from.to_string()],
        false => vec![],
    })
}

/// Error replies one address gets in an hour: far fewer than the commands a sender may send
/// (`--mail-per-hour`), so that a robot answering every mail cannot keep an exchange going.
pub const ERRORS_PER_ADDRESS_PER_HOUR: i64 = 5;

/// The addresses that have not had their share of error replies this hour.
async fn under_error_cap(app: &App, addresses: Vec<String>, now: i64) -> Result<Vec<String>> {
    let mut kept = vec![];
    for address in addresses {
        let had = app
            .messages
            .sent_since(&address, "error", now - HOUR_MS)
            .await?;
        if had < ERRORS_PER_ADDRESS_PER_HOUR {
            kept.push(address);
        }
    }
    Ok(kept)
}

/// Whether a message answers an error mail of this server: it names one in In-Reply-To or
/// References, or its Subject is an error's (`Re: error: ...`, from a responder that keeps no
/// headers). Such a message is never answered with another error: that is how two robots loop.
async fn answers_an_error(app: &App, inbound: &Inbound) -> Result<bool> {
    if inbound.subject.to_ascii_lowercase().starts_with("error:") {
        return Ok(true);
    }
    for id in &inbound.answers {
        if app.messages.own_mail_kind(id).await?.as_deref() == Some("error") {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The polite refusal of a message larger than the server reads. Its Subject does not repeat the
/// message's, which holds the command's password.
async fn refuse_large(
    app: &App,
    mail: &Mail,
    row: &InboxRow,
    inbound: &Inbound,
    now: i64,
) -> Result<Outcome> {
    let from = &inbound.from;
    let reply = Outgoing {
        kind: "refusal".into(),
        subject: "Your message to the ataxx server (not read: too large)".into(),
        body: format!(
            "Your message of {} bytes is larger than this server reads ({} bytes), so it was \
             not read. Please send the command in the Subject and a short plain-text comment, \
             without attachments.\n",
            row.size, mail.config.max_bytes
        ),
        ..in_thread(inbound, String::new())
    };
    let to = stranger_addresses(app, mail, from, now).await?;
    Ok(Outcome {
        status: "done",
        note: format!("from {from}: refused, {} bytes", row.size),
        replies: vec![(to, reply)],
    })
}
