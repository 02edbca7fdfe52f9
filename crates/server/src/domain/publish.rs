//! Committing a change and publishing what it did, the way the [`Publisher`] chosen at start
//! says: as notices inside the transaction, or to this node's hub after it.

use crate::error::Result;
use crate::events::Publisher;
use crate::metrics::metrics;
use crate::model::{Event, EventKind, Revocation};
use crate::store::{self, Storage, WriteTx};

/// Commits `tx` and publishes `events`, in order; nothing is published unless the commit is.
/// The committing node counts them in its metrics (once, whichever nodes hear them).
pub async fn commit_events(
    publisher: &Publisher,
    tx: WriteTx,
    events: Vec<Event>,
    now_ms: i64,
) -> Result<()> {
    let counted: Vec<(String, i64, bool, bool)> = events
        .iter()
        .map(|event| {
            let moves = match &event.kind {
                EventKind::Moves { moves } => moves.len() as i64,
                _ => 0,
            };
            let started = matches!(event.kind, EventKind::Started);
            let ended = matches!(event.kind, EventKind::Ended);
            (event.game.game.clone(), moves, started, ended)
        })
        .collect();
    commit_and_publish(publisher, tx, events, now_ms).await?;
    let metrics = metrics();
    for (kind, moves, started, ended) in counted {
        let kind = [kind.as_str()];
        metrics.moves.with_label_values(&kind).inc_by(moves as u64);
        if started {
            metrics.games_started.with_label_values(&kind).inc();
        }
        if ended {
            metrics.games_finished.with_label_values(&kind).inc();
        }
    }
    Ok(())
}

async fn commit_and_publish(
    publisher: &Publisher,
    mut tx: WriteTx,
    events: Vec<Event>,
    now_ms: i64,
) -> Result<()> {
    match publisher {
        Publisher::Notices(_) => {
            for event in &events {
                store::notices::send_event(&mut tx, event, now_ms).await?;
            }
            tx.commit().await
        }
        Publisher::Local(hub) => {
            tx.commit().await?;
            for event in events {
                hub.publish(event);
            }
            Ok(())
        }
    }
}

/// Commits `tx`, in which `name` started or stopped following `board`, and tells the hubs.
pub async fn commit_subscription(
    publisher: &Publisher,
    mut tx: WriteTx,
    board: i64,
    name: &str,
    on: bool,
) -> Result<()> {
    match publisher {
        // Every node's hub learns it from the notice, this one's included.
        Publisher::Notices(_) => {
            store::notices::send_subscription(&mut tx, board, name, on).await?;
            tx.commit().await
        }
        Publisher::Local(hub) => {
            tx.commit().await?;
            hub.set_subscription(board, name, on);
            Ok(())
        }
    }
}

/// Commits `tx`, which ended sessions, and tells the sockets: every node's, where they share
/// a database, through a notice sent at commit.
pub async fn commit_revocation(
    publisher: &Publisher,
    mut tx: WriteTx,
    revocation: Revocation,
) -> Result<()> {
    match publisher {
        Publisher::Notices(_) => {
            store::notices::send_revocation(&mut tx, &revocation).await?;
            tx.commit().await
        }
        Publisher::Local(hub) => {
            tx.commit().await?;
            hub.revoke(revocation);
            Ok(())
        }
    }
}

/// Sends a lobby message (a JSON text) to the lobby pages, of every node where they share a
/// database. Sent after its change committed: a node dying in between loses the message, not
/// the change (lobby pages reload the list).
pub async fn lobby(publisher: &Publisher, storage: &Storage, json: String) {
    match publisher {
        Publisher::Local(hub) => hub.publish_lobby(json),
        Publisher::Notices(_) => {
            if let Err(err) = store::notices::send_lobby(storage, &json).await {
                tracing::warn!(%err, "announcing to the other nodes' lobbies");
            }
        }
    }
}
