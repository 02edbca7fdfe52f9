//! The election of the node that runs the singletons: an advisory lock on a connection of its
//! own (see the module above).

use std::time::Duration;

use tokio::sync::watch;

use crate::domain::leader::Leader;
use crate::store::notices::{forget_old_bodies, LeaderConnection};
use crate::store::Storage;

/// How often a follower tries to become the leader, and the leader checks its connection.
pub const ELECTION_RETRY: Duration = Duration::from_secs(1);

/// How long the leader's check of its connection may take: a connection that does not answer
/// (its database host gone silent) may have lost the lock already.
pub const ALIVE_WITHIN: Duration = Duration::from_secs(5);

/// Starts the election of the node that runs the singletons, on a database several nodes
/// share.
pub fn elect(storage: &Storage) -> Leader {
    let (tell, leads) = watch::channel(false);
    tokio::spawn(campaign(storage.clone(), tell));
    Leader::following(leads)
}

/// Tries for the leader lock until the database closes; while leading, checks the connection
/// (and with it the lock) every [`ELECTION_RETRY`] and clears old event bodies.
async fn campaign(storage: Storage, tell: watch::Sender<bool>) {
    let url = storage.url().to_string();
    let mut ticks = 0u64;
    while !storage.is_closed() {
        let mut conn = match LeaderConnection::connect(&url).await {
            Ok(conn) => conn,
            Err(err) => {
                tracing::warn!(err = %crate::redact::scrub(&err.to_string(), &url), "leader election");
                tokio::time::sleep(ELECTION_RETRY).await;
                continue;
            }
        };
        // A failed try (the database restarted under this connection) means a new connection,
        // never the end of the campaign: a cluster whose followers gave up has no leader once
        // the leader dies.
        let won = loop {
            if storage.is_closed() {
                return;
            }
            match conn.try_lock().await {
                Ok(true) => break true,
                Ok(false) => tokio::time::sleep(ELECTION_RETRY).await,
                Err(err) => {
                    tracing::warn!(err = %crate::redact::scrub(&err.to_string(), &url), "leader election: reconnecting");
                    tokio::time::sleep(ELECTION_RETRY).await;
                    break false;
                }
            }
        };
        if !won {
            continue;
        }
        tracing::info!("this node leads (bots, deadline sweeper)");
        tell.send_replace(true);
        while !storage.is_closed() {
            tokio::time::sleep(ELECTION_RETRY).await;
            ticks += 1;
            let alive = tokio::time::timeout(ALIVE_WITHIN, conn.is_alive()).await;
            if alive != Ok(true) {
                break;
            }
            if ticks.is_multiple_of(10) {
                let _ = forget_old_bodies(&storage).await;
            }
        }
        tracing::warn!("this node no longer leads");
        tell.send_replace(false);
    }
}
