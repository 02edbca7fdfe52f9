//! The Ataxx game server: accounts, challenges, correspondence and live games, ratings, computer
//! players, and the doors people use: the pbmserv command language over a line-based TCP port
//! and `POST /api/command`, a JSON API with WebSocket events.
//!
//! The modules are rooms with one-way doors between them (docs/architecture.md): `server.rs`
//! starts the [`doors`], which call the services of `app.rs` ([`App`]); the doors
//! translate protocols into calls of the [`domain`], which holds the rules of the service, reads
//! and writes through the [`store`] (the only place that knows SQL) and announces changes through
//! [`events`]; [`cluster`] lets several nodes share one PostgreSQL database.
//!
//! ```no_run
//! # async fn run() -> Result<(), ataxx_server::Error> {
//! let server = ataxx_server::Server::start(ataxx_server::Config::default()).await?;
//! println!("http {:?}, text {:?}", server.http_addr, server.text_addr);
//! server.shutdown().await;
//! # Ok(()) }
//! ```

mod app;
pub mod cluster;
pub mod domain;
pub mod doors;
mod error;
pub mod events;
pub mod fuzz;
pub mod metrics;
pub mod model;
pub mod redact;
mod server;
pub mod store;

pub use app::App;
pub use domain::accounts::{Accounts, RateLimits};
pub use domain::clock::{Clock, FixedClock};
pub use error::{Error, Result};
pub use server::{Config, Server};
