//! One module per subcommand: its clap `Args` and a `run` function.

pub mod analyze;
pub mod backup;
pub mod bench;
pub mod blocks;
pub mod bot;
pub mod client;
pub mod datagen;
pub mod decode;
pub mod diagram;
pub mod encode;
pub mod levels;
pub mod loadtest;
pub mod mail;
pub mod r#match;
pub mod openings;
pub mod perft;
pub mod play;
pub mod play_variant;
pub mod replay;
pub mod serve;
pub mod stats;
pub mod tls;
pub mod train;
pub mod tune;
pub mod uai;
