//! `ataxx levels`: the named difficulty levels.

use ataxx_players::LEVELS;
use clap::Args as ClapArgs;

#[derive(ClapArgs)]
pub struct Args {}

pub fn run(_: Args) -> anyhow::Result<()> {
    println!("{:<10}  {:<62}  what it does", "level", "player");
    for level in &LEVELS {
        println!(
            "{:<10}  {:<62}  {}",
            level.name,
            level.strength.to_string(),
            level.description
        );
    }
    Ok(())
}
