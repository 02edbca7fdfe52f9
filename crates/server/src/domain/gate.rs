//! A bound on expensive work that anyone can ask for: argon2 (19 MiB and tens of milliseconds
//! per password checked, asked for by every login, right or wrong) and engine searches (a
//! 16 MiB table and half a second of a core per `/api/analysis`).
//!
//! Without a bound, 200 concurrent logins with made-up userids ran 200 argon2 at once and took
//! the server to 15.6 GB. A [`Gate`] lets `running` jobs run at once on blocking threads and
//! `waiting` more wait their turn; a request beyond those is refused at once with
//! [`Error::Busy`], which costs nothing.

use std::sync::Arc;

use tokio::sync::Semaphore;

use crate::error::{Error, Result};

/// How long a refused client is told to wait.
const RETRY_AFTER_S: u64 = 1;

/// At most `running` jobs at once, at most `waiting` more queued; the rest refused.
#[derive(Clone)]
pub struct Gate {
    /// What the jobs are, for the refusal ("password checks", "analyses").
    what: &'static str,
    admitted: Arc<Semaphore>,
    running: Arc<Semaphore>,
}

impl Gate {
    pub fn new(what: &'static str, running: usize, waiting: usize) -> Gate {
        let running = running.max(1);
        Gate {
            what,
            admitted: Arc::new(Semaphore::new(running + waiting)),
            running: Arc::new(Semaphore::new(running)),
        }
    }

    /// A gate with one running place per `cores_per_job` cores (at least one), and
    /// `waiting_per_running` waiting places for each.
    pub fn by_cores(what: &'static str, cores_per_job: usize, waiting_per_running: usize) -> Gate {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let running = (cores / cores_per_job.max(1)).max(1);
        Gate::new(what, running, running * waiting_per_running)
    }

    /// Runs `job` on a blocking thread once a place is free; refuses at once when the queue is
    /// full.
    pub async fn run<T: Send + 'static>(
        &self,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T> {
        let _admitted = self.admitted.try_acquire().map_err(|_| Error::Busy {
            what: self.what,
            retry_after_s: RETRY_AFTER_S,
        })?;
        let _running = self
            .running
            .acquire()
            .await
            .expect("the gate's semaphore is never closed");
        tokio::task::spawn_blocking(job)
            .await
            .map_err(|err| Error::Internal(format!("{} failed: {err}", self.what)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn a_full_gate_refuses_at_once_and_admits_again_when_a_place_frees() {
        let gate = Gate::new("tests", 1, 1);
        let slow = || std::thread::sleep(Duration::from_millis(300));
        let (first, second) = (gate.clone(), gate.clone());
        let running = tokio::spawn(async move { first.run(slow).await });
        tokio::time::sleep(Duration::from_millis(50)).await;
        let waiting = tokio::spawn(async move { second.run(slow).await });
        tokio::time::sleep(Duration::from_millis(50)).await;
        let refused = gate.run(|| ()).await;
        assert!(matches!(refused, Err(Error::Busy { .. })), "{refused:?}");
        running.await.unwrap().unwrap();
        waiting.await.unwrap().unwrap();
        gate.run(|| ()).await.unwrap();
    }
}
