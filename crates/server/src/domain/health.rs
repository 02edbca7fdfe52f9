//! Whether this node can serve (`GET /readyz`: the database answers, its migrations are all
//! applied, and on a shared PostgreSQL this node's event listener listens), and the gauges an
//! operator's scrape reads from the database (games in play, mail waiting to be sent).

use std::time::Duration;

use crate::error::{Error, Result};
use crate::events::Hub;
use crate::metrics::metrics;
use crate::store::{self, Storage};

/// A database that has not answered within this long is taken as away.
const DATABASE_WAIT: Duration = Duration::from_secs(2);

/// Whether this node can serve, and the gauges read from its database.
#[derive(Clone)]
pub struct Health {
    storage: Storage,
    hub: Hub,
}

impl Health {
    pub fn new(storage: Storage, hub: Hub) -> Health {
        Health { storage, hub }
    }

    /// Why a node is not ready, in words; Ok when it is.
    pub async fn readiness(&self) -> std::result::Result<(), String> {
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
        match self.hub.listener_away() {
            true => Err("this node's event listener is reconnecting".into()),
            false => Ok(()),
        }
    }

    /// Sets the gauges read from the database, before a scrape renders them.
    pub async fn read_gauges(&self) -> Result<()> {
        let read = async {
            let mut conn = self.storage.read().await?;
            let in_play = store::games_in_play(&mut conn).await?;
            let outbox = store::mail::outbox_waiting(&mut conn).await?;
            let analysis = store::analysis_jobs_waiting(&mut conn).await?;
            Ok::<_, Error>((in_play, outbox, analysis))
        };
        let (in_play, outbox, analysis) = tokio::time::timeout(DATABASE_WAIT, read)
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
        Ok(())
    }
}
