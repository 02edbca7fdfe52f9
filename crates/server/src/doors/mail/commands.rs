//! The commands that only make sense with mail: `message`, `broadcast`, `change mail` (which
//! events mail a user) and the confirmed `change address`. They run from every door; the mails
//! go through the outbox.

use std::net::IpAddr;

use rand::Rng;

use serde_json::json;

use crate::domain::accounts::Accounts;
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
    let Some(outbox) = &app.outbox else {
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
            if !outbox.may_broadcast(user) {
                return Err(Error::Command(format!(
                    "{user} may not broadcast: only the server's admins (serve --admin) may"
                )));
            }
            format!("broadcast from {user}")
        }
    };
    // Messages come from players one can write back to: an account without a confirmed
    // address (a signup with someone else's) sends none.
    if messages::addresses_of(&app.storage, user)
        .await?
        .is_none_or(|a| a.is_empty())
    {
        return Err(Error::Command(format!(
            "{user} has no confirmed address yet: answer the confirmation mail first"
        )));
    }
    let to = to.map(distinct_recipients).transpose()?;
    let since = now - HOUR_MS;
    let sent_before =
        messages::sent_with_subject_since(&app.storage, "message", &subject, since).await?;
    let asked = to.as_ref().map_or(0, Vec::len) as i64;
    if to.is_some() && sent_before + asked > MESSAGES_PER_SENDER_PER_HOUR {
        return Err(Error::Command(format!(
            "{user} has sent {sent_before} messages this hour; at most \
             {MESSAGES_PER_SENDER_PER_HOUR} go out an hour: try again later"
        )));
    }
    let outgoing = Outgoing {
        kind: "message".into(),
        subject: subject.clone(),
        body: format!("{user} writes:\n\n{body}\n"),
        ..Default::default()
    };
    let sender = outbox.sender(now);
    let messages::Sent {
        recipients,
        queued,
        held_back,
    } = messages::send_message(
        &app.storage,
        &sender,
        to.as_deref(),
        &outgoing,
        MESSAGES_PER_ADDRESS_PER_HOUR,
    )
    .await?;
    outbox.ring();
    let held = match held_back {
        0 => String::new(),
        n => format!(
            "{n} addresses were not mailed: each takes at most {MESSAGES_PER_ADDRESS_PER_HOUR} \
             messages an hour.\n"
        ),
    };
    Ok(Reply::ok(
        subject,
        format!(
            "Sent to {} users ({queued} addresses): {}\n{held}",
            recipients.len(),
            recipients.join(", ")
        ),
        json!({"to": recipients, "addresses": queued, "held_back": held_back}),
    ))
}

const HOUR_MS: i64 = 3600 * 1000;
/// Users one `message` may name.
pub const MESSAGE_RECIPIENTS_MAX: usize = 10;
/// Mails a user's messages may queue in an hour (broadcasts, by admins, aside).
pub const MESSAGES_PER_SENDER_PER_HOUR: i64 = 30;
/// Messages one address takes in an hour, from all senders together.
pub const MESSAGES_PER_ADDRESS_PER_HOUR: i64 = 10;
/// Confirmation mails (signup, `change address`) one address takes in an hour.
pub const CONFIRMATIONS_PER_ADDRESS_PER_HOUR: i64 = 3;

/// The users a message names, each once (names are case-insensitive), at most
/// [`MESSAGE_RECIPIENTS_MAX`] of them.
fn distinct_recipients(to: &[String]) -> Result<Vec<String>> {
    let mut names: Vec<String> = vec![];
    for name in to.iter().map(|n| n.to_ascii_lowercase()) {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    if names.len() > MESSAGE_RECIPIENTS_MAX {
        return Err(Error::Command(format!(
            "a message goes to at most {MESSAGE_RECIPIENTS_MAX} users, not {}",
            names.len()
        )));
    }
    Ok(names)
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

/// Why addresses are to be confirmed: a new account, or a `change address`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Confirming {
    Signup,
    Change,
}

/// `signup` with a mail door: the account is made without addresses; the ones given wait for
/// the token mailed to them, so that no mail goes to an address its owner did not confirm.
pub async fn signup(
    app: &App,
    accounts: &Accounts,
    userid: &str,
    password: &str,
    addresses: &[String],
    peer: Option<IpAddr>,
) -> Result<Reply> {
    for address in addresses {
        messages::check_address(address)?;
    }
    check_confirmations(app, addresses).await?;
    let user = accounts.signup(userid, password, &[], peer).await?;
    let mut reply = request_address_change(app, &user.name, addresses, Confirming::Signup).await?;
    reply.subject = format!("signed up {}, address to confirm", user.name);
    Ok(reply)
}

/// Refuses before anything is written when an address had its confirmation mails this hour.
async fn check_confirmations(app: &App, addresses: &[String]) -> Result<()> {
    let since = app.games.now_ms() - HOUR_MS;
    for address in addresses {
        let had = messages::sent_since(&app.storage, address, "confirm", since).await?;
        if had >= CONFIRMATIONS_PER_ADDRESS_PER_HOUR {
            return Err(Error::Command(format!(
                "{address} had {had} confirmation mails this hour; try again later"
            )));
        }
    }
    Ok(())
}

/// `change address` with a mail door (and a signup's addresses): the new addresses wait for the
/// token mailed to them.
pub async fn request_address_change(
    app: &App,
    user: &str,
    addresses: &[String],
    why: Confirming,
) -> Result<Reply> {
    let outbox = app.outbox.as_ref().expect("called with a mail door");
    for address in addresses {
        messages::check_address(address)?;
    }
    check_confirmations(app, addresses).await?;
    let token: String = {
        let mut rng = rand::rng();
        (0..16)
            .map(|_| char::from_digit(rng.random_range(0..16), 16).expect("a hex digit"))
            .collect()
    };
    let now = app.games.now_ms();
    let asked = match why {
        Confirming::Signup => format!("signed up as {user} on this ataxx server with this address"),
        Confirming::Change => format!(
            "asked for {user}'s ataxx mail to go to {}",
            addresses.join(", ")
        ),
    };
    let confirm = Outgoing {
        kind: "confirm".into(),
        subject: format!("confirm address {user} {token}"),
        body: format!(
            "Someone, you we hope, {asked}.\n\n\
             To confirm, reply to this mail keeping its Subject, or send a mail with the Subject:\n\
             \n    confirm address {user} {token}\n\n\
             No other mail comes to this address until then. If it was not you, ignore this \
             mail; nothing changes.\n"
        ),
        ..Default::default()
    };
    let sender = outbox.sender(now);
    messages::request_address_change(&app.storage, &sender, user, addresses, &token, &confirm)
        .await?;
    outbox.ring();
    Ok(Reply::ok(
        "address change waiting for confirmation",
        format!(
            "A confirmation mail went to {}; the addresses change once it is answered.\n",
            addresses.join(", ")
        ),
        json!({"userid": user, "pending": addresses}),
    ))
}

/// `confirm address <userid> <token>`: makes the waiting addresses the account's. The first
/// confirmation of an account made by mail is its welcome.
pub async fn confirm_address(app: &App, user: &str, token: &str) -> Result<Reply> {
    let user = user.to_ascii_lowercase();
    let had_addresses = messages::addresses_of(&app.storage, &user)
        .await?
        .is_some_and(|a| !a.is_empty());
    let addresses = messages::confirm_address_change(&app.storage, &user, token)
        .await?
        .ok_or_else(|| {
            Error::Command(format!("no address change of {user} waits for that token"))
        })?;
    let data =
        json!({"userid": user, "addresses": addresses.split_whitespace().collect::<Vec<_>>()});
    Ok(match had_addresses {
        true => Reply::ok(
            "address changed",
            format!("Addresses changed: {addresses}\n"),
            data,
        ),
        false => Reply::ok(
            format!("signed up {user}"),
            format!(
                "Welcome, {user}. Your address is confirmed: {addresses}\n\
                 Challenge someone with: ataxx challenge -password=<password> {user} <userid>\n"
            ),
            data,
        ),
    })
}
