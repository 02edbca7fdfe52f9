//! `ataxx levels [--variant V]`: the named difficulty levels of a game.

use ataxx_players::generic::variant_levels;
use ataxx_players::LEVELS;
use clap::Args as ClapArgs;
use games::GameKind;

#[derive(ClapArgs)]
pub struct Args {
    /// The game: ataxx (default), hexxagon or ataxx4.
    #[arg(long, default_value = "ataxx")]
    variant: GameKind,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let rows: Vec<(&str, String, &str)> = match args.variant {
        GameKind::Ataxx => LEVELS
            .iter()
            .map(|l| (l.name, l.strength.to_string(), l.description))
            .collect(),
        kind => variant_levels(kind)
            .iter()
            .map(|l| (l.name, l.spec(), l.description))
            .collect(),
    };
    let width = rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
    println!("{:<10}  {:<width$}  what it does", "level", "player");
    for (name, player, description) in rows {
        println!("{name:<10}  {player:<width$}  {description}");
    }
    Ok(())
}
