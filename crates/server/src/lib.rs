//! The Ataxx game server: accounts, challenges, correspondence and live games, ratings, computer
//! players, and the doors people use: the pbmserv command language over a line-based TCP port
//! and `POST /api/command`, a JSON API with WebSocket events.
//!
//! The modules are rooms with one-way doors between them (docs/architecture.md), all private:
//! `server.rs` starts the doors, which call the services of `app.rs`; the doors translate
//! protocols into calls of the domain, which holds the rules of the service, reads and writes
//! through the store (the only place that knows SQL) and announces changes through the events;
//! the cluster lets several nodes share one PostgreSQL database. This face is what the `ataxx`
//! binary and its tests need: [`Server`] and its [`Config`] (with the settings it is made of),
//! the [`offline`] tools on a server's database, the [`fuzz`] targets' way in, and two helpers
//! of the doors' protocols ([`unframe`], [`listener_name`]).
//!
//! ```no_run
//! # async fn run() -> Result<(), ataxx_server::Error> {
//! let server = ataxx_server::Server::start(ataxx_server::Config::default()).await?;
//! println!("http {:?}, text {:?}", server.http_addr, server.text_addr);
//! server.shutdown().await;
//! # Ok(()) }
//! ```

mod app;
mod cluster;
mod domain;
mod doors;
mod error;
mod events;
pub mod fuzz;
mod metrics;
mod model;
pub mod offline;
mod redact;
mod server;
mod store;

pub(crate) use app::App;
pub use error::{Error, Result};
pub use server::{Config, Server};

// What a [`Config`] is made of.
pub use domain::accounts::RateLimits;
pub use domain::analysis::{LiveOptions, Options as AnalysisOptions};
pub use doors::http::{Limits as HttpLimits, Options as HttpOptions, Site, TrustedProxies};
pub use doors::mail::relay::Transport;
pub use doors::mail::MailConfig;
pub use doors::text_tls::TlsFiles;
pub use store::Durability;

// The doors' protocols as a client sees them.
pub use doors::text::unframe;
pub use store::notices::listener_name;
