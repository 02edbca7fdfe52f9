//! Reading `tournament …` lines (issue 34): `list`, `show <id>`,
//! `create <kind> <name> <user> <password> [game=G] [rounds=N] [minutes=M] [clock=M+S | days=D]
//! [rated=yes|no]`, and `join|withdraw|start|stop <id> <user> <password>`.

use games::GameKind;

use super::words::usage;
use super::Command;
use crate::domain::tournaments::NewTournament;
use crate::error::{Error, Result};

pub(super) const USAGE: &str = "tournament list | tournament show <id> | tournament create \
     <arena|swiss|league> <name> <userid> <password> [game=G] [rounds=N] [minutes=M] \
     [clock=M+S | days=D] [rated=yes|no] | tournament join|withdraw|start|stop <id> <userid> <password>";

/// What a `tournament` line asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TournamentCommand {
    List,
    Show {
        id: i64,
    },
    Create {
        userid: String,
        password: String,
        new: NewTournament,
    },
    Act {
        id: i64,
        userid: String,
        password: String,
        act: TournamentAct,
    },
}

/// What a player does to a tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TournamentAct {
    Join,
    Withdraw,
    Start,
    /// The creator ends a Swiss or league after the round in play.
    Stop,
}

fn tournament_id(word: &str) -> Result<i64> {
    word.parse::<i64>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| Error::Command(format!("{word:?} is not a tournament number")))
}

/// Reads the words after `tournament`.
pub(super) fn parse_tournament(w: &[&str]) -> Result<Command> {
    let sub = w.first().map(|s| s.to_ascii_lowercase());
    let command = match (sub.as_deref(), w.len()) {
        (Some("list"), 1) => TournamentCommand::List,
        (Some("show"), 2) => TournamentCommand::Show {
            id: tournament_id(w[1])?,
        },
        (Some("create"), n) if n >= 5 => {
            let kind = w[1].to_ascii_lowercase().parse().map_err(Error::Command)?;
            let mut new = NewTournament::new(kind, w[2]);
            for setting in &w[5..] {
                set(&mut new, setting)?;
            }
            TournamentCommand::Create {
                userid: w[3].to_string(),
                password: w[4].to_string(),
                new,
            }
        }
        (Some(act @ ("join" | "withdraw" | "start" | "stop")), 4) => TournamentCommand::Act {
            id: tournament_id(w[1])?,
            userid: w[2].to_string(),
            password: w[3].to_string(),
            act: match act {
                "join" => TournamentAct::Join,
                "withdraw" => TournamentAct::Withdraw,
                "start" => TournamentAct::Start,
                _ => TournamentAct::Stop,
            },
        },
        _ => return Err(usage(USAGE)),
    };
    Ok(Command::Tournament(command))
}

/// Applies one `name=value` setting of `tournament create`.
fn set(new: &mut NewTournament, setting: &str) -> Result<()> {
    let Some((name, value)) = setting.split_once('=') else {
        return Err(Error::Command(format!(
            "{setting:?}: settings are name=value (game, rounds, minutes, clock, days, rated)"
        )));
    };
    let number = |what: &str| {
        value
            .parse::<i64>()
            .map_err(|_| Error::Command(format!("{what}={value}: give a whole number")))
    };
    match name.to_ascii_lowercase().as_str() {
        "game" => {
            new.game = value.parse::<GameKind>().map_err(|_| {
                Error::Command(format!("game={value}: the games are {}", GameKind::names()))
            })?
        }
        "rounds" => new.rounds = number("rounds")?,
        "minutes" => new.minutes = number("minutes")?,
        "days" => new.days = Some(number("days")?),
        "clock" => new.clock = Some(value.to_string()),
        "rated" => {
            new.rated = match value.to_ascii_lowercase().as_str() {
                "yes" | "true" => true,
                "no" | "false" => false,
                _ => return Err(Error::Command(format!("rated={value}: give yes or no"))),
            }
        }
        other => {
            return Err(Error::Command(format!(
                "unknown setting {other:?}: give game, rounds, minutes, clock, days or rated"
            )))
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A whole `tournament …` line, read here without the command parser (which calls this).
    fn parse(line: &str) -> Result<Command> {
        let words: Vec<&str> = line.split_whitespace().skip(1).collect();
        parse_tournament(&words)
    }
    use crate::model::TournamentKind;

    #[test]
    fn the_interface_reads_as_issue_34_writes_it() {
        let Command::Tournament(TournamentCommand::Create { userid, new, .. }) =
            parse("tournament create swiss Autumn alice pw game=hexxagon rounds=5 days=3 rated=no")
                .unwrap()
        else {
            panic!("not a create")
        };
        assert_eq!(userid, "alice");
        assert_eq!(
            (
                new.kind,
                new.name.as_str(),
                new.game,
                new.rounds,
                new.days,
                new.rated
            ),
            (
                TournamentKind::Swiss,
                "Autumn",
                GameKind::Hexxagon,
                5,
                Some(3),
                false
            )
        );
        assert_eq!(
            parse("tournament withdraw 4 bob pw").unwrap(),
            Command::Tournament(TournamentCommand::Act {
                id: 4,
                userid: "bob".into(),
                password: "pw".into(),
                act: TournamentAct::Withdraw
            })
        );
        assert_eq!(
            parse("tournament STOP 9 carol pw").unwrap(),
            Command::Tournament(TournamentCommand::Act {
                id: 9,
                userid: "carol".into(),
                password: "pw".into(),
                act: TournamentAct::Stop
            })
        );
        let err = parse("tournament create cup x alice pw").unwrap_err();
        assert!(err.to_string().contains("arena, swiss, league"), "{err}");
        let err = parse("tournament create arena x alice pw colour=red").unwrap_err();
        assert!(err.to_string().contains("unknown setting"), "{err}");
        assert!(parse("tournament show x").is_err());
    }
}
