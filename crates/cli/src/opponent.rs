//! Building a computer opponent from a level name or a player spec.

use anyhow::bail;
use ataxx_players::{ClassicPlayer, Level, PlayerSpec, Strength};

/// The player named by `--level` or `--player` (at most one of them may be given).
pub fn classic_opponent(
    level: Option<&str>,
    player: Option<&str>,
    seed: u64,
) -> anyhow::Result<(String, ClassicPlayer)> {
    match (level, player) {
        (Some(_), Some(_)) => bail!("give either --level or --player, not both"),
        (None, Some(spec)) => {
            let spec: PlayerSpec = spec.parse()?;
            Ok((spec.to_string(), spec.build(seed)))
        }
        (level, None) => {
            let level: &Level = level.unwrap_or("easy").parse()?;
            match level.strength {
                Strength::Classic(_) => {
                    let spec = level.classic().expect("classic level");
                    Ok((level.name.to_string(), spec.build(seed)))
                }
                Strength::Engine { .. } => bail!(
                    "level {} plays with the engine, which this build does not include",
                    level.name
                ),
            }
        }
    }
}
