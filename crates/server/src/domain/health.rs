//! Whether this node can serve (`GET /readyz`: the database answers, its migrations are all
//! applied, its writes go through, and on a shared PostgreSQL this node's event listener
//! listens), who leads the cluster, and the gauges an operator's scrape reads from the database
//! (games in play, mail waiting to be sent, whether any node leads).

use std::time::Duration;

use crate::domain::leader::Leader;
use crate::error::{Error, Result};
use crate::events::Hub;
use crate::metrics::metrics;
use crate::store::{self, Storage};

/// How long after the last failed commit readiness tries a write of its own.
const PROBE_AFTER: Duration = Duration::from_secs(10);

/// A database that has not answered within this long is taken as away.
const DATABASE_WAIT: Duration = Duration::from_secs(2);

/// Who runs the singletons (computer players, deadlines, tournaments, mail), as this node sees
/// it. A cluster with no leader still serves moves, so it stays ready: readiness names it and
/// the `ataxx_leader` gauge lets an operator's alert see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leadership {
    /// This node leads.
    Here,
    /// Another node holds the lock.
    Elsewhere,
    /// No node does.
    Nobody,
}

impl Leadership {
    /// The word `/readyz` answers.
    pub fn as_str(self) -> &'static str {
        match self {
            Leadership::Here => "this node",
            Leadership::Elsewhere => "another node",
            Leadership::Nobody => "none",
        }
    }
}

/// Whether this node can serve, who leads, and the gauges read from its database.
#[derive(Clone)]
pub struct Health {
    storage: Storage,
    hub: Hub,
    leader: Leader,
}

impl Health {
    pub fn new(storage: Storage, hub: Hub, leader: Leader) -> Health {
        Health {
            storage,
            hub,
            leader,
        }
    }

    /// Who leads: this node while it holds the lock (always on SQLite), else whether
    /// PostgreSQL shows the lock held by another.
    async fn leadership(&self) -> Result<Leadership> {
        if self.leader.leads() || !self.storage.is_shared() {
            return Ok(Leadership::Here);
        }
        Ok(match store::notices::leader_present(&self.storage).await? {
            true => Leadership::Elsewhere,
            false => Leadership::Nobody,
        })
    }

    /// Why a node is not ready, in words; who leads when it is.
    pub async fn readiness(&self) -> std::result::Result<Leadership, String> {
        let database = tokio::time::timeout(DATABASE_WAIT, async {
            let mut conn = self.storage.read().await?;
            store::migrations_done(&mut conn).await
        })
        .await;
        match database {
            Err(_) => {
                return Err(format!(
                    "the database did not answer within {DATABASE_WAIT:?}"
                ))
            }
            Ok(Err(err)) => return Err(format!("the database: {err}")),
            Ok(Ok(false)) => return Err("the database's migrations are not all applied".into()),
            Ok(Ok(true)) => {}
        }
        if let Some(since) = self.storage.since_write_failure() {
            // Ready again once a commit goes through. A node taken out of the rotation may get
            // no writes to find out by, so once the failures have stopped for a while a probe
            // write asks. The failure itself is logged, not shown: it may name the server's
            // files.
            let probed = since >= PROBE_AFTER
                && matches!(
                    tokio::time::timeout(DATABASE_WAIT, self.storage.probe_write()).await,
                    Ok(Ok(()))
                );
            if !probed {
                return Err("writes to the database fail".into());
            }
        }
        if self.hub.listener_away() {
            return Err("this node's event listener is reconnecting".into());
        }
        match tokio::time::timeout(DATABASE_WAIT, self.leadership()).await {
            Err(_) => Err(format!(
                "the database did not answer within {DATABASE_WAIT:?}"
            )),
            Ok(Err(err)) => Err(format!("the database: {err}")),
            Ok(Ok(leadership)) => Ok(leadership),
        }
    }

    /// Sets the gauges read from the database, before a scrape renders them.
    pub async fn read_gauges(&self) -> Result<()> {
        let read = async {
            let mut conn = self.storage.read().await?;
            let in_play = store::games_in_play(&mut conn).await?;
            let outbox = store::mail::outbox_waiting(&mut conn).await?;
            let analysis = store::analysis_jobs_waiting(&mut conn).await?;
            drop(conn);
            let leadership = self.leadership().await?;
            Ok::<_, Error>((in_play, outbox, analysis, leadership))
        };
        let (in_play, outbox, analysis, leadership) = tokio::time::timeout(DATABASE_WAIT, read)
            .await
            .map_err(|_| Error::Command("the database did not answer".into()))??;
        let metrics = metrics();
        metrics.active_games.set(in_play);
        metrics
            .queue_length
            .with_label_values(&["outbox"])
            .set(outbox);
        metrics
            .queue_length
            .with_label_values(&["analysis"])
            .set(analysis);
        metrics
            .leader
            .with_label_values(&["this"])
            .set(i64::from(leadership == Leadership::Here));
        metrics
            .leader
            .with_label_values(&["any"])
            .set(i64::from(leadership != Leadership::Nobody));
        Ok(())
    }
}
