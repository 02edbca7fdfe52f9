//! The CLI's end-to-end tests of `ataxx serve`, one binary: a module per subject, each test
//! with real server processes driven through real sockets (the text door, HTTP, WebSocket,
//! SMTP, the mail pipe). The helpers are [`common`], compiled once.
//!
//! The tests run in parallel on the harness's threads, so each owns what it touches: its own
//! temporary folder and database (a PostgreSQL database named after that folder when
//! `ATAXX_TEST_POSTGRES` is set, see [`common::database`]), servers on ports the system picks,
//! and no process-wide state (no environment variable or working directory is changed).
//! `scripts/test.sh` runs `server::`, `cluster::` and `durability::` once more on PostgreSQL.

mod common;

mod admin;
mod analysis;
mod bot;
mod bot_overhead;
mod cluster;
mod comfort;
mod credentials;
mod durability;
mod explorer;
mod hardening;
mod league;
mod live_analysis;
mod mail;
mod mail_abuse;
mod move_cost;
mod open_internet;
mod operations;
mod postfix;
mod seeks;
mod server;
mod site;
mod tournaments;
mod tournaments_by_mail;
mod tv;
mod variants;
