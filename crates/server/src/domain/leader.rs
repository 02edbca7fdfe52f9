//! Whether this node runs the singletons (computer players, the deadline sweeper): always on
//! SQLite; on PostgreSQL while it holds the leader lock ([`crate::cluster`]).

use tokio::sync::watch;

/// Whether this node runs the singletons: always on SQLite; on PostgreSQL while it holds the
/// leader lock.
#[derive(Clone)]
pub struct Leader(watch::Receiver<bool>);

impl Leader {
    /// A node that leads for good (the one node of a SQLite database).
    pub fn always() -> Leader {
        Leader(watch::channel(true).1)
    }

    /// A node that leads while the election (`crate::cluster::elect`) says so.
    pub fn following(leads: watch::Receiver<bool>) -> Leader {
        Leader(leads)
    }

    pub fn leads(&self) -> bool {
        *self.0.borrow()
    }

    /// Waits until this node leads (returns false if the election stopped).
    pub async fn until_leading(&mut self) -> bool {
        self.0.wait_for(|leads| *leads).await.is_ok()
    }

    /// Waits until this node stops leading (forever once the election is over: SQLite's node
    /// leads for good).
    pub async fn until_following(&mut self) {
        if self.0.wait_for(|leads| !*leads).await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}
