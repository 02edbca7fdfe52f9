//! Where a change's events go, chosen once at start ([`crate::Server::start`]), so that no
//! service asks how the server is deployed.

use super::Hub;

/// How events leave a committed change.
#[derive(Clone)]
pub enum Publisher {
    /// One node: the change's events go to this node's hub once it is committed.
    Local(Hub),
    /// Nodes sharing one PostgreSQL database: the events are written as notices inside the
    /// change's own transaction; the database delivers them at commit, in commit order, to every
    /// node's listener ([`crate::cluster`]), which hands them to its hub, this node's included.
    Notices(Hub),
}

impl Publisher {
    /// This node's hub: its listeners, and the subscriptions it knows.
    pub fn hub(&self) -> &Hub {
        match self {
            Publisher::Local(hub) | Publisher::Notices(hub) => hub,
        }
    }
}
