//! The commands that only make sense with mail: `message`, `broadcast`, `change mail` (which
//! events mail a user) and the confirmed `change address`. They run from every door; the mails
//! go through the outbox.

use rand::Rng;

use serde_json::json;

use super::outbox;
use crate::domain::messages;
use crate::domain::messages::Outgoing;
use crate::doors::command::Reply;
use crate::error::{Error, Result};
use crate::App;

/// The events a user can take or refuse by mail.
pub const EVENTS: [&str; 6] = ["challenge", "move", "chat", "nag", "end", "message"];

/// Mails `body` from `user` to the users `to`, or to everyone (`broadcast`, admins only).
pub async fn message(
    app: &App,
    user: &str,
    to: Option<&[String]>,
    body: Option<&str>,
) -> Result<Reply> {
    let Some(mail) = &app.mail else {
        return Err(Error::Command(
            "this server sends no mail (start it with --relay or --sendmail)".into(),
        ));
    };
    let body = body.map(str::trim).unwrap_or_default();
    if body.is_empty() {
        return Err(Error::Command(
            "a message needs a body: the text of the mail".into(),
        ));
    }
    let now = app.games.now_ms();
    let subject = match to {
        Some(_) => format!("message from {user}"),
        None => {
            if !mail.config.admins.iter().any(|a| a == user) {
                return Err(Error::Command(format!(
                    "{user} may not broadcast: only the server's admins (serve --admin) may"
                )));
            }
            format!("broadcast from {user}")
        }
    };
    let outgoing = Outgoing {
        kind: "message".into(),
        subject: subject.clone(),
        body: format!("{user} writes:\n\n{body}\n"),
        ..Default::default()
    };
    let sender = outbox::sender(&mail.config, now);
    let messages::Sent { recipients, queued } =
        messages::send_message(&app.storage, &sender, to, &outgoing).await?;
    mail.outgoing.notify_one();
    Ok(Reply::ok(
        subject,
        format!(
            "Sent to {} users ({queued} addresses): {}\n",
            recipients.len(),
            recipients.join(", ")
        ),
        json!({"to": recipients, "addresses": queued}),
    ))
}

/// Sets which events mail `user`: names from [`EVENTS`], or `all`, or `none`.
pub async fn set_events(app: &App, user: &str, events: &[String]) -> Result<Reply> {
    let chosen: Vec<&str> = match events {
        [one] if one == "all" => EVENTS.to_vec(),
        [one] if one == "none" => vec![],
        _ => {
            for event in events {
                if !EVENTS.contains(&event.as_str()) {
                    return Err(Error::Command(format!(
                        "unknown mail event {event:?}; events: {}, or all, or none",
                        EVENTS.join(", ")
                    )));
                }
            }
            EVENTS
                .iter()
                .copied()
                .filter(|e| events.iter().any(|c| c == e))
                .collect()
        }
    };
    messages::set_mail_events(&app.storage, user, &chosen.join(" ")).await?;
    let listed = if chosen.is_empty() {
        "nothing (replies to your own commands still come)".to_string()
    } else {
        chosen.join(", ")
    };
    Ok(Reply::ok(
        "mail settings changed",
        format!("{user} is mailed for: {listed}\n"),
        json!({"userid": user, "mail_events": chosen}),
    ))
}

/// `change address` with a mail door: the new addresses wait for the token mailed to them.
pub async fn request_address_change(app: &App, user: &str, addresses: &[String]) -> Result<Reply> {
    let mail = app.mail.as_ref().expect("called with a mail door");
    if let Some(bad) = addresses
        .iter()
        .find(|a| !a.contains('@') || a.contains(['<', '>', '"']))
    {
        return Err(Error::Command(format!("{bad:?} is not a mail address")));
    }
    let token: String = {
        let mut rng = rand::rng();
        (0..16)
            .map(|_| char::from_digit(rng.random_range(0..16), 16).expect("a hex digit"))
            .collect()
    };
    let now = app.games.now_ms();
    let confirm = Outgoing {
        kind: "confirm".into(),
        subject: format!("confirm address {user} {token}"),
        body: format!(
            "Someone, you we hope, asked for {user}'s ataxx mail to go to {}.\n\n\
             To confirm, reply to this mail keeping its Subject, or send a mail with the Subject:\n\
             \n    confirm address {user} {token}\n\n\
             If it was not you, ignore this mail; nothing changes.\n",
            addresses.join(", ")
        ),
        ..Default::default()
    };
    let sender = outbox::sender(&mail.config, now);
    messages::request_address_change(&app.storage, &sender, user, addresses, &token, &confirm)
        .await?;
    mail.outgoing.notify_one();
    Ok(Reply::ok(
        "address change waiting for confirmation",
        format!(
            "A confirmation mail went to {}; the addresses change once it is answered.\n",
            addresses.join(", ")
        ),
        json!({"pending": addresses}),
    ))
}

/// `confirm address <userid> <token>`: makes the waiting addresses the account's.
pub async fn confirm_address(app: &App, user: &str, token: &str) -> Result<Reply> {
    let addresses = messages::confirm_address_change(&app.storage, user, token)
        .await?
        .ok_or_else(|| {
            Error::Command(format!("no address change of {user} waits for that token"))
        })?;
    Ok(Reply::ok(
        "address changed",
        format!("Addresses changed: {addresses}\n"),
        json!({"addresses": addresses.split_whitespace().collect::<Vec<_>>()}),
    ))
}
