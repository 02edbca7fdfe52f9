//! Password resets from every door (issue #49): `reset <userid|address>` asks for the mail,
//! `reset <token> <new password>` sets the password, and an admin's `reset` sends the mail. The
//! rules (tokens, throttles, revocation) are [`crate::domain::accounts`]'s; this file writes the
//! mail and the answers.

use serde_json::json;

use crate::domain::accounts::{Accounts, ResetMailed};
use crate::domain::messages::{Outbox, Outgoing};
use crate::doors::command::Reply;
use crate::error::{Error, Result};
use crate::App;

/// The answer to every reset request, whatever became of it.
pub const REQUESTED: &str =
    "If that account has a confirmed address, a reset mail is on its way: its link (or token) \
     sets a new password within the hour.";

/// The reset mail of `user` carrying `token`: the site's link when the server knows its public
/// URL (`serve --public-url`), and the command that does the same from any door.
fn compose(site: Option<&str>, user: &str, token: &str) -> Outgoing {
    let link = match site {
        Some(site) => format!(
            "To choose a new password, open this link within the hour:\n\n    {}/#/reset?token={token}\n\nor send",
            site.trim_end_matches('/')
        ),
        None => format!(
            "To choose a new password within the hour, enter this token on the site's \
             password reset page:\n\n    {token}\n\nor send"
        ),
    };
    Outgoing {
        subject: format!("password reset for {user}"),
        body: format!(
            "Someone, you we hope, asked to reset the password of {user} on this ataxx server.\n\n\
             {link} a mail (or a text-door line) with the Subject:\n\n    \
             reset {token} <new password>\n\n\
             The token works once. The new password signs {user} out everywhere. If it was not \
             you, ignore this mail: the password stays as it is.\n"
        ),
        ..Default::default()
    }
}

/// The outbox, or the refusal of a server that sends no mail.
fn outbox(app: &App) -> Result<&Outbox> {
    app.outbox.as_ref().ok_or_else(|| {
        Error::Command(
            "this server sends no mail, so it cannot reset passwords (start it with --relay or \
             --sendmail)"
                .into(),
        )
    })
}

/// `reset <userid|address>` from anyone: the same answer whatever the account.
pub async fn request(app: &App, accounts: &Accounts, who: &str) -> Result<Reply> {
    let outbox = outbox(app)?;
    let sender = outbox.sender(app.clock.now_ms());
    let site = outbox.site_url();
    let compose = |user: &str, token: &str| compose(site, user, token);
    let mailed = accounts.request_reset(who, &sender, &compose).await?;
    if !mailed.addresses.is_empty() {
        outbox.ring();
    }
    Ok(Reply::ok(
        "password reset asked for",
        format!("{REQUESTED}\n"),
        json!({"message": REQUESTED}),
    ))
}

/// `reset <token> <new password>`: sets the password; every session of the account ends.
pub async fn confirm(accounts: &Accounts, token: &str, password: &str) -> Result<Reply> {
    let user = accounts.reset_password(token, password).await?;
    Ok(Reply::ok(
        "password set",
        format!("The password of {user} is set; every session of {user} has ended.\n"),
        json!({"userid": user}),
    ))
}

/// An admin's `reset <user>`: mails the user a reset token, logged in the admin log.
pub async fn admin_send(app: &App, admin: &str, user: &str, reason: &str) -> Result<ResetMailed> {
    let outbox = outbox(app)?;
    let sender = outbox.sender(app.clock.now_ms());
    let site = outbox.site_url();
    let compose = |user: &str, token: &str| compose(site, user, token);
    let mailed = app
        .admin
        .send_reset(admin, user, reason, &sender, &compose)
        .await?;
    if !mailed.addresses.is_empty() {
        outbox.ring();
    }
    Ok(mailed)
}

/// What an admin is told of the reset they sent.
pub fn describe(mailed: &ResetMailed) -> String {
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
