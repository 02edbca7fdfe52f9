//! Reading a command line as a [`Command`]: the account commands here, a game's commands in
//! [`super::parse_game`], both over the words of [`super::words`].

use games::GameKind;

use super::parse_game::parse_game;
use super::words::{usage, words, Words};
use super::{Command, MAX_LINE};
use crate::error::{Error, Result};
/// Parses a command line.
pub fn parse(line: &str) -> Result<Command> {
    if line.len() > MAX_LINE {
        return Err(Error::TooLong {
            what: "a command line",
            max: MAX_LINE,
        });
    }
    let Words {
        words,
        options,
        framework,
    } = words(line);
    let framework: Vec<_> = framework.into_iter().filter(|(n, _)| n != "json").collect();
    let w: Vec<&str> = words.iter().map(String::as_str).collect();
    let Some(first) = w.first() else {
        return Err(Error::Command("empty command; try help".into()));
    };
    let first = first.to_ascii_lowercase();
    let no_options = |what: &str| -> Result<()> {
        match options.first().or(framework.first()) {
            Some((name, _)) => Err(Error::Command(format!("{what} takes no option -{name}"))),
            None => Ok(()),
        }
    };
    let game = first.parse::<GameKind>().ok();
    if game.is_none() {
        no_options(&first)?;
    }
    if let Some(command) = parse_account(&first, &w)? {
        return Ok(command);
    }
    Ok(match first.as_str() {
        "help" => Command::Help {
            subjects: rest(&w, 1)
                .into_iter()
                .map(|s: String| s.to_ascii_lowercase())
                .collect(),
        },
        "list" => Command::List,
        "clock" if w.len() == 3 && w[1].eq_ignore_ascii_case("advance") => Command::ClockAdvance {
            seconds: w[2]
                .parse()
                .ok()
                .filter(|s| *s > 0)
                .ok_or_else(|| usage("clock advance <seconds>"))?,
        },
        "tournament" => super::parse_tournament::parse_tournament(&w[1..])?,
        "admin" => super::admin::parse_admin(&w[1..])?,
        _ if game.is_some() => parse_game(game.expect("a game"), &w[1..], options, framework)?,
        _ => {
            return Err(Error::Command(format!(
            "unknown command {first:?}; commands: signup, change, reset, signoff, delete, help, \
                 list, vacation, tournament, admin, \
                 <game> <command> with a game of {} (try: help commands)",
            GameKind::names()
        )))
        }
    })
}

/// The account commands: signup, changes of password, address and mail events, messages,
/// confirmations, resets, closing, vacations; None for any other command.
fn parse_account(first: &str, w: &[&str]) -> Result<Option<Command>> {
    let s = |i: usize| w[i].to_string();
    Ok(Some(match first {
        "signup" if w.len() >= 3 => Command::Signup {
            userid: s(1),
            password: s(2),
            addresses: rest(w, 3),
        },
        "signup" => return Err(usage("signup <userid> <password> [<address>...]")),
        "change" => parse_change(w)?,
        "message" if w.len() >= 4 => Command::Message {
            userid: s(1),
            password: s(2),
            to: rest(w, 3)
                .into_iter()
                .map(|t: String| t.to_ascii_lowercase())
                .collect(),
        },
        "message" => {
            return Err(usage(
                "message <userid> <password> <to>... (the mail body is the message)",
            ))
        }
        "confirm" if w.len() == 4 && w[1].eq_ignore_ascii_case("address") => {
            Command::ConfirmAddress {
                userid: s(2).to_ascii_lowercase(),
                token: s(3),
            }
        }
        "confirm" => {
            return Err(usage(
                "confirm address <userid> <token> (from the confirmation mail)",
            ))
        }
        "reset" if w.len() == 2 => Command::ResetRequest { who: s(1) },
        "reset" if w.len() == 3 => Command::Reset {
            token: s(1),
            password: s(2),
        },
        "reset" => {
            return Err(usage(
                "reset <userid>|<address> (mails a reset token) | reset <token> <new password>",
            ))
        }
        "broadcast" if w.len() == 3 => Command::Broadcast {
            userid: s(1),
            password: s(2),
        },
        "broadcast" => {
            return Err(usage(
                "broadcast <userid> <password> (the mail body is the message)",
            ))
        }
        "signoff" | "delete" if w.len() == 3 => Command::Close {
            userid: s(1),
            password: s(2),
        },
        "signoff" | "delete" => return Err(usage(&format!("{first} <userid> <password>"))),
        "vacation" if w.len() == 4 => Command::Vacation {
            userid: s(1),
            password: s(2),
            days: match w[3].to_ascii_lowercase().as_str() {
                "off" => None,
                days => Some(days.parse().map_err(|_| {
                    usage("vacation <userid> <password> <days>|off (days: a whole number)")
                })?),
            },
        },
        "vacation" => return Err(usage("vacation <userid> <password> <days>|off")),
        _ => return Ok(None),
    }))
}

/// `change password|address|mail …`.
fn parse_change(w: &[&str]) -> Result<Command> {
    let s = |i: usize| w[i].to_string();
    Ok(match w.get(1).map(|w| w.to_ascii_lowercase()).as_deref() {
        Some("password") if w.len() == 5 => Command::ChangePassword {
            userid: s(2),
            current: s(3),
            new: s(4),
        },
        Some("address") if w.len() >= 4 => Command::ChangeAddress {
            userid: s(2),
            password: s(3),
            addresses: rest(w, 4),
        },
        Some("mail") if w.len() >= 5 => Command::MailEvents {
            userid: s(2),
            password: s(3),
            events: rest(w, 4).into_iter().map(|e: String| e.to_ascii_lowercase()).collect(),
        },
        _ => {
            return Err(usage(
                "change password <userid> <current> <new> | change address <userid> <password> [<address>...] | change mail <userid> <password> <event>...|all|none",
            ))
        }
    })
}

/// The words from the `i`th on.
fn rest(w: &[&str], i: usize) -> Vec<String> {
    w.get(i..)
        .unwrap_or(&[])
        .iter()
        .map(|s| s.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_reads_its_board_player_password_move_and_number() {
        let cmd = parse("ataxx move 101 alice s3cret c3b5#9").unwrap();
        assert_eq!(
            cmd,
            Command::Act {
                board: 101,
                userid: "alice".into(),
                password: "s3cret".into(),
                action: Action::Play("c3b5".into()),
                guard: Some(9),
            }
        );
        assert!(parse("ataxx move 101 alice").is_err());
    }
    use crate::domain::games::{Action, Answer};

    #[test]
    fn options_come_out_anywhere_and_dashes_stay_move_text() {
        let cmd = parse("ataxx chall -blocks=h alice --nagtime=3 bob **").unwrap();
        let Command::Challenge {
            options, players, ..
        } = cmd
        else {
            panic!("not a challenge")
        };
        assert_eq!(players, ["alice", "bob"]);
        assert_eq!(options.blocks_text, "h");
        assert_eq!(options.nag_days, 3);
        let cmd = parse("ataxx mvoe 101 alice pw --").unwrap();
        assert!(matches!(cmd, Command::Act { action: Action::Play(ref m), .. } if m == "--"));
    }

    #[test]
    fn refusals_name_what_was_wrong() {
        let err = parse("ataxx challenge -colour=red alice bob").unwrap_err();
        assert!(err.to_string().contains("unknown option -colour"), "{err}");
        assert!(err.to_string().contains("-blocks="), "{err}");
        let err = parse("ataxx move x101 alice pw c3").unwrap_err();
        assert!(
            err.to_string().contains("\"x101\" is not a board number"),
            "{err}"
        );
        let err = parse("ataxx move 101 alice pw c3#x").unwrap_err();
        assert!(err.to_string().contains("#N"), "{err}");
        assert!(parse("frobnicate")
            .unwrap_err()
            .to_string()
            .contains("unknown command"));
        assert!(parse(&"a".repeat(MAX_LINE + 1)).is_err());
    }

    #[test]
    fn board_accept_and_policy_accept_are_told_apart_by_their_arguments() {
        assert!(matches!(
            parse("ataxx accept 101 bob pw").unwrap(),
            Command::Answer {
                board: 101,
                answer: Answer::Accept,
                ..
            }
        ));
        assert!(matches!(
            parse("ataxx reject bob pw").unwrap(),
            Command::Policy { accept: false, .. }
        ));
        assert!(matches!(
            parse("ataxx show 101#5 102").unwrap(),
            Command::ShowBoards { ref boards } if boards == &[(101, Some(5)), (102, None)]
        ));
    }
}
