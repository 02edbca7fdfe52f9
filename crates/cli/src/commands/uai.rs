//! `ataxx uai`: the engine speaking UAI on stdin/stdout.

use clap::Args as ClapArgs;
use engine::{eval::HandCrafted, search::Engine, uai};

#[derive(ClapArgs)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    let engine = Engine::new(HandCrafted::default(), uai::DEFAULT_HASH_MIB);
    uai::run(engine, std::io::stdin().lock(), std::io::stdout())?;
    Ok(())
}
