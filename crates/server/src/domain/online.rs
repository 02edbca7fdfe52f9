//! Who is online: the signed-in users whose lobby page sent a heartbeat within [`ONLINE_FOR_MS`].
//! The heartbeats are kept in the database, not in a node's memory, so that on a cluster every
//! node lists the same people whichever node each visitor's page reaches.

use std::sync::Arc;

use super::clock::Clock;
use crate::error::Result;
use crate::store::{self, Storage};

/// How long after its last heartbeat a user still counts as online (the lobby beats every 30 s).
pub const ONLINE_FOR_MS: i64 = 90_000;

#[derive(Clone)]
pub struct Online {
    storage: Storage,
    clock: Arc<Clock>,
}

impl Online {
    pub fn new(storage: Storage, clock: Arc<Clock>) -> Online {
        Online { storage, clock }
    }

    /// Records a heartbeat of `user`'s page (none for a visitor not signed in) and lists who is
    /// online now, by name.
    pub async fn beat(&self, user: Option<&str>) -> Result<Vec<String>> {
        let now = self.clock.now_ms();
        let since = now - ONLINE_FOR_MS;
        if let Some(user) = user {
            let mut tx = self.storage.write().await?;
            store::mark_seen(&mut tx, user, now).await?;
            store::forget_seen_before(&mut tx, since).await?;
            tx.commit().await?;
        }
        let mut conn = self.storage.read().await?;
        store::seen_since(&mut conn, since).await
    }
}
