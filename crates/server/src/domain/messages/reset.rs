//! Password resets by mail (issue #49): the reset mail, asked for by anyone (`reset
//! <userid|address>`) or sent by an admin. The rules (tokens, throttles, revocation) are
//! [`crate::domain::accounts`]'s; this file writes the mail and rings the outbox.

use super::Messages;
use crate::domain::accounts::{Accounts, ResetMailed};
use crate::domain::admin::Admin;
use crate::domain::outbox::Outgoing;
use crate::error::Result;

/// The answer to every reset request, whatever became of it.
pub const RESET_REQUESTED: &str =
    "If that account has a confirmed address, a reset mail is on its way: its link (or token) \
     sets a new password within the hour.";

/// What a server without mail cannot do.
const NO_RESETS: &str = "it cannot reset passwords";

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

impl Messages {
    /// `reset <userid|address>` from anyone, through `accounts` (which counts the asking
    /// client): whatever the account, the caller learns nothing of it.
    pub async fn request_reset(&self, accounts: &Accounts, who: &str) -> Result<()> {
        let outbox = self.mailing(NO_RESETS)?;
        let sender = outbox.sender(self.clock.now_ms());
        let site = outbox.site_url();
        let compose = |user: &str, token: &str| compose(site, user, token);
        let mailed = accounts.request_reset(who, &sender, &compose).await?;
        if !mailed.addresses.is_empty() {
            outbox.ring();
        }
        Ok(())
    }

    /// An admin's `reset <user>`: mails the user a reset token, logged in the admin log.
    pub async fn send_reset(
        &self,
        admins: &Admin,
        admin: &str,
        user: &str,
        reason: &str,
    ) -> Result<ResetMailed> {
        let outbox = self.mailing(NO_RESETS)?;
        let sender = outbox.sender(self.clock.now_ms());
        let site = outbox.site_url();
        let compose = |user: &str, token: &str| compose(site, user, token);
        let mailed = admins
            .send_reset(admin, user, reason, &sender, &compose)
            .await?;
        if !mailed.addresses.is_empty() {
            outbox.ring();
        }
        Ok(mailed)
    }
}
