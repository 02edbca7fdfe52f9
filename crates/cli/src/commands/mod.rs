//! One module per subcommand: its clap `Args` and a `run` function.

pub mod blocks;
pub mod client;
pub mod decode;
pub mod encode;
pub mod levels;
pub mod loadtest;
pub mod perft;
pub mod serve;
pub mod stats;
