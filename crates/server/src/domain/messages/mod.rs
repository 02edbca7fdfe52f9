//! Mail as the service sees it ([`Messages`]): the inbox the mail door stores into and works
//! through, the sender's claims on queued mails, each board's mail cursor, and the rules of the
//! commands that only make sense with mail: confirmed addresses (a signup's, `change address`),
//! `message` and `broadcast` with their hourly limits, the events that mail a user, and password
//! resets by mail. Mails are queued through the port of [`crate::domain::outbox`], which the
//! accounts and the admins use too. The mail door composes board mails, parses and sends; every
//! write here is one transaction.

mod account_mail;
mod boards;
mod inbox;
mod reset;
mod sending;

use std::sync::Arc;

pub use account_mail::{Confirming, MESSAGES_PER_ADDRESS_PER_HOUR};
pub use boards::BoardMail;
pub use inbox::Stored;
pub use reset::RESET_REQUESTED;

use crate::domain::clock::Clock;
use crate::domain::outbox::Outbox;
use crate::error::{Error, Result};
use crate::store::Storage;

/// An hour, the window of every mail limit.
const HOUR_MS: i64 = 3600 * 1000;

/// The mail service: the inbox, the outbox and the account rules that mail, over one database.
/// A server that sends no mail has no [`Outbox`]; then the commands that mail are refused.
#[derive(Clone)]
pub struct Messages {
    storage: Storage,
    clock: Arc<Clock>,
    outbox: Option<Outbox>,
}

impl Messages {
    pub fn new(storage: Storage, clock: Arc<Clock>, outbox: Option<Outbox>) -> Messages {
        Messages {
            storage,
            clock,
            outbox,
        }
    }

    /// Whether the server sends mail, so that addresses wait for their confirmation.
    pub fn sends_mail(&self) -> bool {
        self.outbox.is_some()
    }

    /// The outbox, or `refusal` (what cannot be done without mail) for a server that sends none.
    fn mailing(&self, refusal: &str) -> Result<&Outbox> {
        self.outbox.as_ref().ok_or_else(|| {
            Error::Command(format!(
                "this server sends no mail, so {refusal} (start it with --relay or --sendmail)"
            ))
        })
    }
}
