//! Reading one RFC 5322 message (MIME decoded by the mail-parser crate: multipart,
//! quoted-printable, base64, charsets) into what the mail door needs: the sender, the Subject
//! as the command, the plain-text body as the comment, and whether the message is automatic
//! (an auto-reply or a bounce, never answered, so that two robots cannot loop).

use std::net::IpAddr;

use mail_parser::MessageParser;

/// A parsed inbound message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inbound {
    /// The From address (lower-cased), empty when there is none.
    pub from: String,
    /// The Subject: the command line.
    pub subject: String,
    /// The plain-text body with quoted lines and the signature taken out.
    pub comment: String,
    pub message_id: Option<String>,
    /// The Message-IDs it answers (In-Reply-To and References), each as `<id>`.
    pub answers: Vec<String>,
    /// Why the message is not answered (auto-reply, bounce), if it is automatic.
    pub automatic: Option<String>,
    pub attachments: usize,
    /// The address of the machine that handed the message to us: the `from [ip]` of the
    /// topmost `Received:` header, the one our own MTA (or the SMTP door) wrote. The From can be
    /// forged; this cannot, by the sender.
    pub origin: Option<IpAddr>,
}

/// Parses raw message bytes; `envelope_from` is the SMTP `MAIL FROM` (empty = a bounce).
pub fn parse(raw: &[u8], envelope_from: Option<&str>) -> Option<Inbound> {
    let message = MessageParser::default().parse(raw)?;
    let from = message
        .from()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    let subject = message
        .subject()
        .unwrap_or_default()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let subject = strip_reply_prefixes(&subject).to_string();
    let body = message.body_text(0).unwrap_or_default();
    let header = |name: &str| {
        message
            .header_raw(name)
            .map(|v| v.trim().to_ascii_lowercase())
    };
    let return_path = message.return_address().map(str::trim);
    let automatic = if header("Auto-Submitted").is_some_and(|v| !v.starts_with("no")) {
        Some("Auto-Submitted".to_string())
    } else if let Some(p) =
        header("Precedence").filter(|p| ["bulk", "junk", "list"].contains(&p.as_str()))
    {
        Some(format!("Precedence: {p}"))
    } else if envelope_from.is_some_and(is_null_sender) || return_path == Some("") {
        Some("empty return path (a bounce)".to_string())
    } else if is_daemon(&from) {
        Some(format!("sent by {from}"))
    } else if from.is_empty() {
        Some("no From address".to_string())
    } else {
        None
    };
    let origin = message.received_all().next().and_then(|r| r.from_ip());
    let answers = [message.in_reply_to(), message.references()]
        .iter()
        .flat_map(|ids| ids.as_text_list().unwrap_or_default())
        .map(|id| format!("<{id}>"))
        .collect();
    Some(Inbound {
        from,
        subject,
        comment: comment(&body),
        message_id: message.message_id().map(|id| id.to_string()),
        answers,
        automatic,
        attachments: message.attachment_count(),
        origin,
    })
}

/// The Message-ID of raw message bytes, if it has one (the inbox stores each once).
pub fn message_id(raw: &[u8]) -> Option<String> {
    let id = MessageParser::default()
        .parse_headers(raw)?
        .message_id()?
        .trim()
        .to_string();
    (!id.is_empty()).then_some(id)
}

/// An envelope sender that marks a bounce: empty or `<>` (RFC 5321's null path), or what an
/// MTA writes for it (Postfix's pipe passes `MAILER-DAEMON` unless `null_sender=` is set).
fn is_null_sender(envelope_from: &str) -> bool {
    let sender = envelope_from.trim();
    sender.is_empty() || sender == "<>" || sender.eq_ignore_ascii_case("mailer-daemon")
}

/// Mailer daemons and postmasters answer mail automatically.
fn is_daemon(address: &str) -> bool {
    let local = address.split('@').next().unwrap_or_default();
    ["mailer-daemon", "postmaster", "noreply", "no-reply"].contains(&local)
}

/// `Re: ataxx move ...` is the command `ataxx move ...` (a reply to a board mail).
fn strip_reply_prefixes(mut subject: &str) -> &str {
    loop {
        let lower = subject.to_ascii_lowercase();
        match ["re:", "aw:", "fwd:", "fw:"]
            .iter()
            .find(|p| lower.starts_with(*p))
        {
            Some(prefix) => subject = subject[prefix.len()..].trim_start(),
            None => return subject,
        }
    }
}

/// The comment of a body: without quoted lines (`>`), the attribution line before them
/// (`On ..., X wrote:`), and the signature (after a `-- ` line); without trailing spaces and
/// blank lines around it. A comment is its own comment (the fuzz target checks it): only whole
/// blank lines are trimmed, so no line turns into a signature marker by losing its indent.
pub fn comment(body: &str) -> String {
    let mut lines: Vec<&str> = vec![];
    for line in body.lines() {
        let line = line.trim_end_matches('\r');
        // `-- ` is the separator; any trailing blanks count, since kept lines lose theirs and a
        // comment must read back as itself.
        if line.trim_end() == "--" {
            break;
        }
        if line.trim_start().starts_with('>') {
            if lines
                .last()
                .is_some_and(|l| l.trim_end().ends_with("wrote:"))
            {
                lines.pop();
            }
            continue;
        }
        lines.push(line.trim_end());
    }
    let first = lines.iter().position(|l| !l.trim().is_empty());
    let last = lines.iter().rposition(|l| !l.trim().is_empty());
    match (first, last) {
        (Some(first), Some(last)) => lines[first..=last].join("\n"),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_lines_attribution_and_signature_are_dropped() {
        let body = "Nice jump!\n\nOn Mon, bob wrote:\n> old text\n> more\nSee you.\n-- \nAlice\n";
        assert_eq!(comment(body), "Nice jump!\n\nSee you.");
        assert_eq!(comment("-- \nonly a signature\n"), "");
        // An indented `--` stays a line of the comment, also when read again.
        assert_eq!(comment(" --\nhello"), " --\nhello");
        assert_eq!(comment(&comment(" --\nhello")), " --\nhello");
        // Found by the fuzzer: `--`, CR and a space is a separator too.
        assert_eq!(comment("Good luck!\n--\r \nAlice\n"), "Good luck!");
    }

    #[test]
    fn the_origin_is_the_topmost_received_headers_address() {
        // As Postfix writes it, above a Received line the sender could have forged.
        let raw = b"Received: from mx.example.org (mx.example.org [203.0.113.5])\r\n\
\tby games.test (Postfix) with ESMTPS id 4F; Tue, 1 Dec 2026 10:00:00 +0000\r\n\
Received: from forged ([192.0.2.9]) by anywhere; Tue, 1 Dec 2026 09:00:00 +0000\r\n\
From: bob@b.test\r\nSubject: help\r\n\r\n";
        let mail = parse(raw, None).unwrap();
        assert_eq!(mail.origin, Some("203.0.113.5".parse().unwrap()));
        // As the SMTP door writes it.
        let raw = b"Received: from client.test (unknown [2001:db8::7]) by games.test with ESMTP; \
Tue, 1 Dec 2026 10:00:00 +0000\r\nFrom: bob@b.test\r\nSubject: help\r\n\r\n";
        let mail = parse(raw, None).unwrap();
        assert_eq!(mail.origin, Some("2001:db8::7".parse().unwrap()));
        let local = parse(b"From: bob@b.test\r\nSubject: help\r\n\r\n", None).unwrap();
        assert_eq!(local.origin, None);
    }

    #[test]
    fn subject_is_the_command_and_auto_replies_are_marked() {
        let raw =
            b"From: Alice <Alice@Example.org>\r\nSubject: Re: ataxx move 101 alice pw f6#1\r\n\
Auto-Submitted: auto-replied\r\n\r\nout of office\r\n";
        let mail = parse(raw, Some("alice@example.org")).unwrap();
        assert_eq!(mail.from, "alice@example.org");
        assert_eq!(mail.subject, "ataxx move 101 alice pw f6#1");
        assert_eq!(mail.automatic.as_deref(), Some("Auto-Submitted"));
        let bounce = parse(
            b"From: MAILER-DAEMON@x.org\r\nSubject: fail\r\n\r\n",
            Some("x@y"),
        )
        .unwrap();
        assert!(bounce.automatic.is_some());
        let plain = parse(b"From: a@b.c\r\nSubject: help\r\n\r\nhi\r\n", Some("")).unwrap();
        assert_eq!(
            plain.automatic.as_deref(),
            Some("empty return path (a bounce)")
        );
    }
}
