//! `ataxx levels`: the named difficulty levels.

use ataxx_players::LEVELS;
use clap::Args as ClapArgs;

#[derive(ClapArgs)]
pub struct Args {}

pub fn run(_: Args) -> anyhow::Result<()> {
    let width = LEVELS
        .iter()
        .map(|l| l.strength.to_string().len())
        .max()
        .unwrap_or(0);
    println!("{:<10}  {:<width$}  what it does", "level", "player");
    for level in &LEVELS {
        let player = level.strength.to_string();
        println!(
            "{:<10}  {player:<width$}  {}",
            level.name, level.description
        );
    }
    Ok(())
}
