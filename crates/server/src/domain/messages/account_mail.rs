//! The account rules that only make sense with mail: `message` and `broadcast` (who may, to how
//! many, how often), the events that mail a user, and confirmed addresses: a signup's addresses
//! and a `change address` wait for the token mailed to them, so that no mail goes to an address
//! its owner did not confirm.

use std::net::IpAddr;

use rand::Rng;

use super::{Messages, HOUR_MS};
use crate::domain::accounts::Accounts;
use crate::domain::outbox::{queue, Outgoing, Sender};
use crate::error::{Error, Result};
use crate::store::mail as mail_store;

/// The events a user can take or refuse by mail.
pub const EVENTS: [&str; 6] = ["challenge", "move", "chat", "nag", "end", "message"];
/// Users one `message` may name.
pub const MESSAGE_RECIPIENTS_MAX: usize = 10;
/// Mails a user's messages may queue in an hour (broadcasts, by admins, aside).
pub const MESSAGES_PER_SENDER_PER_HOUR: i64 = 30;
/// Messages one address takes in an hour, from all senders together.
pub const MESSAGES_PER_ADDRESS_PER_HOUR: i64 = 10;
/// Confirmation mails (signup, `change address`) one address takes in an hour.
pub const CONFIRMATIONS_PER_ADDRESS_PER_HOUR: i64 = 3;

/// A message queued: its Subject, to whom, how many mails (one per address of those who take
/// messages), and how many addresses were held back (they had their share of messages this
/// hour).
pub struct MessageSent {
    pub subject: String,
    pub recipients: Vec<String>,
    pub queued: usize,
    pub held_back: usize,
}

/// Why addresses are to be confirmed: a new account, or a `change address`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Confirming {
    Signup,
    Change,
}

/// A confirmed address change: the account, its addresses now, and whether it had none before
/// (the first confirmation of an account made by mail is its welcome).
pub struct AddressConfirmed {
    pub user: String,
    pub addresses: Vec<String>,
    pub first: bool,
}

impl Messages {
    /// Mails `body` from `user` to the users `to`, or to everyone (`broadcast`, admins only).
    pub async fn message(
        &self,
        user: &str,
        to: Option<&[String]>,
        body: Option<&str>,
    ) -> Result<MessageSent> {
        let outbox = self.mailing("it sends no messages")?;
        let body = body.map(str::trim).unwrap_or_default();
        if body.is_empty() {
            return Err(Error::Command(
                "a message needs a body: the text of the mail".into(),
            ));
        }
        let subject = match to {
            Some(_) => format!("message from {user}"),
            None if outbox.may_broadcast(user) => format!("broadcast from {user}"),
            None => {
                return Err(Error::Command(format!(
                    "{user} may not broadcast: only the server's admins (serve --admin) may"
                )))
            }
        };
        // Messages come from players one can write back to: an account without a confirmed
        // address (a signup with someone else's) sends none.
        if self.addresses_of(user).await?.is_none_or(|a| a.is_empty()) {
            return Err(Error::Command(format!(
                "{user} has no confirmed address yet: answer the confirmation mail first"
            )));
        }
        let to = to.map(distinct_recipients).transpose()?;
        let now = self.clock.now_ms();
        let sent_before = self
            .sent_with_subject_since("message", &subject, now - HOUR_MS)
            .await?;
        let asked = to.as_ref().map_or(0, Vec::len) as i64;
        if to.is_some() && sent_before + asked > MESSAGES_PER_SENDER_PER_HOUR {
            return Err(Error::Command(format!(
                "{user} has sent {sent_before} messages this hour; at most \
                 {MESSAGES_PER_SENDER_PER_HOUR} go out an hour: try again later"
            )));
        }
        let mail = Outgoing {
            kind: "message".into(),
            subject,
            body: format!("{user} writes:\n\n{body}\n"),
            ..Default::default()
        };
        let sender = outbox.sender(now);
        let sent = self.queue_message(&sender, to.as_deref(), &mail).await?;
        outbox.ring();
        Ok(sent)
    }

    /// Queues a message to the named users (each must exist), or, with None, to everyone who
    /// takes messages. An address that had [`MESSAGES_PER_ADDRESS_PER_HOUR`] messages in the
    /// last hour gets none.
    async fn queue_message(
        &self,
        sender: &Sender<'_>,
        to: Option<&[String]>,
        mail: &Outgoing,
    ) -> Result<MessageSent> {
        let mut tx = self.storage.write().await?;
        let recipients = match to {
            Some(names) => {
                for name in names {
                    if mail_store::mail_settings(&mut tx, name).await?.is_none() {
                        return Err(Error::UnknownUser(name.clone()));
                    }
                }
                names.to_vec()
            }
            None => mail_store::all_recipients(&mut tx, "message")
                .await?
                .into_iter()
                .map(|(name, _)| name)
                .collect(),
        };
        let (mut queued, mut held_back) = (0, 0);
        let since = sender.now_ms - HOUR_MS;
        for name in &recipients {
            let Some((addresses, events)) = mail_store::mail_settings(&mut tx, name).await? else {
                continue;
            };
            if !events.iter().any(|e| e == "message") {
                continue;
            }
            for address in addresses {
                let had =
                    mail_store::outbox_count_since(&mut tx, &address, "message", since).await?;
                if had >= MESSAGES_PER_ADDRESS_PER_HOUR {
                    held_back += 1;
                    continue;
                }
                queued += queue(&mut tx, sender, &[address], mail).await?;
            }
        }
        tx.commit().await?;
        Ok(MessageSent {
            subject: mail.subject.clone(),
            recipients,
            queued,
            held_back,
        })
    }

    /// Sets which events mail `user`: names from [`EVENTS`], or `all`, or `none`; returns the
    /// events chosen, in [`EVENTS`] order.
    pub async fn set_events(&self, user: &str, events: &[String]) -> Result<Vec<&'static str>> {
        let chosen: Vec<&str> = match events {
            [one] if one == "all" => EVENTS.to_vec(),
            [one] if one == "none" => vec![],
            _ => {
                if let Some(unknown) = events.iter().find(|e| !EVENTS.contains(&e.as_str())) {
                    return Err(Error::Command(format!(
                        "unknown mail event {unknown:?}; events: {}, or all, or none",
                        EVENTS.join(", ")
                    )));
                }
                EVENTS
                    .iter()
                    .copied()
                    .filter(|e| events.iter().any(|c| c == e))
                    .collect()
            }
        };
        let mut tx = self.storage.write().await?;
        mail_store::set_mail_events(&mut tx, user, &chosen.join(" ")).await?;
        tx.commit().await?;
        Ok(chosen)
    }

    /// `signup` with mail: the account is made without addresses; the ones given wait for the
    /// token mailed to them. Returns the account's name.
    pub async fn signup(
        &self,
        accounts: &Accounts,
        userid: &str,
        password: &str,
        addresses: &[String],
        peer: Option<IpAddr>,
    ) -> Result<String> {
        self.check_new_addresses(addresses).await?;
        let user = accounts.signup(userid, password, &[], peer).await?;
        self.request_address_change(&user.name, addresses, Confirming::Signup)
            .await?;
        Ok(user.name)
    }

    /// Refuses before anything is written an address that is none, or that had its
    /// confirmation mails this hour.
    async fn check_new_addresses(&self, addresses: &[String]) -> Result<()> {
        for address in addresses {
            check_address(address)?;
        }
        let since = self.clock.now_ms() - HOUR_MS;
        for address in addresses {
            let had = self.sent_since(address, "confirm", since).await?;
            if had >= CONFIRMATIONS_PER_ADDRESS_PER_HOUR {
                return Err(Error::Command(format!(
                    "{address} had {had} confirmation mails this hour; try again later"
                )));
            }
        }
        Ok(())
    }

    /// `change address` with mail (and a signup's addresses): the new addresses wait for the
    /// token mailed to them.
    pub async fn request_address_change(
        &self,
        user: &str,
        addresses: &[String],
        why: Confirming,
    ) -> Result<()> {
        let outbox = self.mailing("addresses cannot be confirmed")?;
        self.check_new_addresses(addresses).await?;
        let token: String = {
            let mut rng = rand::rng();
            (0..16)
                .map(|_| char::from_digit(rng.random_range(0..16), 16).expect("a hex digit"))
                .collect()
        };
        let asked = match why {
            Confirming::Signup => {
                format!("signed up as {user} on this ataxx server with this address")
            }
            Confirming::Change => format!(
                "asked for {user}'s ataxx mail to go to {}",
                addresses.join(", ")
            ),
        };
        let confirmation = Outgoing {
            kind: "confirm".into(),
            subject: format!("confirm address {user} {token}"),
            body: format!(
                "Someone, you we hope, {asked}.\n\n\
                 To confirm, reply to this mail keeping its Subject, or send a mail with the \
                 Subject:\n\n    confirm address {user} {token}\n\n\
                 No other mail comes to this address until then. If it was not you, ignore this \
                 mail; nothing changes.\n"
            ),
            ..Default::default()
        };
        let sender = outbox.sender(self.clock.now_ms());
        let mut tx = self.storage.write().await?;
        mail_store::set_pending_addresses(&mut tx, user, &addresses.join(" "), &token).await?;
        queue(&mut tx, &sender, addresses, &confirmation).await?;
        tx.commit().await?;
        outbox.ring();
        Ok(())
    }

    /// `confirm address <userid> <token>`: makes the addresses waiting for `token` the
    /// account's.
    pub async fn confirm_address(&self, user: &str, token: &str) -> Result<AddressConfirmed> {
        let user = user.to_ascii_lowercase();
        let had_addresses = self
            .addresses_of(&user)
            .await?
            .is_some_and(|a| !a.is_empty());
        let mut tx = self.storage.write().await?;
        let Some(addresses) = mail_store::take_pending_addresses(&mut tx, &user, token).await?
        else {
            return Err(Error::Command(format!(
                "no address change of {user} waits for that token"
            )));
        };
        tx.commit().await?;
        Ok(AddressConfirmed {
            addresses: addresses.split_whitespace().map(str::to_string).collect(),
            first: !had_addresses,
            user,
        })
    }
}

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

/// Checks a mail address before anything is mailed to it: `local@domain`, printable ASCII
/// without spaces, quotes, brackets or separators (nothing that could end a header line or
/// add a recipient), at most 254 bytes.
pub fn check_address(address: &str) -> Result<()> {
    let bad = |why: &str| {
        Err(Error::Command(format!(
            "{address:?} is not a mail address: {why}"
        )))
    };
    let Some((local, domain)) = address.split_once('@') else {
        return bad("it has no @");
    };
    if address.len() > 254 || local.is_empty() || domain.is_empty() || domain.contains('@') {
        return bad("give one local@domain of at most 254 bytes");
    }
    let allowed = |c: char| {
        c.is_ascii_graphic()
            && !matches!(
                c,
                '<' | '>' | '"' | '(' | ')' | ',' | ';' | ':' | '\\' | '[' | ']'
            )
    };
    if !address.chars().all(allowed) || domain.starts_with('.') || domain.ends_with('.') {
        return bad("only letters, digits and .-_+ and the like, no spaces or brackets");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_one_local_at_domain_that_cannot_add_a_header() {
        assert!(check_address("alice@example.org").is_ok());
        assert!(check_address("x@example.org\r\nBcc: hidden@example.org").is_err());
        assert!(check_address("a@b@c").is_err());
    }

    #[test]
    fn a_message_names_each_user_once_and_at_most_ten() {
        let names = |list: &[&str]| list.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        assert_eq!(
            distinct_recipients(&names(&["Bob", "bob", "carol"])).unwrap(),
            names(&["bob", "carol"])
        );
        let eleven: Vec<String> = (0..11).map(|i| format!("user{i}")).collect();
        assert!(distinct_recipients(&eleven).is_err());
    }
}
