//! The options of a challenge (spec sections 8 and 10): read by name, checked, and turned
//! into the start position.

use games::{AnyPosition, GameKind, StartOptions};

use crate::error::{Error, Result};

/// The options of a challenge (spec sections 8 and 10).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeOptions {
    /// The game: named by the command's first word, or by `-variant=hex` / `-players=4`.
    pub game: GameKind,
    /// What the game itself reads: size and blocked cells. The game refuses what it cannot
    /// honour when the board is set up.
    pub start: StartOptions,
    /// Blocked cells as given (`0` = none).
    pub blocks_text: String,
    /// Live game: Fischer clock with this much time and increment per move.
    pub clock: Option<(i64, i64)>,
    pub nag_days: i64,
    pub forfeit_days: i64,
    pub total_days: Option<i64>,
    /// A position to start from instead of the game's own start (a league's book opening).
    pub opening: Option<String>,
}

impl Default for ChallengeOptions {
    fn default() -> Self {
        ChallengeOptions::new(GameKind::Ataxx)
    }
}

/// The options every challenge accepts besides its game's own, listed in refusals.
pub const OPTION_HELP: &str = "-size=<n>, -blocks=<layout>, -variant=square|hex, -players=2|4, \
     -win_height=0|1|-1 (ankor), -clock=<minutes>+<seconds increment> (live game), \
     --nagtime=<days>, --forfeittime=<days>, --totaltime=<days>";

fn days(name: &str, value: &str) -> Result<i64> {
    match value.parse::<i64>() {
        Ok(n) if (1..=365).contains(&n) => Ok(n),
        _ => Err(Error::InvalidChallenge(format!(
            "{name}={value}: give a number of days from 1 to 365"
        ))),
    }
}

/// The game another name selects (`-variant=hex` is Hexxagon, `-players=4` four-player
/// Ataxx), refused with `what` when this build has no such game.
fn game_named(name: &str, what: &str) -> Result<GameKind> {
    name.parse::<GameKind>().map_err(|_| {
        Error::InvalidChallenge(format!(
            "{what}: {name} is not offered by this server yet (games: {})",
            GameKind::names()
        ))
    })
}

impl ChallengeOptions {
    /// The defaults for a game.
    pub fn new(game: GameKind) -> ChallengeOptions {
        ChallengeOptions {
            game,
            start: StartOptions::default(),
            blocks_text: "0".to_string(),
            clock: None,
            nag_days: 7,
            forfeit_days: 21,
            total_days: None,
            opening: None,
        }
    }

    /// Sets one option by name (without its dashes), as `-name=value` gives it.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<()> {
        let value_of = || {
            value.ok_or_else(|| {
                Error::InvalidChallenge(format!("-{name} needs a value (-{name}=...)"))
            })
        };
        match name {
            "size" => {
                let v = value_of()?;
                self.start.size = Some(v.parse::<u8>().map_err(|_| {
                    Error::InvalidChallenge(format!("-size={v}: give the board size as a number"))
                })?);
            }
            "blocks" => {
                let v = value_of()?;
                self.start.blocks = Some(v.to_string());
                self.blocks_text = v.to_string();
            }
            // Ankor's height up to which a path touches a side (pbmserv.md 10.5).
            "win_height" => {
                let v = value_of()?;
                self.start.win_height = Some(v.parse::<i8>().map_err(|_| {
                    Error::InvalidChallenge(format!("-win_height={v}: give 0, 1 or -1"))
                })?);
            }
            // The spec's aliases (pbmserv.md 10.3, 10.3a): the square game's other boards, which
            // only `ataxx challenge` names that way.
            "variant" | "players" if self.game != GameKind::Ataxx => {
                return Err(Error::InvalidChallenge(format!(
                    "-{name} is an option of ataxx challenge, not of {}",
                    self.game
                )))
            }
            "variant" => match value_of()? {
                "square" => {}
                "hex" => self.game = game_named("hexxagon", "-variant=hex")?,
                v => {
                    return Err(Error::InvalidChallenge(format!(
                        "-variant={v}: variants are square and hex"
                    )))
                }
            },
            "players" => match value_of()? {
                "2" => {}
                "4" => self.game = game_named("ataxx4", "-players=4")?,
                v => {
                    return Err(Error::InvalidChallenge(format!(
                        "-players={v}: games are for 2 or 4 players"
                    )))
                }
            },
            "clock" => {
                let v = value_of()?;
                let bad = || {
                    Error::InvalidChallenge(format!(
                        "-clock={v}: give minutes and increment seconds, e.g. -clock=5+3"
                    ))
                };
                let (minutes, increment) = v.split_once('+').ok_or_else(bad)?;
                let minutes: f64 = minutes.parse().map_err(|_| bad())?;
                let increment: i64 = increment.parse().map_err(|_| bad())?;
                if !(0.0..=1440.0).contains(&minutes) || !(0..=600).contains(&increment) {
                    return Err(bad());
                }
                let base = (minutes * 60_000.0) as i64;
                if base == 0 && increment == 0 {
                    return Err(bad());
                }
                self.clock = Some((base, increment * 1000));
            }
            "nagtime" => self.nag_days = days("--nagtime", value_of()?)?,
            "forfeittime" => self.forfeit_days = days("--forfeittime", value_of()?)?,
            "totaltime" => self.total_days = Some(days("--totaltime", value_of()?)?),
            _ => {
                return Err(Error::InvalidChallenge(format!(
                    "unknown option -{name}; options: {OPTION_HELP}"
                )))
            }
        }
        Ok(())
    }

    /// The start position these options give, as the game sets it up.
    pub fn start(&self) -> Result<Box<dyn AnyPosition>> {
        let start = match &self.opening {
            Some(fen) => self.game.parse_position(fen),
            None => self.game.start(&self.start),
        };
        start.map_err(|err| {
            Error::InvalidChallenge(match err {
                games::GameError::Option { reason, .. } => reason,
                other => other.to_string(),
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(pairs: &[(&str, &str)]) -> Result<ChallengeOptions> {
        let mut options = ChallengeOptions::default();
        for (name, value) in pairs {
            options.set(name, Some(value))?;
        }
        Ok(options)
    }

    #[test]
    fn challenge_options_give_the_spec_start_positions() {
        let h = options(&[("blocks", "h")]).unwrap();
        assert_eq!(h.start().unwrap().fen(), "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1");
        let mask = options(&[("blocks", "0x7888")]).unwrap();
        assert_eq!(
            mask.start().unwrap().fen(),
            "x2-2o/3-3/3-3/---1---/3-3/3-3/o2-2x x 0 1"
        );
        let live = options(&[("clock", "5+3"), ("nagtime", "2")]).unwrap();
        assert_eq!((live.clock, live.nag_days), (Some((300_000, 3_000)), 2));
        assert_eq!(
            options(&[("size", "5")]).unwrap().start().unwrap().fen(),
            "x3o/5/5/5/o3x x 0 1"
        );
    }

    #[test]
    fn challenge_options_refuse_what_the_spec_refuses() {
        let refused = |pairs: &[(&str, &str)], needle: &str| {
            let err = options(pairs)
                .and_then(|o| o.start())
                .unwrap_err()
                .to_string();
            assert!(err.contains(needle), "{pairs:?}: {err}");
        };
        refused(&[("size", "5"), ("blocks", "h")], "needs the 7x7 board");
        refused(&[("blocks", "0x0001")], "-blocks=0x0001");
        refused(&[("size", "9")], "-size=9");
        refused(
            &[("blocks", "abcdefgh")],
            "a side has no legal move at the start",
        );
        refused(&[("variant", "octagon")], "variants are square and hex");
        refused(&[("players", "3")], "2 or 4 players");
        refused(&[("clock", "5")], "-clock=5");
        refused(&[("forfeittime", "0")], "--forfeittime=0");
        refused(&[("colour", "red")], "unknown option -colour");
    }
}
