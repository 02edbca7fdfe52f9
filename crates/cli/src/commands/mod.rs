//! One module per subcommand: its clap `Args` and a `run` function.

pub mod blocks;
pub mod decode;
pub mod encode;
pub mod perft;
