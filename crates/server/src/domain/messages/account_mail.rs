//! The account rules that only make sense with mail: `message` and `broadcast` (who may, to how
//! many, how often), the events that mail a user, and confirmed addresses: each address of a
//! signup or a `change address` waits for a token mailed to it alone, so that no mail goes to an
//! address its owner did not confirm (issue #50: one token once confirmed a whole list).

use std::net::IpAddr;

use rand::Rng;

use super::{Messages, HOUR_MS};
use crate::domain::accounts::{address_list, hex, token_hash, Accounts};
use crate::domain::outbox::{queue, Outgoing, Sender};
use crate::error::{Error, Result};
use crate::store::{self, mail as mail_store};

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
/// How long an address's confirmation token is good for: a week (mail can be slow).
pub const CONFIRMATION_MS: i64 = 7 * 24 * HOUR_MS;

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
        // Counted in mails, one per address: a user may list several.
        let budget = to
            .is_some()
            .then_some(MESSAGES_PER_SENDER_PER_HOUR - sent_before);
        let mail = Outgoing {
            kind: "message".into(),
            subject,
            body: format!("{user} writes:\n\n{body}\n"),
            ..Default::default()
        };
        let sender = outbox.sender(now);
        let sent = self
            .queue_message(&sender, to.as_deref(), budget, &mail)
            .await?;
        outbox.ring();
        Ok(sent)
    }

    /// Queues a message to the named users (each must exist), or, with None, to everyone who
    /// takes messages. An address that had [`MESSAGES_PER_ADDRESS_PER_HOUR`] messages in the
    /// last hour gets none. Refused whole when it would queue more than `budget` mails.
    async fn queue_message(
        &self,
        sender: &Sender<'_>,
        to: Option<&[String]>,
        budget: Option<i64>,
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
        let (mut addresses, mut held_back) = (vec![], 0);
        let since = sender.now_ms - HOUR_MS;
        for name in &recipients {
            let Some((listed, events)) = mail_store::mail_settings(&mut tx, name).await? else {
                continue;
            };
            if !events.iter().any(|e| e == "message") {
                continue;
            }
            for address in listed {
                let had =
                    mail_store::outbox_count_since(&mut tx, &address, "message", since).await?;
                match had >= MESSAGES_PER_ADDRESS_PER_HOUR {
                    true => held_back += 1,
                    false => addresses.push(address),
                }
            }
        }
        if let Some(budget) = budget.filter(|&b| addresses.len() as i64 > b) {
            return Err(Error::Command(format!(
                "this message would go to {} addresses, and at most {MESSAGES_PER_SENDER_PER_HOUR} \
                 messages go out an hour ({} left this hour): try again later, or to fewer users",
                addresses.len(),
                budget.max(0)
            )));
        }
        let queued = queue(&mut tx, sender, &addresses, mail).await?;
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

    /// `signup` with mail: the account is made without addresses; each one given waits for the
    /// token mailed to it. Returns the account's name.
    pub async fn signup(
        &self,
        accounts: &Accounts,
        userid: &str,
        password: &str,
        addresses: &[String],
        peer: Option<IpAddr>,
    ) -> Result<String> {
        self.check_new_addresses(&address_list(addresses)?).await?;
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

    /// `change address` with mail (and a signup's addresses): the account's mail is to go to
    /// `addresses`. Each one the account does not have yet waits for a token of its own, mailed
    /// to it alone; one it has is kept, and one it has that is not listed stops taking mail at
    /// once (unless none is kept: then the old ones take the mail until a new one is
    /// confirmed). Returns the addresses mailed.
    pub async fn request_address_change(
        &self,
        user: &str,
        addresses: &[String],
        why: Confirming,
    ) -> Result<Vec<String>> {
        let outbox = self.mailing("addresses cannot be confirmed")?;
        let addresses = address_list(addresses)?;
        let current = self.addresses_of(user).await?.unwrap_or_default();
        let has = |address: &str| current.iter().any(|a| a.eq_ignore_ascii_case(address));
        let (kept, new): (Vec<String>, Vec<String>) =
            addresses.iter().cloned().partition(|a| has(a));
        self.check_new_addresses(&new).await?;
        let tokens: Vec<String> = new
            .iter()
            .map(|_| hex(&rand::rng().random::<[u8; 16]>()))
            .collect();
        let digests = new
            .iter()
            .zip(&tokens)
            .map(|(a, t)| (a.clone(), token_hash(t)));
        let requested: Vec<(String, String)> = kept
            .iter()
            .map(|a| (a.clone(), String::new()))
            .chain(digests)
            .collect();
        let now = self.clock.now_ms();
        let sender = outbox.sender(now);
        let mut tx = self.storage.write().await?;
        mail_store::replace_address_request(&mut tx, user, &requested, now).await?;
        if !kept.is_empty() && kept.len() < current.len() {
            store::set_addresses(&mut tx, user, &kept.join(" ")).await?;
        }
        for (address, token) in new.iter().zip(&tokens) {
            queue(
                &mut tx,
                &sender,
                std::slice::from_ref(address),
                &confirmation(user, token, why),
            )
            .await?;
        }
        tx.commit().await?;
        outbox.ring();
        Ok(new)
    }

    /// `confirm address <userid> <token>`: the one address that waits for `token` becomes the
    /// account's, beside the others of the same request already confirmed (the first one
    /// confirmed replaces the addresses the request did not keep).
    pub async fn confirm_address(&self, user: &str, token: &str) -> Result<AddressConfirmed> {
        let user = user.to_ascii_lowercase();
        let since = self.clock.now_ms() - CONFIRMATION_MS;
        let mut tx = self.storage.write().await?;
        let Some(address) =
            mail_store::confirm_requested_address(&mut tx, &user, &token_hash(token), since)
                .await?
        else {
            return Err(Error::Command(format!(
                "no address of {user} waits for that token (a token confirms one address, for \
                 {} days)",
                CONFIRMATION_MS / (24 * HOUR_MS)
            )));
        };
        let requested = mail_store::requested_addresses(&mut tx, &user).await?;
        let current = mail_store::mail_settings(&mut tx, &user)
            .await?
            .map(|(addresses, _)| addresses)
            .unwrap_or_default();
        let first = current.is_empty();
        let mut addresses = match current.iter().all(|a| requested.contains(a)) {
            true => current,
            false => vec![],
        };
        if !addresses.contains(&address) {
            addresses.push(address);
        }
        store::set_addresses(&mut tx, &user, &addresses.join(" ")).await?;
        tx.commit().await?;
        Ok(AddressConfirmed {
            addresses,
            first,
            user,
        })
    }
}

/// The mail that carries the token of one address: it names no other address of the request.
fn confirmation(user: &str, token: &str, why: Confirming) -> Outgoing {
    let asked = match why {
        Confirming::Signup => format!("signed up as {user} on this ataxx server with this address"),
        Confirming::Change => format!("asked for {user}'s ataxx mail to go to this address"),
    };
    Outgoing {
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
