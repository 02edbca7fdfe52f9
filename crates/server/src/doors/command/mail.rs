//! The replies of the commands that mail: `message` and `broadcast`, `change mail`, a signup's
//! and a `change address`'s addresses waiting for their confirmation, `confirm address`, and
//! password resets. The rules are the domain's [`crate::domain::messages::Messages`]; the HTTP
//! door answers its signup and reset routes with the same replies' data.

use std::net::IpAddr;

use serde_json::json;

use super::{Command, Reply, Request};
use crate::domain::accounts::{address_list, Accounts, ResetMailed};
use crate::domain::messages::{Confirming, MESSAGES_PER_ADDRESS_PER_HOUR, RESET_REQUESTED};
use crate::error::Result;
use crate::App;

/// Runs a command that mails: messages, broadcasts, address confirmations, mail settings,
/// password resets.
pub(super) async fn run(app: &App, request: &Request, command: &Command) -> Result<Reply> {
    let accounts = &app.accounts.for_peer(request.peer);
    let body = request.body.as_deref();
    match command {
        Command::Message {
            userid,
            password,
            to,
        } => message(app, accounts, userid, password, Some(to), body).await,
        Command::Broadcast { userid, password } => {
            message(app, accounts, userid, password, None, body).await
        }
        Command::ConfirmAddress { userid, token } => confirm_address(app, userid, token).await,
        Command::ResetRequest { who } => reset_request(app, accounts, who).await,
        Command::Reset { token, password } => reset(accounts, token, password).await,
        Command::MailEvents {
            userid,
            password,
            events,
        } => set_events(app, accounts, userid, password, events).await,
        _ => unreachable!("run sends only the commands that mail here"),
    }
}

/// `message` (to the users `to`) and `broadcast` (to everyone: None).
async fn message(
    app: &App,
    accounts: &Accounts,
    userid: &str,
    password: &str,
    to: Option<&[String]>,
    body: Option<&str>,
) -> Result<Reply> {
    let user = accounts.verify(userid, password).await?;
    let sent = app.messages.message(&user, to, body).await?;
    let held = match sent.held_back {
        0 => String::new(),
        n => format!(
            "{n} addresses were not mailed: each takes at most {MESSAGES_PER_ADDRESS_PER_HOUR} \
             messages an hour.\n"
        ),
    };
    Ok(Reply::ok(
        &sent.subject,
        format!(
            "Sent to {} users ({} addresses): {}\n{held}",
            sent.recipients.len(),
            sent.queued,
            sent.recipients.join(", ")
        ),
        json!({"to": sent.recipients, "addresses": sent.queued, "held_back": sent.held_back}),
    ))
}

/// `change mail`: which events mail the user.
async fn set_events(
    app: &App,
    accounts: &Accounts,
    userid: &str,
    password: &str,
    events: &[String],
) -> Result<Reply> {
    let user = accounts.verify(userid, password).await?;
    let chosen = app.messages.set_events(&user, events).await?;
    let listed = match chosen.is_empty() {
        true => "nothing (replies to your own commands still come)".to_string(),
        false => chosen.join(", "),
    };
    Ok(Reply::ok(
        "mail settings changed",
        format!("{user} is mailed for: {listed}\n"),
        json!({"userid": user, "mail_events": chosen}),
    ))
}

/// `signup` on a server that sends mail: the account is made, its addresses wait for their
/// confirmation mail.
pub(crate) async fn signup(
    app: &App,
    accounts: &Accounts,
    userid: &str,
    password: &str,
    addresses: &[String],
    peer: Option<IpAddr>,
) -> Result<Reply> {
    let user = app
        .messages
        .signup(accounts, userid, password, addresses, peer)
        .await?;
    Ok(waiting(
        format!("signed up {user}, address to confirm"),
        &user,
        &address_list(addresses)?,
    ))
}

/// `change address` on a server that sends mail: the new addresses wait for their confirmation.
pub(super) async fn change_address(app: &App, user: &str, addresses: &[String]) -> Result<Reply> {
    let mailed = app
        .messages
        .request_address_change(user, addresses, Confirming::Change)
        .await?;
    Ok(match mailed.is_empty() {
        true => Reply::ok(
            "address changed",
            format!("Addresses: {}\n", address_list(addresses)?.join(" ")),
            json!({"userid": user, "pending": mailed}),
        ),
        false => waiting(
            "address change waiting for confirmation".into(),
            user,
            &mailed,
        ),
    })
}

/// The reply of addresses waiting for the confirmation mailed to each of them.
fn waiting(subject: String, user: &str, addresses: &[String]) -> Reply {
    Reply::ok(
        subject,
        format!(
            "A confirmation mail went to each of {}; each address takes mail once its own mail \
             is answered.\n",
            addresses.join(", ")
        ),
        json!({"userid": user, "pending": addresses}),
    )
}

/// `confirm address <userid> <token>`. The first confirmation of an account made by mail is its
/// welcome.
async fn confirm_address(app: &App, user: &str, token: &str) -> Result<Reply> {
    let confirmed = app.messages.confirm_address(user, token).await?;
    let (user, addresses) = (&confirmed.user, confirmed.addresses.join(" "));
    let data = json!({"userid": user, "addresses": confirmed.addresses});
    Ok(match confirmed.first {
        false => Reply::ok(
            "address changed",
            format!("Addresses changed: {addresses}\n"),
            data,
        ),
        true => Reply::ok(
            format!("signed up {user}"),
            format!(
                "Welcome, {user}. Your address is confirmed: {addresses}\n\
                 Challenge someone with: ataxx challenge -password=<password> {user} <userid>\n"
            ),
            data,
        ),
    })
}

/// `reset <userid|address>` from anyone: the same answer whatever the account.
pub(crate) async fn reset_request(app: &App, accounts: &Accounts, who: &str) -> Result<Reply> {
    app.messages.request_reset(accounts, who).await?;
    Ok(Reply::ok(
        "password reset asked for",
        format!("{RESET_REQUESTED}\n"),
        json!({"message": RESET_REQUESTED}),
    ))
}

/// `reset <token> <new password>`: sets the password; every session of the account ends.
pub(crate) async fn reset(accounts: &Accounts, token: &str, password: &str) -> Result<Reply> {
    let user = accounts.reset_password(token, password).await?;
    Ok(Reply::ok(
        "password set",
        format!("The password of {user} is set; every session of {user} has ended.\n"),
        json!({"userid": user}),
    ))
}

/// What an admin is told of the reset they sent.
pub(super) fn describe_reset(mailed: &ResetMailed) -> String {
    let user = mailed.user.as_deref().unwrap_or("the user");
    match mailed.addresses.as_slice() {
        [] => format!(
            "No reset mail went to {user}: no confirmed address, a closed account, or its \
             resets this hour were used up.\n"
        ),
        addresses => format!(
            "A password reset mail went to {user} at {}.\n",
            addresses.join(", ")
        ),
    }
}
