//! Building a computer opponent from a level name or a player spec.

use anyhow::bail;
use ataxx_players::{Level, Player, PlayerSpec};

/// The player named by `--level` or `--player` (at most one of them may be given; neither means
/// `default_level`), with the name it goes by.
pub fn opponent(
    level: Option<&str>,
    player: Option<&str>,
    default_level: &str,
    seed: u64,
) -> anyhow::Result<(String, Box<dyn Player>)> {
    match (level, player) {
        (Some(_), Some(_)) => bail!("give either --level or --player, not both"),
        (None, Some(spec)) => {
            let spec: PlayerSpec = spec.parse()?;
            Ok((spec.to_string(), Box::new(spec.build(seed))))
        }
        (level, None) => {
            let level: &Level = level.unwrap_or(default_level).parse()?;
            Ok((level.name.to_string(), level.player(seed)))
        }
    }
}
