//! The engine alone over UAI, as `ataxx uai` runs it, in a binary that builds in under a minute
//! (the `ataxx` binary links the server too): for quick A/B matches between engine builds.
//!
//!     cargo build --release -p ataxx-engine --example uai
//!     ataxx match -e "target/release/examples/uai" -e "/tmp/old/uai" --tc 1+0.01 ...

use engine::{net_eval::NetEval, search::Engine, uai};

fn main() -> std::io::Result<()> {
    let engine = Engine::new(NetEval::default(), uai::DEFAULT_HASH_MIB);
    uai::run(engine, std::io::stdin().lock(), std::io::stdout())
}
