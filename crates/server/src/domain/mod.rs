//! The rules of the service: games and their life, accounts and their throttles, ratings and
//! standings, seeks, featured games and computer players. Domain services read and write through
//! [`crate::store`] and announce changes through [`crate::events`]; they never name a door.

pub mod accounts;
pub mod admin;
pub mod analysis;
pub mod bots;
pub mod clock;
pub mod explorer;
pub mod games;
pub mod gate;
pub mod health;
pub mod leader;
pub mod listings;
pub mod messages;
pub mod moderation;
pub mod online;
pub mod outbox;
pub(crate) mod printable;
pub mod profiles;
mod publish;
pub mod ratings;
pub mod seeks;
pub mod standings;
pub(crate) mod throttle;
pub mod tournaments;
pub mod tv;
