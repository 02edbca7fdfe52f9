//! Whether this node's writes reach the database: every commit's outcome is recorded, so that
//! readiness can tell a node whose writes all fail (a full disk, a read-only file) from one
//! that serves.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::Storage;
use crate::error::Result;

/// When the last commit failed, until a commit succeeds.
#[derive(Clone, Default)]
pub(super) struct WriteHealth(Arc<Mutex<Option<Instant>>>);

impl WriteHealth {
    /// Records a commit's outcome.
    pub(super) fn record(&self, outcome: &Result<()>) {
        let mut failure = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        match outcome {
            Ok(()) => *failure = None,
            // A lost race between nodes is retried, not a sign of a broken database.
            Err(err) if super::retry::is_conflict(err) => {}
            Err(err) => {
                if failure.is_none() {
                    tracing::warn!(%err, "a commit failed: writes are failing");
                }
                *failure = Some(Instant::now());
            }
        }
    }

    fn since_failure(&self) -> Option<Duration> {
        let failure = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        failure.map(|at| at.elapsed())
    }
}

impl Storage {
    /// How long ago the last commit failed, while no commit has succeeded since.
    pub fn since_write_failure(&self) -> Option<Duration> {
        self.write_health.since_failure()
    }

    /// A commit that writes a row and nothing else (the newest migration's record, set to
    /// itself): whether small writes reach the database again (a move's may still not fit
    /// where this one does). Its outcome is recorded like any commit's.
    pub async fn probe_write(&self) -> Result<()> {
        let mut tx = self.write().await?;
        sqlx::query(
            "UPDATE _sqlx_migrations SET success = success \
             WHERE version = (SELECT MAX(version) FROM _sqlx_migrations)",
        )
        .execute(&mut *tx)
        .await?;
        tx.commit().await
    }
}
