//! Inbound mail: stored first ([`crate::domain::messages`], before the SMTP `250` or `mail-in`'s exit status),
//! then processed ([`process`]): filtered, run as a command, answered.
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
use crate::domain::messages;
use crate::domain::messages::Outgoing;
use crate::model::InboxRow;

/// Processes every stored message not yet processed, oldest first.
pub async fn process(app: &App, mail: &Mail) -> Result<usize> {
    let rows = messages::unprocessed(&app.storage, 100).await?;
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
    messages::finish_inbound(
        &app.storage,
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
    let ignored = |why: String| Outcome {
        status: "ignored",
        note: format!("from {from}: ignored, {why}"),
        replies: vec![],
    };
    if let Some(why) = &inbound.automatic {
        return Ok(ignored(format!("automatic ({why})")));
    }
    let recent = messages::received_since(&app.storage, from, now - HOUR_MS).await?;
    if recent >= mail.config.per_sender_per_hour {
        return Ok(ignored(format!(
            "over {} messages in an hour",
            mail.config.per_sender_per_hour
        )));
    }
    let thread = |refs: String| Outgoing {
        in_reply_to: inbound
            .message_id
            .as_ref()
            .map(|id| format!("<{id}>"))
            .unwrap_or_default(),
        refs,
        ..Default::default()
    };
    if row.truncated || row.size > mail.config.max_bytes as i64 {
        return refuse_large(app, mail, row, inbound, thread(String::new()), now).await;
    }
    let mut line = inbound.subject.clone();
    let parsed = command::parse(&line);
    if let Ok(Command::Signup { addresses, .. }) = &parsed {
        // pbmserv: without addresses, replies go to the sending address.
        if addresses.is_empty() {
            line = format!("{line} {from}");
        }
    }
    let comment = (!inbound.comment.is_empty()).then(|| inbound.comment.clone());
    let request = Request {
        line: line.clone(),
        body: comment.clone(),
        peer: Some(sender_peer(from)),
    };
    let id = crate::doors::request_id::new_id();
    let span = crate::doors::request_id::span("mail", &id);
    let reply = tracing::Instrument::instrument(command::execute(app, &request), span).await;
    let parsed = command::parse(&line).ok();
    // A move's comment goes on the board, for its next board mail.
    if let (true, Some(Command::Act { board, userid, .. }), Some(comment)) =
        (reply.ok, &parsed, &comment)
    {
        if let Err(err) = app
            .games
            .chat(*board, &userid.to_ascii_lowercase(), comment)
            .await
        {
            tracing::warn!(%err, board, "the comment of a mailed move");
        }
    }
    let actor = parsed
        .as_ref()
        .and_then(Command::userid)
        .map(str::to_ascii_lowercase);
    let account = match &actor {
        Some(name) => messages::addresses_of(&app.storage, name).await?,
        None => None,
    };
    let note = format!(
        "from {from}: {} {}",
        if reply.ok { "ok" } else { "error" },
        reply.subject
    );
    if !reply.ok && answers_an_error(app, inbound).await? {
        return Ok(ignored(format!(
            "an answer to this server's error mail ({})",
            reply.subject
        )));
    }
    // A signup's answer is the confirmation mail to its addresses, nothing to the From.
    if reply.ok && matches!(parsed, Some(Command::Signup { .. })) {
        return Ok(Outcome {
            status: "done",
            note,
            replies: vec![],
        });
    }
    // Board mails answer a move, a chat, the acceptance that starts or ends a challenge, and a
    // challenge to the players it names: no second copy.
    if reply.ok && told_by_board_mail(app, from, &reply, parsed.as_ref()).await? {
        return Ok(Outcome {
            status: "done",
            note,
            replies: vec![],
        });
    }
    let refs = match parsed.as_ref().and_then(Command::board) {
        Some(board) => mail.outbox.board_thread(board),
        None => String::new(),
    };
    let mail_reply = Outgoing {
        kind: if reply.ok { "reply" } else { "error" }.into(),
        subject: reply.subject.clone(),
        body: reply.text.clone(),
        ..thread(refs)
    };
    let mut to = match account {
        Some(addresses) => addresses,
        None => stranger_addresses(app, mail, from, now).await?,
    };
    if !reply.ok {
        to = under_error_cap(app, to, now).await?;
    }
    Ok(Outcome {
        status: "done",
        note,
        replies: vec![(to, mail_reply)],
    })
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
            let sender = messages::user_by_address(&app.storage, from).await?;
            sender.is_some_and(|s| players.iter().any(|p| p.eq_ignore_ascii_case(&s)))
        }
        _ => false,
    })
}

const HOUR_MS: i64 = 3600 * 1000;

/// The client address a mail's failed logins and signups are counted under: one per sender
/// address, in the IPv6 discard-only prefix `100::/64` (RFC 6666), which no real client has.
/// Before, every mail counted as the one client `local`: eleven forged mails with a wrong
/// password locked the owner's own mail out of the account (issue #28, 8). A forger can still
/// lock out the address it forges, not the owner's others, nor the other doors.
pub fn sender_peer(from: &str) -> IpAddr {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(from.to_ascii_lowercase().as_bytes());
    let mut octets = [0u8; 16];
    octets[1] = 0x01; // 0100::/64
    octets[8..].copy_from_slice(&digest[..8]);
    IpAddr::from(octets)
}

/// The From address, unless no account has it and it has had its share of answers this hour.
async fn stranger_addresses(app: &App, mail: &Mail, from: &str, now: i64) -> Result<Vec<String>> {
    if messages::user_by_address(&app.storage, from)
        .await?
        .is_some()
    {
        return Ok(vec![from.to_string()]);
    }
    let sent = messages::sent_since(&app.storage, from, "", now - HOUR_MS).await?;
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
        let had = messages::sent_since(&app.storage, &address, "error", now - HOUR_MS).await?;
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
        if messages::own_mail_kind(&app.storage, id).await?.as_deref() == Some("error") {
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
    thread: Outgoing,
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
        ..thread
    };
    let to = stranger_addresses(app, mail, from, now).await?;
    Ok(Outcome {
        status: "done",
        note: format!("from {from}: refused, {} bytes", row.size),
        replies: vec![(to, reply)],
    })
}
