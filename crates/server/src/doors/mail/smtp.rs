//! The SMTP listener (`ataxx serve --smtp ADDR`), for running without other mail software.
//!
//! A small state machine of RFC 5321's receiving side (EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP,
//! QUIT; SIZE, 8BITMIME and PIPELINING advertised), written here because no maintained async
//! SMTP server crate fits: samotop and mailin-embedded are unmaintained or thread-per-connection,
//! and the door needs little more than DATA. A message is stored in the database before the
//! `250` that takes responsibility for it; a storage failure answers `451` so the sender retries.

use std::net::IpAddr;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinSet;

use super::Mail;
use crate::domain::messages;
use crate::doors::accept::{Acceptor, Open, Slot, Warnings};
use crate::App;

/// The longest command line (RFC 5321 allows 512 octets; a little slack).
const MAX_LINE: usize = 1000;
/// An idle connection is closed after this long (RFC 5321 suggests 5 minutes).
const IDLE: Duration = Duration::from_secs(300);
/// Connections one client address may hold open. A sending MTA opens a few at a time; 20,000
/// idle ones from one address took every file descriptor of the server (issue #50).
pub const MAX_PER_ADDRESS: usize = 10;
/// Recipients per message.
const MAX_RECIPIENTS: usize = 100;

/// Messages up to this many times `max_bytes` are read (and the excess refused politely by mail);
/// larger ones get a `552` at once.
const HARD_LIMIT_FACTOR: usize = 16;

pub async fn serve(
    app: App,
    mail: Mail,
    listener: TcpListener,
    mut stopped: watch::Receiver<bool>,
) {
    let mut connections = JoinSet::new();
    let mut acceptor = Acceptor::new(listener, "smtp");
    let open = Open::default();
    let mut refusals = Warnings::default();
    loop {
        tokio::select! {
            (stream, peer) = acceptor.accept() => match open.take(peer.ip(), MAX_PER_ADDRESS) {
                Some(slot) => {
                    connections.spawn(session(app.clone(), mail.clone(), stream, peer.ip(), slot));
                }
                None => {
                    if let Some(held_back) = refusals.may_log() {
                        tracing::warn!(%peer, max = MAX_PER_ADDRESS, held_back, "smtp: too many connections from one address");
                    }
                    connections.spawn(refuse(stream));
                }
            },
            _ = stopped.changed() => break,
        }
        // Finished sessions' results are dropped as they come, not kept until shutdown.
        while connections.try_join_next().is_some() {}
    }
    let _ = tokio::time::timeout(Duration::from_secs(5), async {
        while connections.join_next().await.is_some() {}
    })
    .await;
}

/// The address inside `FROM:<...>` / `TO:<...>`, and the parameters after it.
fn path_argument<'a>(rest: &'a str, keyword: &str) -> Option<(&'a str, &'a str)> {
    let rest = rest.trim_start();
    if !rest.get(..keyword.len())?.eq_ignore_ascii_case(keyword) {
        return None;
    }
    let rest = rest[keyword.len()..].trim_start();
    let rest = rest.strip_prefix('<')?;
    let end = rest.find('>')?;
    Some((&rest[..end], rest[end + 1..].trim()))
}

/// The `SIZE=n` parameter of MAIL FROM, if any.
fn declared_size(params: &str) -> Option<usize> {
    params.split_whitespace().find_map(|p| {
        let (name, value) = p.split_once('=')?;
        name.eq_ignore_ascii_case("SIZE")
            .then(|| value.parse().ok())?
    })
}

/// RFC 5321's answer to a client over its address's cap: 421, then the connection closes.
async fn refuse(mut stream: TcpStream) {
    crate::metrics::refused("smtp");
    let reply =
        format!("421 too many connections from your address (at most {MAX_PER_ADDRESS})\r\n");
    let _ = tokio::time::timeout(Duration::from_secs(5), stream.write_all(reply.as_bytes())).await;
    let _ = stream.shutdown().await;
}

/// One client's session from `peer`; `_slot` holds its place in its address's count until it
/// ends.
async fn session(app: App, mail: Mail, stream: TcpStream, peer: IpAddr, _slot: Slot) {
    let _connected = crate::metrics::Connected::to("smtp");
    let domain = mail.config.domain().to_string();
    let hard_limit = mail.config.max_bytes.saturating_mul(HARD_LIMIT_FACTOR);
    let (read, mut write) = stream.into_split();
    let mut reader = BufReader::new(read);
    // Replies waiting to be written: pipelined commands get theirs in one write.
    let mut out = format!("220 {domain} ataxx ESMTP\r\n").into_bytes();
    let mut sender: Option<String> = None;
    let mut client_name = String::new();
    let mut recipients = 0usize;
    let mut line = Vec::new();
    loop {
        if !out.is_empty() {
            if write.write_all(&out).await.is_err() {
                return;
            }
            out.clear();
        }
        line.clear();
        let read = tokio::time::timeout(
            IDLE,
            (&mut reader)
                .take(MAX_LINE as u64 + 2)
                .read_until(b'\n', &mut line),
        )
        .await;
        match read {
            Ok(Ok(0)) | Ok(Err(_)) => return,
            Err(_) => {
                let _ = write.write_all(b"421 idle too long, closing\r\n").await;
                return;
            }
            Ok(Ok(_)) => {}
        }
        if !line.ends_with(b"\n") {
            out.extend(b"500 line too long\r\n");
            continue;
        }
        let text = String::from_utf8_lossy(&line).trim_end().to_string();
        let (verb, rest) = text.split_once(' ').unwrap_or((&text, ""));
        let verb = verb.to_ascii_uppercase();
        if matches!(verb.as_str(), "EHLO" | "HELO") {
            client_name = host_name(rest);
        }
        let reply = match verb.as_str() {
            "EHLO" => format!(
                "250-{domain} hello\r\n250-SIZE {hard_limit}\r\n250-8BITMIME\r\n250 PIPELINING"
            ),
            "HELO" => format!("250 {domain} hello"),
            "MAIL" => match path_argument(rest, "FROM:") {
                None => "501 syntax: MAIL FROM:<address>".into(),
                Some(_) if sender.is_some() => "503 sender already given (RSET first)".into(),
                Some((_, params)) if declared_size(params).is_some_and(|s| s > hard_limit) => {
                    format!("552 message too large: this server takes at most {hard_limit} bytes")
                }
                Some((address, _)) => {
                    sender = Some(address.to_string());
                    recipients = 0;
                    "250 sender ok".into()
                }
            },
            "RCPT" => match (path_argument(rest, "TO:"), &sender) {
                (_, None) => "503 MAIL FROM first".into(),
                (None, _) => "501 syntax: RCPT TO:<address>".into(),
                (Some(_), _) if recipients >= MAX_RECIPIENTS => "452 too many recipients".into(),
                (Some(_), _) => {
                    recipients += 1;
                    "250 recipient ok".into()
                }
            },
            "DATA" if sender.is_none() || recipients == 0 => {
                "503 MAIL FROM and RCPT TO first".into()
            }
            "DATA" => {
                if write
                    .write_all(b"354 end the message with a line holding a single dot\r\n")
                    .await
                    .is_err()
                {
                    return;
                }
                let (message, size) = match read_data(&mut reader, hard_limit).await {
                    Some(read) => read,
                    None => return,
                };
                let from = sender.take().unwrap_or_default();
                recipients = 0;
                if size > hard_limit {
                    format!("552 message too large: this server takes at most {hard_limit} bytes")
                } else {
                    let received = received(&client_name, peer, &domain);
                    store(
                        &app,
                        &mail,
                        &from,
                        &[received.as_bytes(), &message].concat(),
                    )
                    .await
                }
            }
            "RSET" => {
                sender = None;
                recipients = 0;
                "250 reset".into()
            }
            "NOOP" => "250 ok".into(),
            "VRFY" => "252 cannot verify, but will take the message".into(),
            "QUIT" => {
                let _ = write
                    .write_all(format!("221 {domain} bye\r\n").as_bytes())
                    .await;
                return;
            }
            _ => "502 command not implemented".into(),
        };
        out.extend(format!("{reply}\r\n").into_bytes());
    }
}

/// What the client called itself in EHLO/HELO, if it is a plausible host name (it goes into a
/// header line).
fn host_name(helo: &str) -> String {
    let name = helo.trim();
    let plausible = !name.is_empty()
        && name.len() <= 255
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '[' | ']' | ':'));
    match plausible {
        true => name.to_string(),
        false => "unknown".to_string(),
    }
}

/// The `Received:` line the door puts on top of a message, as an MTA does (RFC 5321 4.4): the
/// client's address in it is what failed logins by mail are counted under with the From
/// (`inbound::sender_peer`), so that a forged From does not lock out the real sender.
fn received(client_name: &str, peer: IpAddr, domain: &str) -> String {
    let date = time::OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc2822)
        .unwrap_or_default();
    let client_name = if client_name.is_empty() {
        "unknown"
    } else {
        client_name
    };
    format!(
        "Received: from {client_name} (unknown [{peer}])\r\n\tby {domain} with ESMTP; {date}\r\n"
    )
}

/// Stores a received message and says so: the reply to its DATA (`451` when it could not be
/// stored, so that the sender tries again).
async fn store(app: &App, mail: &Mail, from: &str, message: &[u8]) -> String {
    let message_id = super::parse::message_id(message);
    let stored = app
        .messages
        .store_inbound(from, message_id.as_deref(), message, mail.config.max_bytes)
        .await;
    match stored {
        Ok(messages::Stored {
            id,
            duplicate: true,
        }) => format!("250 already stored as message {id}"),
        Ok(messages::Stored { id, .. }) => {
            mail.bell.notify_one();
            format!("250 stored as message {id}")
        }
        Err(err) => {
            tracing::error!(%err, "storing a mail");
            "451 cannot store the message now; try again later".into()
        }
    }
}

/// Reads the DATA section up to the lone dot, undoing dot-stuffing. Keeps at most `limit + 1`
/// bytes but reads (and counts) everything. None when the connection ends first.
///
/// Lines are read in pieces of at most [`MAX_LINE`] + 2 bytes, so that a line without end
/// costs no more memory than a short one (a 300 MiB line once grew the server by 300 MiB);
/// only a piece that starts a line can be the lone dot or carry dot-stuffing.
async fn read_data<R: tokio::io::AsyncBufRead + Unpin>(
    reader: &mut R,
    limit: usize,
) -> Option<(Vec<u8>, usize)> {
    let mut message = Vec::new();
    let mut size = 0usize;
    let mut piece = Vec::new();
    let mut at_line_start = true;
    loop {
        piece.clear();
        let mut bounded = (&mut *reader).take(MAX_LINE as u64 + 2);
        match tokio::time::timeout(IDLE, bounded.read_until(b'\n', &mut piece)).await {
            Ok(Ok(0)) | Ok(Err(_)) | Err(_) => return None,
            Ok(Ok(_)) => {}
        }
        if at_line_start && (piece == b".\r\n" || piece == b".\n") {
            return Some((message, size));
        }
        let content = match at_line_start {
            true => piece.strip_prefix(b".").unwrap_or(&piece),
            false => &piece,
        };
        size += content.len();
        if message.len() <= limit {
            message.extend_from_slice(content);
        }
        at_line_start = piece.ends_with(b"\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_sizes_are_read_from_mail_and_rcpt() {
        assert_eq!(
            path_argument("FROM:<a@b.c> SIZE=120", "FROM:"),
            Some(("a@b.c", "SIZE=120"))
        );
        assert_eq!(path_argument("from: <>", "FROM:"), Some(("", "")));
        assert_eq!(path_argument("TO:a@b.c", "TO:"), None);
        assert_eq!(declared_size("BODY=8BITMIME SIZE=99"), Some(99));
    }

    #[tokio::test]
    async fn data_lines_longer_than_a_piece_are_counted_whole_and_only_line_starts_end_it() {
        // A line whose second piece is ".\r\n" (not the end: it is not a line of its own), then
        // a stuffed dot.
        let mut long = vec![b'a'; MAX_LINE + 2];
        long.extend_from_slice(b".\r\n");
        let mut wire = long.clone();
        wire.extend_from_slice(b"..x\r\n.\r\nQUIT\r\n");
        let mut reader = BufReader::new(&wire[..]);
        let (message, size) = read_data(&mut reader, 1 << 20).await.unwrap();
        let mut expected = long;
        expected.extend_from_slice(b".x\r\n");
        assert_eq!(message, expected);
        assert_eq!(size, expected.len());
    }
}
